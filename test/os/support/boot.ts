/**
 * Boots a kernel on the scripted machine (scriptmd.ts) for the MI kernel's unit tests.
 */
import { pino } from 'pino';
import { Kernel } from '../../../os/kernel.js';
import type { Console } from '../../../os/dev.js';
import { ScriptMachine, type ScriptFactory, makeTestElf } from './scriptmd.js';

export interface ScriptBoot {
  k: Kernel;
  md: ScriptMachine;
  output(): string;
  run(): void;
}

export interface ScriptBootOptions {
  programs: Record<string, ScriptFactory>;
  init?: string[];
  quantum?: number;
  seed?: number | null;
  memory?: number;
  maxproc?: number;
  stdin?: string;
  maxInstructions?: number;
  /** Extra files: path -> contents. */
  files?: Record<string, string | Uint8Array>;
  /** Called with the kernel before it boots (drivers attach here). */
  attach?: (k: Kernel) => void;
}

export function bootScript(o: ScriptBootOptions): ScriptBoot {
  const md = new ScriptMachine(o.memory ?? 8 * 1024 * 1024);
  const out: Buffer[] = [];
  let input = Buffer.from(o.stdin ?? '', 'latin1');
  const console: Console = {
    write: (b) => void out.push(Buffer.from(b)),
    read: (max) => {
      const r = input.subarray(0, max);
      input = input.subarray(r.length);
      return r;
    },
  };
  const k = new Kernel({
    md, hz: 100, cpuHz: 1_000_000, quantumCycles: o.quantum ?? 100_000, maxproc: o.maxproc ?? 64,
    seed: o.seed ?? null, disk: { latency_us: 1000, bandwidth: 1_000_000 }, trbufSize: 1 << 20, console,
    maxInstructions: o.maxInstructions ?? 1e9, log: pino({ level: 'silent' }), truth: null,
  });
  k.vfs.mkdirs('/tmp', 0o1777);
  let marker = 1;
  for (const [path, f] of Object.entries(o.programs)) {
    md.programs.set(path, f);
    k.vfs.installFile(path, makeTestElf(marker++), 0o755);
  }
  for (const [path, data] of Object.entries(o.files ?? {})) {
    k.vfs.installFile(path, typeof data === 'string' ? Buffer.from(data, 'latin1') : data, 0o644);
  }
  const init = o.init ?? [Object.keys(o.programs)[0]!];
  o.attach?.(k);
  k.boot(init, ['PATH=/bin']);
  return { k, md, output: () => Buffer.concat(out).toString('latin1'), run: () => k.run() };
}
