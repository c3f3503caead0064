/**
 * Both engines in lockstep on floating-point loops: the translator computes the common FPops,
 * FP loads and stores inline (cpu/sparc/fpgen.ts) and must agree bit for bit with the
 * interpreter (SparcFpu.exec) on every register, the FSR (cexc, aexc, fcc, ftt, qne), the FP
 * queue and memory. The loops are generated from the opcode table's FP entries and read their
 * operands from tables of corner values (signed zeros, infinities, quiet and signalling NaNs,
 * subnormals, the limits of the host-double fast paths, inexact and exact operands), and their
 * FSR from a table of rounding directions and trap-enable masks, so that every inline path meets
 * its fallbacks: NaN operands, invalid and divide-by-zero, overflow and underflow, directed
 * rounding, enabled exceptions (fp_exception, then sequence_error until the queue is emptied),
 * misaligned double registers, quad FPops (unimplemented_FPop), and fp_disabled with PSR.EF
 * clear. FBfcc branches on the fcc the compares leave.
 */
import { describe, expect, it } from 'vitest';
import { OPCODES, opcodeByName, type OpSpecFull } from '../../../cpu/sparc/opcodes.js';
import { Prng } from '../../../format/prng.js';
import { randomWord } from '../../../cpu/sparc/testgen.js';
import { BareMachine, DATA_VA } from './machine.js';
import { lockstep, seedRegisters } from './randprog.js';

/** Data layout (offsets from DATA_VA, each base in a global register). */
const FSR_TABLE = 0x0000; // %g1: 64 FSR words
const DOUBLES = 0x1000; // %g2: 256 doubles (also read as singles)
const SCRATCH = 0x2000; // %g3: stores, read back
const SINGLES = 0x3000; // %g4: 256 singles

const FP_SPECS = OPCODES.filter((s) => s.fmt === 'fpop');
const MEM = ['ldf', 'lddf', 'stf', 'stdf', 'ldfsr', 'stfsr'].map(opcodeByName);
const FBFCC = OPCODES.filter((s) => s.sem === 'fbfcc');

/** Doubles as [hi, lo] words: corners of IEEE and of fpu.ts's fast-path bounds. */
function cornerDoubles(rng: Prng): [number, number][] {
  const f64 = new Float64Array(1);
  const u32 = new Uint32Array(f64.buffer);
  const bits = (x: number): [number, number] => {
    f64[0] = x;
    return [u32[1]! | 0, u32[0]! | 0];
  };
  const values = [
    0, -0, 1, -1, 1 / 3, -2 / 3, 0.5, 3, 10, 1e-300, 2 ** -968, 2 ** -967, 2 ** -969, 2 ** 995,
    2 ** 994, 2 ** 996, 2 ** 1023, 1.7976931348623157e308, 2 ** -1022, 2 ** -1074, 3 * 2 ** -1074,
    2 ** -125, 2 ** -126, 2 ** -150, 3.4028234663852886e38, 3.5e38, 2 ** 31, -(2 ** 31), 2 ** 31 - 0.5,
    -(2 ** 31) - 1, 123456789.75, Infinity, -Infinity, Math.PI, 1 + 2 ** -52, 2 ** 53, 1e16 + 1,
  ];
  const out = values.map(bits);
  out.push([0x7ff80000, 0], [0x7ff00000, 1], [0xfff40000 | 0, 5], [0x7ff80001, 0x1234], [0x7ff7ffff, -1]);
  while (out.length < 256) {
    const k = rng.below(4);
    if (k === 0) out.push(bits((rng.u32() / 4294967296 - 0.5) * 2 ** (rng.below(80) - 40)));
    else if (k === 1) out.push(bits(rng.below(2000) - 1000));
    else if (k === 2) out.push([rng.u32() | 0, rng.u32() | 0]);
    else out.push(out[rng.below(out.length)]!);
  }
  return out;
}

function cornerSingles(rng: Prng): number[] {
  const f32 = new Float32Array(1);
  const i32 = new Int32Array(f32.buffer);
  const bits = (x: number): number => {
    f32[0] = x;
    return i32[0]!;
  };
  const values = [0, -0, 1, -1, 1 / 3, 0.1, 3, 2 ** -125, 2 ** -126, 2 ** -127, 2 ** -149, 2 ** -140,
    3.4028234663852886e38, 2 ** 127, 2 ** 64, 2 ** 31, -(2 ** 31), 16777217, 2 ** 24, Infinity, -Infinity, 1e-20, 7];
  const out = values.map(bits);
  out.push(0x7fc00000, 0x7f800001, 0xffa00000 | 0, 0x7fc00001, 0x7fbfffff, 0x00000001, 0x807fffff | 0);
  while (out.length < 256) {
    const k = rng.below(3);
    if (k === 0) out.push(bits((rng.u32() / 4294967296 - 0.5) * 2 ** (rng.below(60) - 30)));
    else if (k === 1) out.push(rng.u32() | 0);
    else out.push(out[rng.below(out.length)]!);
  }
  return out;
}

/** FSR words: mostly round-to-nearest with no traps enabled, then every other corner. */
function fsrTable(rng: Prng): number[] {
  const out: number[] = [];
  for (let i = 0; i < 64; i++) {
    const rd = i < 48 ? 0 : rng.below(4);
    const tem = i < 40 ? 0 : rng.pick([0x01, 0x10, 0x1f, 0x04, 0x08, 0x02, rng.below(32)]);
    out.push(((rd << 30) | (tem << 23) | (rng.below(4) << 10) | (rng.below(32) << 5) | rng.below(32)) | 0);
  }
  return out;
}

/**
 * A loop of `length` FP instructions ending in `ba` to its start: FPops (doubles mostly on even
 * registers), FP loads from the tables and stores to the scratch area, a few FSR loads, and
 * forward FBfcc with or without annul.
 */
function fpLoop(rng: Prng, length: number): number[] {
  const words: number[] = [];
  const RS1 = (w: number, r: number): number => ((w & ~(31 << 14)) | (r << 14)) >>> 0;
  const IMM = (w: number, v: number): number => ((w & ~0x3fff) | 0x2000 | (v & 0x1fff)) >>> 0;
  for (let i = 0; i < length; i++) {
    const k = rng.below(100);
    let w: number;
    if (k < 55) {
      // Quad FPops (always unimplemented_FPop) at a fifth of their share.
      let spec = rng.pick(FP_SPECS);
      while (spec.unimpl && rng.chance(0.8)) spec = rng.pick(FP_SPECS);
      w = randomWord(spec, rng, { alignPairs: rng.chance(0.97) });
    } else if (k < 87) {
      const spec: OpSpecFull = rng.pick(MEM.slice(0, 4));
      w = randomWord(spec, rng, { alignPairs: true });
      const dbl = spec.mem!.width === 8;
      if (spec.mem!.kind === 'store') w = IMM(RS1(w, 3), rng.below(128) * 8);
      else if (rng.chance(0.2)) w = IMM(RS1(w, 3), rng.below(128) * 8);
      else if (dbl || rng.chance(0.5)) w = IMM(RS1(w, 2), rng.below(256) * 8 + (dbl ? 0 : 4 * rng.below(2)));
      else w = IMM(RS1(w, 4), rng.below(256) * 4);
      // A rare misaligned address (mem_address_not_aligned).
      if (rng.chance(0.02)) w = IMM(w, (w & 0x1fff) + 4);
    } else if (k < 89) {
      w = rng.chance(0.7) ? IMM(RS1(randomWord(MEM[4]!, rng), 1), rng.below(64) * 4) : IMM(RS1(randomWord(MEM[5]!, rng), 3), rng.below(128) * 4);
    } else if (k < 97 && i + 2 < length) {
      w = randomWord(rng.pick(FBFCC), rng);
      const target = i + 2 + rng.below(Math.min(6, length - i - 1));
      w = ((w & ~0x3fffff) | ((target - i) & 0x3fffff)) >>> 0;
    } else {
      w = 0x01000000; // nop
    }
    words.push(w);
  }
  // ba start; nop
  words.push((0x10800000 | (-length & 0x3fffff)) >>> 0, 0x01000000);
  return words;
}

function fpMachines(seed: number, length: number, ef: boolean): [BareMachine, BareMachine] {
  const rng = new Prng(seed);
  const words = fpLoop(rng, length);
  const doubles = cornerDoubles(rng);
  const singles = cornerSingles(rng);
  const fsrs = fsrTable(rng);
  const ms = (['interp', 'fast'] as const).map((engine) => {
    const m = new BareMachine({ engine, supervisor: false });
    m.loadProgram(words);
    const r = new Prng(seed * 31 + 7);
    m.start({ cwp: r.below(8), ef });
    seedRegisters(m, r);
    const cpu = m.cpu;
    cpu.setReg(1, DATA_VA + FSR_TABLE);
    cpu.setReg(2, DATA_VA + DOUBLES);
    cpu.setReg(3, DATA_VA + SCRATCH);
    cpu.setReg(4, DATA_VA + SINGLES);
    fsrs.forEach((v, i) => m.write32(DATA_VA + FSR_TABLE + 4 * i, v));
    doubles.forEach(([hi, lo], i) => {
      m.write32(DATA_VA + DOUBLES + 8 * i, hi);
      m.write32(DATA_VA + DOUBLES + 8 * i + 4, lo);
    });
    singles.forEach((v, i) => m.write32(DATA_VA + SINGLES + 4 * i, v));
    for (let i = 0; i < 32; i += 2) {
      const [hi, lo] = doubles[r.below(doubles.length)]!;
      cpu.fpu.fr[i + 1] = hi;
      cpu.fpu.fr[i] = lo;
    }
    cpu.fpu.fsr = fsrs[0]!;
    return m;
  });
  return [ms[0]!, ms[1]!];
}

/** Counts calls of the fast machine's SparcFpu.exec (the translator's fallback) during `body`. */
function countExec(m: BareMachine, body: () => void): number {
  const fpu = m.cpu.fpu;
  const own = Object.getOwnPropertyDescriptor(fpu, 'exec');
  const orig = fpu.exec;
  let calls = 0;
  fpu.exec = function (this: typeof fpu, ...a: Parameters<typeof orig>): number {
    calls++;
    return orig.apply(this, a);
  };
  try {
    body();
  } finally {
    if (own) Object.defineProperty(fpu, 'exec', own);
    else delete (fpu as { exec?: unknown }).exec;
  }
  return calls;
}

describe('SPARC engines in lockstep on floating-point loops', () => {
  for (let seed = 1; seed <= 10; seed++) {
    it(`FP loop, seed ${seed}`, () => {
      const rng = new Prng(seed + 1000);
      const [a, b] = fpMachines(seed, 40 + rng.below(60), true);
      let interpCalls = 0;
      const fastCalls = countExec(b, () => {
        interpCalls = countExec(a, () => {
          expect(lockstep(a, b, rng, 30000)).toBeGreaterThan(20000);
        });
      });
      // The translator ran its inline FPops: it needed exec far less often than the interpreter.
      expect(b.cpu.translator.blockRuns).toBeGreaterThan(100);
      expect(interpCalls).toBeGreaterThan(3000);
      expect(fastCalls).toBeLessThan(interpCalls * 0.9);
      // Traps were taken (enabled IEEE exceptions, unimplemented and misaligned FPops...).
      expect(a.trapLog.length).toBeGreaterThan(10);
    });
  }

  it('FP loops with PSR.EF clear: every FP instruction raises fp_disabled on both engines', () => {
    for (let seed = 21; seed <= 23; seed++) {
      const rng = new Prng(seed);
      const [a, b] = fpMachines(seed, 60, false);
      lockstep(a, b, rng, 5000);
      expect(a.trapLog.length).toBeGreaterThan(100);
      expect(new Set(a.trapLog)).toEqual(new Set([0x04]));
    }
  });
});
