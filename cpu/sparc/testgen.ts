/**
 * Instruction-word generator driven by the opcode table: for any entry, random but valid
 * encodings with operand values biased towards the corners (register 0, rd = rs1, immediates
 * 0, 1, -1, +-4095, shift counts 0 and 31...). Deterministic: the caller seeds it.
 *
 * Used by the instruction tests (both engines in lockstep, the disassembler against objdump) and
 * by anyone who needs representative encodings of an opcode class.
 */
import { Prng } from '../../format/prng.js';
import { FIELDS, OPCODES, zeroBits, type OpSpecFull } from './opcodes.js';

const IMM_CORNERS = [0, 1, -1, 2, 4, 8, 9, 10, -9, -10, 4095, -4096, 0x7f, 0x80, 0x3ff, 0x400, -0x400, 31, 32];

export interface GenOptions {
  /** Registers to avoid as destinations (e.g. reserved %g5-%g7). */
  avoidRd?: readonly number[];
  /** Keep rd even for doubleword forms (ldd/std/lddf/stdf) and FP double/quad operands. */
  alignPairs?: boolean;
}

function reg(rng: Prng): number {
  const r = rng.below(10);
  if (r === 0) return 0;
  return rng.below(32);
}

/** A random encoding of `spec`: its fixed bits, random free fields, unused fields clear. */
export function randomWord(spec: OpSpecFull, rng: Prng, opts: GenOptions = {}): number {
  let w = spec.match >>> 0;
  const free = ~spec.mask >>> 0;
  // Start from random bits in every free position, then shape the fields.
  w = (w | (rng.u32() & free)) >>> 0;
  const set = (mask: number, v: number): void => {
    if ((spec.mask & mask) !== 0) return; // fixed by the opcode
    let lsb = 0;
    while (((mask >>> lsb) & 1) === 0) lsb++;
    w = ((w & ~mask) | ((v << lsb) & mask)) >>> 0;
  };
  if (spec.fmt === 'arith' || spec.fmt === 'mem' || spec.fmt === 'fpop' || spec.fmt === 'cpop') {
    let rd = reg(rng);
    const rs1 = reg(rng);
    if (rng.chance(0.15)) rd = rs1;
    if (opts.avoidRd) while (opts.avoidRd.includes(rd)) rd = rng.below(32);
    set(FIELDS.F_RD, rd);
    set(FIELDS.F_RS1, rs1);
    if (spec.fmt !== 'fpop' && spec.fmt !== 'cpop') {
      const i = (spec.mask & FIELDS.I_BIT) !== 0 ? (spec.match & FIELDS.I_BIT) !== 0 : rng.chance(0.5);
      w = i ? (w | FIELDS.I_BIT) >>> 0 : (w & ~FIELDS.I_BIT) >>> 0;
      if (i) {
        let imm: number;
        if (spec.zeroRule === 'shift') imm = rng.chance(0.3) ? rng.pick([0, 1, 31, 16]) : rng.below(32);
        else if (spec.zeroRule === 'ticc') imm = rng.chance(0.3) ? rng.pick([0, 1, 0x10, 0x7f, 3]) : rng.below(128);
        else imm = rng.chance(0.5) ? rng.pick(IMM_CORNERS) : ((rng.u32() << 19) >> 19);
        w = ((w & ~0x1fff) | (imm & 0x1fff)) >>> 0;
      } else {
        w = ((w & ~0x1f) | reg(rng)) >>> 0;
      }
    } else {
      w = ((w & ~0x1f) | reg(rng)) >>> 0;
    }
    if (opts.alignPairs) {
      const pair = spec.mem?.width === 8 || spec.precD === 'd' || spec.precD === 'q' || spec.precS === 'd' || spec.precS === 'q';
      if (pair) {
        const al = spec.precD === 'q' || spec.precS === 'q' ? 3 : 1;
        w = (w & ~RDm(al)) >>> 0;
        if (spec.fmt === 'fpop') w = (w & ~(al << 14) & ~al) >>> 0;
      }
    }
  }
  w = (w & ~zeroBits(spec, w)) >>> 0;
  return w >>> 0;
}

function RDm(al: number): number {
  return (al << 25) >>> 0;
}

/** `n` words for every entry of the table (or of the given entries), in table order. */
export function wordsForAll(n: number, seed: number, specs: readonly OpSpecFull[] = OPCODES, opts: GenOptions = {}): number[] {
  const rng = new Prng(seed);
  const out: number[] = [];
  for (const s of specs) for (let k = 0; k < n; k++) out.push(randomWord(s, rng, opts));
  return out;
}
