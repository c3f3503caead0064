/**
 * Random programs generated from the opcode table for the lockstep tests, and machines that run
 * them (see machine.ts).
 */
import { expect } from 'vitest';
import { OPCODES, type OpSpecFull } from '../../../cpu/sparc/opcodes.js';
import { Prng } from '../../../format/prng.js';
import { randomWord } from '../../../cpu/sparc/testgen.js';
import { BareMachine, CODE_VA, DATA_SIZE, DATA_VA, STACK_TOP } from './machine.js';

export interface ProgramOptions {
  supervisor: boolean;
  length: number;
}

/**
 * A random program: every table entry eligible. To run long stretches without traps (so the
 * translator's code runs, not just its trap exits), most instructions are shaped: nothing writes
 * %g1-%g5, memory instructions address data through %g1-%g4 (pointers into the data area) with a
 * small aligned offset, jmpl targets the code through %g5 (= CODE_VA), SAVE/RESTORE move %sp
 * like compiled code, PC-relative targets stay inside the code. One in ten is left as generated.
 */
export function randomProgram(rng: Prng, o: ProgramOptions): number[] {
  const specs = OPCODES.filter((s) => o.supervisor || !(s.mem?.unit === 'fq'));
  const words: number[] = [];
  const RD = (w: number, rd: number): number => ((w & ~(31 << 25)) | (rd << 25)) >>> 0;
  const RS1 = (w: number, rs1: number): number => ((w & ~(31 << 14)) | (rs1 << 14)) >>> 0;
  const IMM = (w: number, v: number): number => ((w & ~0x3fff) | 0x2000 | (v & 0x1fff)) >>> 0;
  for (let i = 0; i < o.length; i++) {
    const spec: OpSpecFull = rng.pick(specs);
    let w = randomWord(spec, rng, { alignPairs: rng.chance(0.9) });
    const shape = !rng.chance(0.1);
    if (spec.fmt === 'bicc' || spec.fmt === 'fbfcc' || spec.fmt === 'cbccc') {
      const target = Math.max(0, Math.min(o.length - 1, i + rng.below(41) - 20));
      w = ((w & ~0x3fffff) | ((target - i) & 0x3fffff)) >>> 0;
    } else if (spec.fmt === 'call') {
      const target = Math.max(0, Math.min(o.length - 1, i + rng.below(41) - 20));
      w = (0x40000000 | ((target - i) & 0x3fffffff)) >>> 0;
    } else if (shape && spec.sem === 'jmpl') {
      w = IMM(RS1(w, 5), Math.min(o.length - 1, rng.below(o.length)) * 4);
      if (((w >>> 25) & 31) >= 1 && ((w >>> 25) & 31) <= 5) w = RD(w, 15);
    } else if (shape && (spec.sem === 'save' || spec.sem === 'restore')) {
      w = spec.sem === 'save' ? RD(IMM(RS1(w, 14), -96 - 8 * rng.below(4)), 14) : rng.chance(0.7) ? (w & 0xc1f80000) >>> 0 : w;
    } else if (shape && spec.mem && !spec.mem.alt) {
      const width = spec.mem.width;
      w = IMM(RS1(w, 1 + rng.below(4)), rng.below(64) * Math.max(width, 4));
      if (spec.mem.kind !== 'store' && ((w >>> 25) & 31) >= 1 && ((w >>> 25) & 31) <= 5) w = RD(w, 8 + rng.below(24) & ~(width === 8 ? 1 : 0));
    } else if (shape && ((w >>> 25) & 31) >= 1 && ((w >>> 25) & 31) <= 5 && spec.defs.includes('rd')) {
      w = RD(w, 8 + rng.below(24));
    }
    // Few PSR writes (ET = 0 ends a run in error mode) and coprocessor instructions (cp_disabled).
    if (spec.sem === 'wrpsr' && rng.chance(0.7)) w = 0x01000000;
    if (spec.cp && rng.chance(0.75)) w = 0x01000000;
    // Loops in random code repeat whatever they contain: keep always-trapping instructions rare.
    if (spec.priv && !o.supervisor && rng.chance(0.9)) w = 0x01000000;
    if ((spec.sem === 'unimp' || spec.sem === 'rdasr' || spec.sem === 'wrasr') && rng.chance(0.9)) w = 0x01000000;
    if (spec.sem === 'ticc' && rng.chance(0.8)) w = (w & ~(15 << 25)) >>> 0;
    words.push(w);
  }
  return words;
}

/** Random register and FP contents, a third of them pointers into data or stack. */
export function seedRegisters(m: BareMachine, rng: Prng): void {
  const cpu = m.cpu;
  for (let w = 0; w < cpu.nwindows; w++) {
    for (let i = 8; i < 32; i++) {
      if (i === 14 || i === 30) continue;
      const k = rng.below(6);
      const v = k === 0 ? DATA_VA + rng.below(DATA_SIZE / 8) * 8 : k === 1 ? STACK_TOP - 512 + rng.below(64) * 4 : k === 2 ? rng.below(64) : rng.u32() | 0;
      cpu.setWindowReg(w, i, v);
    }
  }
  for (let i = 1; i <= 4; i++) cpu.setReg(i, DATA_VA + rng.below(DATA_SIZE / 8 - 64) * 8);
  cpu.setReg(5, CODE_VA);
  cpu.setReg(6, rng.u32() | 0);
  cpu.setReg(7, rng.u32() | 0);
  const specials = [0, 0x3f800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 0x00000001, 0x80000000];
  for (let i = 0; i < 32; i++) cpu.fpu.fr[i] = rng.chance(0.3) ? specials[rng.below(specials.length)]! | 0 : rng.u32() | 0;
  cpu.y = rng.u32() | 0;
  for (let a = DATA_VA; a < DATA_VA + DATA_SIZE; a += 4) m.write32(a, rng.u32() | 0);
}

export function twoMachines(words: number[], seed: number, supervisor: boolean, nwindows = 8): [BareMachine, BareMachine] {
  const ms = (['interp', 'fast'] as const).map((engine) => {
    const m = new BareMachine({ engine, supervisor, nwindows });
    m.loadProgram(words);
    const rng = new Prng(seed * 7919 + 1);
    m.start({ cwp: rng.below(nwindows) });
    seedRegisters(m, rng);
    return m;
  });
  return [ms[0]!, ms[1]!];
}

/** Runs both machines in random budget slices; returns instructions retired by each. */
export function lockstep(a: BareMachine, b: BareMachine, rng: Prng, total: number): number {
  let done = 0;
  let slices = 0;
  while (done < total) {
    const budget = rng.chance(0.6) ? 30 + rng.below(400) : 1 + rng.below(24);
    const before = a.cpu.instret;
    const okA = a.run(budget);
    const okB = b.run(budget);
    slices++;
    expect(b.state(slices % 8 === 0), `slice ${slices}`).toEqual(a.state(slices % 8 === 0));
    expect(okB).toBe(okA);
    if (!okA) break;
    done += Math.max(1, a.cpu.instret - before);
  }
  expect(b.trapLog).toEqual(a.trapLog);
  expect(b.state()).toEqual(a.state());
  return a.cpu.instret;
}
