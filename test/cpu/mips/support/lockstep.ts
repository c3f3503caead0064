/**
 * Lockstep comparison of the two engines: the fast engine runs one dispatch (a translated block,
 * or one interpreted instruction) at a time; the reference interpreter then runs the same number
 * of instructions; the complete architectural state must be identical after every block, and the
 * exception (if any) must be the same.
 */
import { STOP_BUDGET, STOP_EXCEPTION, type MipsCpu } from '../../../../cpu/mips/cpu.js';
import type { FastEngine } from '../../../../cpu/mips/translate.js';

const hex = (v: number): string => (v >>> 0).toString(16);

/** Every architectural difference between two CPUs (empty when identical). */
export function stateDiff(a: MipsCpu, b: MipsCpu): string[] {
  const d: string[] = [];
  const cmp = (what: string, x: number | boolean, y: number | boolean): void => {
    if (x !== y) d.push(`${what}: fast ${typeof x === 'number' ? hex(x) : x} ref ${typeof y === 'number' ? hex(y) : y}`);
  };
  cmp('pc', a.pc >>> 0, b.pc >>> 0);
  cmp('npc', a.npc >>> 0, b.npc >>> 0);
  cmp('delay', a.delay, b.delay);
  cmp('icount', a.icount, b.icount);
  for (let k = 0; k < 34; k++) cmp(k === 32 ? 'hi' : k === 33 ? 'lo' : `r${k}`, a.r[k]!, b.r[k]!);
  for (let k = 0; k < 32; k++) cmp(`f${k}`, a.fpu.fgr[k]!, b.fpu.fgr[k]!);
  cmp('fcsr', a.fpu.fcsr, b.fpu.fcsr);
  for (const n of [0, 2, 4, 8, 10, 12, 13]) cmp(`cp0.${n}`, a.readCp0(n), b.readCp0(n));
  cmp('epc', a.epc >>> 0, b.epc >>> 0);
  cmp('excNextPC', a.excNextPC >>> 0, b.excNextPC >>> 0);
  for (let k = 0; k < 64; k++) {
    cmp(`tlbHi[${k}]`, a.tlbHi[k]!, b.tlbHi[k]!);
    cmp(`tlbLo[${k}]`, a.tlbLo[k]!, b.tlbLo[k]!);
  }
  return d;
}

/** First differing word of physical memory, or -1. */
export function memDiff(a: MipsCpu, b: MipsCpu): number {
  const x = a.mem.u32;
  const y = b.mem.u32;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i * 4;
  return -1;
}

export interface LockstepSide {
  cpu: MipsCpu;
  /** Handles the exception the CPU stopped on (the test kernel). */
  handle(): void;
  done(): boolean;
}

export interface LockstepResult {
  blocks: number;
  instructions: number;
  exceptions: number;
  diffs: string[];
}

/**
 * Runs fast and ref side by side for at most maxInsns instructions. `fast.cpu.engine` must be a
 * FastEngine; its blockLimit is set to 1 for the run.
 */
export function lockstep(fast: LockstepSide, ref: LockstepSide, maxInsns: number, memEvery = 5000, budget?: () => number): LockstepResult {
  const eng = fast.cpu.engine as FastEngine;
  // Without a budget function: one block per step. With one: runs of that many instructions, so
  // block links and budget tails (the interpreter finishing a run) are exercised too.
  eng.blockLimit = budget ? Infinity : 1;
  const res: LockstepResult = { blocks: 0, instructions: 0, exceptions: 0, diffs: [] };
  try {
    let idle = 0;
    while (!fast.done() && res.instructions < maxInsns) {
      const before = fast.cpu.icount;
      const sf = fast.cpu.run(Math.min(budget ? budget() : 1 << 30, maxInsns - res.instructions));
      const n = fast.cpu.icount - before;
      const sr = ref.cpu.run(sf === STOP_EXCEPTION ? n + 1 : n);
      res.blocks++;
      res.instructions += n;
      idle = n === 0 ? idle + 1 : 0;
      if (idle > 10_000) {
        res.diffs.push(`no instruction retired in 10000 dispatches (pc ${hex(fast.cpu.pc)}, exception ${fast.cpu.excCode})`);
        return res;
      }
      const d = stateDiff(fast.cpu, ref.cpu);
      if (sf !== sr) d.unshift(`stop: fast ${sf} ref ${sr}`);
      if (d.length > 0) {
        res.diffs.push(`after block ${res.blocks} (${res.instructions} instructions): ${d.slice(0, 8).join('; ')}`);
        return res;
      }
      if (sf !== STOP_BUDGET) {
        res.exceptions++;
        fast.handle();
        ref.handle();
        const d2 = stateDiff(fast.cpu, ref.cpu);
        if (d2.length > 0) {
          res.diffs.push(`after handling exception ${res.exceptions}: ${d2.slice(0, 8).join('; ')}`);
          return res;
        }
      }
      if (res.blocks % memEvery === 0 || fast.done()) {
        const m = memDiff(fast.cpu, ref.cpu);
        if (m >= 0) {
          res.diffs.push(`after block ${res.blocks}: physical memory differs at ${hex(m)}`);
          return res;
        }
      }
    }
  } finally {
    eng.blockLimit = Infinity;
  }
  return res;
}
