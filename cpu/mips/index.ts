/**
 * The MIPS R2000 CPU: public entry points. See docs/cpu-mips.md.
 */
import { MipsCpu, type MipsEngine } from './cpu.js';
import { RefEngine } from './interp.js';
import { FastEngine } from './translate.js';

export type EngineName = 'ref' | 'fast';

/** A new engine of the given kind for cpu (engines hold per-CPU translation caches). */
export function createEngine(name: EngineName, cpu: MipsCpu): MipsEngine {
  return name === 'ref' ? new RefEngine() : new FastEngine(cpu);
}

export { MipsCpu };
