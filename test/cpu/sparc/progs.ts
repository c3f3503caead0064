/**
 * Builds the CPU test programs of test/cpu/sparc/progs with the project's SPARC flags
 * (images/toolchain.ts) and the programs' own tiny crt; outputs are cached in
 * test/cpu/sparc/.build/ by a hash of sources and flags.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMON_CFLAGS, COMMON_LDFLAGS, TARGETS, tool } from '../../../images/toolchain.js';
import { buildAsmText } from '../../support/rowcheck.js';

export const PROGS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'progs');
const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '.build');

/** Programs: C ones link crt.S and lib.c; .S ones stand alone. */
export const C_PROGS = ['arith', 'windows', 'mem', 'fp', 'fpops'] as const;
export const ASM_PROGS = ['insns'] as const;
/** Programs small enough for the per-instruction qemu log (fpops runs about a million). */
export const STEP_PROGS = ['insns', 'arith', 'windows', 'mem', 'fp'] as const;

export function buildProg(name: string): string {
  const t = TARGETS.sparc;
  const isAsm = (ASM_PROGS as readonly string[]).includes(name);
  const srcs = isAsm ? [`${name}.S`] : [`${name}.c`, 'crt.S', 'lib.c'];
  const flags = [...t.cflags, ...COMMON_CFLAGS, '-I', PROGS_DIR, ...COMMON_LDFLAGS, ...t.ldflags, `-Wl,-e,${t.entry}`];
  const h = createHash('sha256');
  h.update(flags.join(' '));
  for (const s of [...srcs, 'lib.h']) h.update(readFileSync(join(PROGS_DIR, s)));
  const out = join(OUT_DIR, `${name}-${h.digest('hex').slice(0, 16)}`);
  if (existsSync(out)) return out;
  mkdirSync(OUT_DIR, { recursive: true });
  // A name of this process's own: test files run in parallel and may build the same program.
  const tmp = `${out}.${process.pid}.tmp`;
  execFileSync(tool(t, 'gcc'), [...flags, '-o', tmp, ...srcs.map((s) => join(PROGS_DIR, s))], { stdio: ['ignore', 'pipe', 'pipe'] });
  renameSync(tmp, out);
  return out;
}

/** Builds a stand-alone assembly program given as text (entry _start), cached by hash. */
export function buildAsm(name: string, text: string): string {
  const t = TARGETS.sparc;
  return buildAsmText(tool(t, 'gcc'), [...t.cflags, ...COMMON_CFLAGS, ...COMMON_LDFLAGS, ...t.ldflags, `-Wl,-e,${t.entry}`], OUT_DIR, name, text);
}
