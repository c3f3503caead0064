/**
 * The SPARC v8 floating-point unit: 32 single registers (pairs form doubles), the FSR, FPop1 and
 * FPop2 execution with IEEE 754 results and exception flags, and a one-entry floating-point
 * queue for the kernel.
 *
 * Register storage: %f[i] lives in `fr[i ^ 1]`, so on a little-endian host `f64[i >> 1]` is the
 * double held in the even/odd pair (%f[2k] is its most significant word) and `f32[i ^ 1]` the
 * single %f[i]; moves copy bit patterns, never values (NaN payloads survive).
 *
 * Arithmetic: round-to-nearest results come from host doubles (Math.fround for singles, correct
 * by the double-rounding theorem since 53 >= 2 * 24 + 2); the inexact flag comes from
 * error-free transformations (TwoSum, Dekker's TwoProduct, residuals of quotients and roots).
 * Directed rounding (FSR.RD = 1..3) and results near the subnormal or overflow thresholds go to
 * the exact BigInt path of cpu/softfloat.ts. Quad precision is unimplemented (unimplemented_FPop),
 * as on the v8 chips (software emulates it); so are unknown opf values.
 *
 * Traps are precise: an FPop whose current exceptions meet FSR.TEM raises fp_exception with
 * ftt = IEEE_754_exception at that FPop, without writing its destination or aexc. The trapping
 * FPop goes in the floating-point queue (qne = 1); until the kernel empties the queue (stdfq or
 * `takeQueue()`), further FP instructions raise fp_exception with ftt = sequence_error.
 */
import {
  F32, F64, RD_NEAREST, EXC_NV, EXC_OF, EXC_UF, EXC_DZ, EXC_NX,
  addExact, mulExact, divExact, sqrtExact, fromInt, convert, decodeFinite, productError, type Rounded,
} from '../softfloat.js';
import { FTT_IEEE_754_EXCEPTION, FTT_INVALID_FP_REGISTER, FTT_SEQUENCE_ERROR, FTT_UNIMPLEMENTED_FPOP } from './traps.js';

/** FSR field positions (manual 4.4). */
export const FSR_RD_SHIFT = 30;
export const FSR_TEM_SHIFT = 23;
export const FSR_NS = 1 << 22;
export const FSR_VER_SHIFT = 17;
export const FSR_FTT_SHIFT = 14;
export const FSR_QNE = 1 << 13;
export const FSR_FCC_SHIFT = 10;
export const FSR_AEXC_SHIFT = 5;

/** FSR.ver of this FPU. */
export const FPU_VERSION = 0;

const DEFAULT_NAN_S = 0x7fffffff;
const DEFAULT_NAN_HI = 0x7fffffff;
const DEFAULT_NAN_LO = 0xffffffff | 0;

const TWO_M968 = 2 ** -968;
const TWO_995 = 2 ** 995;
const TWO_M125 = 2 ** -125;
/**
 * Bounds of the host-double fast paths, for the translator's inline FPops (fpgen.ts): double
 * products and quotients within [FAST_D_MIN, FAST_D_MAX) (operands too), single quotients and
 * fdtos operands above FAST_S_QUOT_MIN.
 */
export const FAST_D_MIN = TWO_M968;
export const FAST_D_MAX = TWO_995;
export const FAST_S_QUOT_MIN = TWO_M125;
export interface FpQueueEntry {
  address: number;
  instruction: number;
}

export class SparcFpu {
  readonly fr = new Int32Array(32);
  readonly f32 = new Float32Array(this.fr.buffer);
  readonly f64 = new Float64Array(this.fr.buffer);
  /** FSR fields kept apart: rd, tem, aexc, cexc, ftt, fcc; `ns` is accepted but has no effect. */
  rd = 0;
  tem = 0;
  ns = 0;
  ftt = 0;
  fcc = 0;
  aexc = 0;
  cexc = 0;
  queue: FpQueueEntry | undefined;

  get fsr(): number {
    return ((this.rd << FSR_RD_SHIFT) | (this.tem << FSR_TEM_SHIFT) | (this.ns ? FSR_NS : 0)
      | (FPU_VERSION << FSR_VER_SHIFT) | (this.ftt << FSR_FTT_SHIFT) | (this.queue ? FSR_QNE : 0)
      | (this.fcc << FSR_FCC_SHIFT) | (this.aexc << FSR_AEXC_SHIFT) | this.cexc) >>> 0;
  }

  /** LDFSR: ver, ftt and qne are read-only (manual 4.4). */
  set fsr(v: number) {
    this.rd = (v >>> FSR_RD_SHIFT) & 3;
    this.tem = (v >>> FSR_TEM_SHIFT) & 0x1f;
    this.ns = (v & FSR_NS) ? 1 : 0;
    this.fcc = (v >>> FSR_FCC_SHIFT) & 3;
    this.aexc = (v >>> FSR_AEXC_SHIFT) & 0x1f;
    this.cexc = v & 0x1f;
  }

  getS(i: number): number {
    return this.fr[i ^ 1]!;
  }
  setS(i: number, bits: number): void {
    this.fr[i ^ 1] = bits;
  }

  /** Empties the queue (what stdfq does); returns the entry, or undefined if it was empty. */
  takeQueue(): FpQueueEntry | undefined {
    const q = this.queue;
    this.queue = undefined;
    return q;
  }

  reset(): void {
    this.fr.fill(0);
    this.rd = this.tem = this.ns = this.ftt = this.fcc = this.aexc = this.cexc = 0;
    this.queue = undefined;
  }

  // ---- helpers on bit patterns ----

  private hi(i: number): number {
    return this.fr[(i & 30) + 1]!;
  }
  private lo(i: number): number {
    return this.fr[i & 30]!;
  }
  private setD(i: number, hi: number, lo: number): void {
    this.fr[(i & 30) + 1] = hi;
    this.fr[i & 30] = lo;
  }
  private bigS(i: number): bigint {
    return BigInt(this.fr[i ^ 1]! >>> 0);
  }
  private bigD(i: number): bigint {
    return (BigInt(this.hi(i) >>> 0) << 32n) | BigInt(this.lo(i) >>> 0);
  }
  private putBigS(i: number, b: bigint): void {
    this.fr[i ^ 1] = Number(b & 0xffffffffn) | 0;
  }
  private putBigD(i: number, b: bigint): void {
    this.setD(i, Number((b >> 32n) & 0xffffffffn) | 0, Number(b & 0xffffffffn) | 0);
  }

  /**
   * Completes an FPop with exceptions `exc`: returns FTT_IEEE_754_EXCEPTION (and leaves the
   * destination alone) when they meet TEM, otherwise accumulates them and lets the caller write.
   */
  private settle(exc: number, tiny = false): boolean {
    // With the underflow trap enabled, underflow is signalled on tininess alone (IEEE 7.5).
    if (tiny && (this.tem & EXC_UF)) exc |= EXC_UF;
    this.cexc = exc;
    if (exc & this.tem) {
      this.ftt = FTT_IEEE_754_EXCEPTION;
      return false;
    }
    this.aexc |= exc;
    this.ftt = 0;
    return true;
  }

  /**
   * Executes the FPop `opf` (op3 0x34 when !fpop2, 0x35 when fpop2) with register fields rs1,
   * rs2, rd. Returns 0, or the ftt of the fp_exception to raise (the FSR is already updated).
   * `pc` and `word` enter the queue when the FPop traps.
   */
  exec(fpop2: boolean, opf: number, rs1: number, rs2: number, rd: number, pc: number, word: number): number {
    if (this.queue) return this.fail(FTT_SEQUENCE_ERROR);
    const t = fpop2 ? this.execFpop2(opf, rs1, rs2) : this.execFpop1(opf, rs1, rs2, rd);
    if (t !== 0) {
      this.ftt = t;
      this.queue = { address: pc >>> 0, instruction: word >>> 0 };
    }
    return t;
  }

  /** Sequence error for FP loads/stores/branches while the queue is not empty. */
  checkQueue(): number {
    return this.queue ? this.fail(FTT_SEQUENCE_ERROR) : 0;
  }

  private fail(ftt: number): number {
    this.ftt = ftt;
    return ftt;
  }

  private execFpop2(opf: number, rs1: number, rs2: number): number {
    const e = opf === 0x55 || opf === 0x56;
    if (opf === 0x51 || opf === 0x55) return this.fcmpS(rs1, rs2, e);
    if (opf === 0x52 || opf === 0x56) {
      if ((rs1 | rs2) & 1) return FTT_INVALID_FP_REGISTER;
      return this.fcmpD(rs1, rs2, e);
    }
    return FTT_UNIMPLEMENTED_FPOP;
  }

  private execFpop1(opf: number, rs1: number, rs2: number, rd: number): number {
    const fr = this.fr;
    switch (opf) {
      case 0x001: fr[rd ^ 1] = fr[rs2 ^ 1]!; this.settle(0); return 0;
      case 0x005: fr[rd ^ 1] = fr[rs2 ^ 1]! ^ 0x80000000; this.settle(0); return 0;
      case 0x009: fr[rd ^ 1] = fr[rs2 ^ 1]! & 0x7fffffff; this.settle(0); return 0;
      case 0x041: case 0x045: case 0x049: case 0x04d: return this.arithS(opf, rs1, rs2, rd);
      case 0x042: case 0x046: case 0x04a: case 0x04e:
        if ((rs1 | rs2 | rd) & 1) return FTT_INVALID_FP_REGISTER;
        return this.arithD(opf, rs1, rs2, rd);
      case 0x029: return this.sqrtS(rs2, rd);
      case 0x02a:
        if ((rs2 | rd) & 1) return FTT_INVALID_FP_REGISTER;
        return this.sqrtD(rs2, rd);
      case 0x069:
        if (rd & 1) return FTT_INVALID_FP_REGISTER;
        return this.fsmuld(rs1, rs2, rd);
      case 0x0c4: return this.fitos(rs2, rd);
      case 0x0c8:
        if (rd & 1) return FTT_INVALID_FP_REGISTER;
        this.f64[rd >> 1] = fr[rs2 ^ 1]!;
        this.settle(0);
        return 0;
      case 0x0c9:
        if (rd & 1) return FTT_INVALID_FP_REGISTER;
        return this.fstod(rs2, rd);
      case 0x0c6:
        if (rs2 & 1) return FTT_INVALID_FP_REGISTER;
        return this.fdtos(rs2, rd);
      case 0x0d1: return this.ftoi(this.f32[rs2 ^ 1]!, rd);
      case 0x0d2:
        if (rs2 & 1) return FTT_INVALID_FP_REGISTER;
        return this.ftoi(this.f64[rs2 >> 1]!, rd);
      default: return FTT_UNIMPLEMENTED_FPOP;
    }
  }

  // ---- NaN handling ----

  private static isNanS(b: number): boolean {
    return (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;
  }
  private static isSnanS(b: number): boolean {
    return SparcFpu.isNanS(b) && (b & 0x400000) === 0;
  }
  private static isNanD(hi: number, lo: number): boolean {
    return (hi & 0x7ff00000) === 0x7ff00000 && ((hi & 0xfffff) | lo) !== 0;
  }
  private static isSnanD(hi: number, lo: number): boolean {
    return SparcFpu.isNanD(hi, lo) && (hi & 0x80000) === 0;
  }

  /**
   * Result of an operation with a NaN operand (single), as qemu-sparc (the project's oracle)
   * chooses it — x87-style rules; the SPARC manual leaves the choice to the implementation:
   * a signalling and a quiet NaN give the quiet one, two of a kind the one with the larger
   * significand (equal: the positive one), one NaN that NaN; the result is quiet, and invalid is
   * signalled when either operand is a signalling NaN.
   */
  private nanS(a: number, b: number, twoOps: boolean): number {
    const sa = twoOps && SparcFpu.isSnanS(a);
    const sb = SparcFpu.isSnanS(b);
    let r: number;
    if (!twoOps) r = b;
    else {
      const fa = a & 0x7fffff;
      const fb = b & 0x7fffff;
      const aLarger = fa > fb || (fa === fb && (a >>> 31) < (b >>> 31));
      r = SparcFpu.pick(sa, !sa && SparcFpu.isNanS(a), sb, !sb && SparcFpu.isNanS(b), aLarger) ? b : a;
    }
    this.nanExc = sa || sb ? EXC_NV : 0;
    return r | 0x400000;
  }

  /** The x87 choice between NaN operands: false picks a, true picks b. */
  private static pick(sa: boolean, qa: boolean, sb: boolean, qb: boolean, aLarger: boolean): boolean {
    if (sa) return sb ? !aLarger : qb;
    if (qa) return sb || !qb ? false : !aLarger;
    return true;
  }
  private nanExc = 0;

  private nanD(ahi: number, alo: number, bhi: number, blo: number, twoOps: boolean): [number, number] {
    const sa = twoOps && SparcFpu.isSnanD(ahi, alo);
    const sb = SparcFpu.isSnanD(bhi, blo);
    this.nanExc = sa || sb ? EXC_NV : 0;
    if (!twoOps) return [bhi | 0x80000, blo];
    const fah = ahi & 0xfffff, fbh = bhi & 0xfffff;
    const aLarger = fah > fbh || (fah === fbh && ((alo >>> 0) > (blo >>> 0) || (alo === blo && (ahi >>> 31) < (bhi >>> 31))));
    const useB = SparcFpu.pick(sa, !sa && SparcFpu.isNanD(ahi, alo), sb, !sb && SparcFpu.isNanD(bhi, blo), aLarger);
    return useB ? [bhi | 0x80000, blo] : [ahi | 0x80000, alo];
  }

  // ---- single precision ----

  private arithS(opf: number, rs1: number, rs2: number, rd: number): number {
    const ab = this.fr[rs1 ^ 1]!;
    const bb = this.fr[rs2 ^ 1]!;
    if (SparcFpu.isNanS(ab) || SparcFpu.isNanS(bb)) {
      const r = this.nanS(ab, bb, true);
      if (this.settle(this.nanExc)) this.fr[rd ^ 1] = r;
      return this.ftt;
    }
    const x = this.f32[rs1 ^ 1]!;
    const y = this.f32[rs2 ^ 1]!;
    // Invalid operations and exact special cases.
    let invalid = false;
    let dz = false;
    switch (opf) {
      case 0x041: invalid = x === -y && !Number.isFinite(x); break;
      case 0x045: invalid = x === y && !Number.isFinite(x); break;
      case 0x049: invalid = (x === 0 && !Number.isFinite(y)) || (y === 0 && !Number.isFinite(x)); break;
      case 0x04d: invalid = (x === 0 && y === 0) || (!Number.isFinite(x) && !Number.isFinite(y)); dz = y === 0 && x !== 0 && Number.isFinite(x); break;
    }
    if (invalid) {
      if (this.settle(EXC_NV)) this.fr[rd ^ 1] = DEFAULT_NAN_S;
      return this.ftt;
    }
    const finite = Number.isFinite(x) && Number.isFinite(y);
    if (!finite || dz) {
      // Infinite operands give exact infinities or zeros; x / 0 is a signed infinity.
      let r: number;
      switch (opf) {
        case 0x041: r = x + y; break;
        case 0x045: r = x - y; break;
        case 0x049: r = x * y; break;
        default: r = x / y; break;
      }
      return this.commitS(rd, r, dz ? EXC_DZ : 0, false);
    }
    if (this.rd !== RD_NEAREST) return this.slowS(opf, rs1, rs2, rd);
    switch (opf) {
      case 0x041: case 0x045: {
        // A sum that is subnormal is exact (Hauser), so sums never underflow.
        const yy = opf === 0x041 ? y : -y;
        const d = x + yy;
        const bv = d - x;
        const err = (x - (d - bv)) + (yy - bv);
        const r = Math.fround(d);
        let exc = err !== 0 || r !== d ? EXC_NX : 0;
        if (!Number.isFinite(r)) exc |= EXC_OF | EXC_NX;
        return this.commitS(rd, r, exc, false);
      }
      case 0x049: {
        // The product of two singles is exact in double.
        const d = x * y;
        const r = Math.fround(d);
        const inexact = r !== d;
        const tiny = d !== 0 && Math.abs(d) < 2 ** -126;
        let exc = inexact ? EXC_NX : 0;
        if (!Number.isFinite(r)) exc |= EXC_OF | EXC_NX;
        if (tiny && inexact) exc |= EXC_UF;
        return this.commitS(rd, r, exc, tiny);
      }
      default: {
        const d = x / y;
        if (d !== 0 && Math.abs(d) <= TWO_M125) return this.slowS(opf, rs1, rs2, rd);
        const r = Math.fround(d);
        // r * y is exact in double (24 x 24 bits): the quotient was exact iff it gives x back.
        let exc = !Number.isFinite(r) || r * y !== x ? EXC_NX : 0;
        if (!Number.isFinite(r)) exc |= EXC_OF;
        return this.commitS(rd, r, exc, false);
      }
    }
  }

  private commitS(rd: number, v: number, exc: number, tiny: boolean): number {
    if (this.settle(exc, tiny)) this.f32[rd ^ 1] = v;
    return this.ftt;
  }

  private applyS(rd: number, r: Rounded): number {
    if (this.settle(r.flags, r.tiny ?? false)) this.putBigS(rd, r.bits);
    return this.ftt;
  }

  private slowS(opf: number, rs1: number, rs2: number, rd: number): number {
    const a = decodeFinite(F32, this.bigS(rs1));
    const b = decodeFinite(F32, this.bigS(rs2));
    switch (opf) {
      case 0x041: return this.applyS(rd, addExact(F32, a, b, this.rd));
      case 0x045: return this.applyS(rd, addExact(F32, a, { ...b, s: b.s ^ 1 }, this.rd));
      case 0x049: return this.applyS(rd, mulExact(F32, a, b, this.rd));
      default: {
        if (b.m === 0n) {
          // Finite non-zero / 0 (0/0 was handled as invalid).
          return this.commitS(rd, (a.s ^ b.s) ? -Infinity : Infinity, EXC_DZ, false);
        }
        return this.applyS(rd, divExact(F32, a, b, this.rd));
      }
    }
  }

  private sqrtS(rs2: number, rd: number): number {
    const bb = this.fr[rs2 ^ 1]!;
    if (SparcFpu.isNanS(bb)) {
      const r = this.nanS(bb, bb, false);
      if (this.settle(this.nanExc)) this.fr[rd ^ 1] = r;
      return this.ftt;
    }
    const x = this.f32[rs2 ^ 1]!;
    if (x < 0) {
      if (this.settle(EXC_NV)) this.fr[rd ^ 1] = DEFAULT_NAN_S;
      return this.ftt;
    }
    if (x === 0 || x === Infinity) return this.commitS(rd, x, 0, false);
    if (this.rd !== RD_NEAREST) return this.applyS(rd, sqrtExact(F32, decodeFinite(F32, this.bigS(rs2)), this.rd));
    const r = Math.fround(Math.sqrt(x));
    return this.commitS(rd, r, r * r !== x ? EXC_NX : 0, false);
  }

  private fcmpS(rs1: number, rs2: number, signalAll: boolean): number {
    const ab = this.fr[rs1 ^ 1]!;
    const bb = this.fr[rs2 ^ 1]!;
    let exc = 0;
    let fcc: number;
    if (SparcFpu.isNanS(ab) || SparcFpu.isNanS(bb)) {
      fcc = 3;
      if (signalAll || SparcFpu.isSnanS(ab) || SparcFpu.isSnanS(bb)) exc = EXC_NV;
    } else {
      const x = this.f32[rs1 ^ 1]!;
      const y = this.f32[rs2 ^ 1]!;
      fcc = x === y ? 0 : x < y ? 1 : 2;
    }
    if (this.settle(exc)) this.fcc = fcc;
    return this.ftt;
  }

  private fitos(rs2: number, rd: number): number {
    const v = this.fr[rs2 ^ 1]!;
    if (this.rd !== RD_NEAREST) return this.applyS(rd, fromInt(F32, v, this.rd));
    const r = Math.fround(v);
    return this.commitS(rd, r, r !== v ? EXC_NX : 0, false);
  }

  /** fstoi / fdtoi: always round toward zero (manual B.26); NaN and out-of-range are invalid. */
  private ftoi(x: number, rd: number): number {
    let r: number;
    let exc = 0;
    if (x !== x) {
      r = 0x7fffffff;
      exc = EXC_NV;
    } else {
      const t = Math.trunc(x);
      if (t > 2147483647) {
        r = 0x7fffffff;
        exc = EXC_NV;
      } else if (t < -2147483648) {
        r = 0x80000000 | 0;
        exc = EXC_NV;
      } else {
        r = t | 0;
        if (t !== x) exc = EXC_NX;
      }
    }
    if (this.settle(exc)) this.fr[rd ^ 1] = r;
    return this.ftt;
  }

  private fdtos(rs2: number, rd: number): number {
    const hi = this.hi(rs2);
    const lo = this.lo(rs2);
    if (SparcFpu.isNanD(hi, lo)) {
      // Keep the sign and the top 22 fraction bits; quiet.
      const r = (hi & 0x80000000) | 0x7fc00000 | ((hi & 0x7ffff) << 3) | (lo >>> 29);
      if (this.settle(SparcFpu.isSnanD(hi, lo) ? EXC_NV : 0)) this.fr[rd ^ 1] = r;
      return this.ftt;
    }
    const x = this.f64[rs2 >> 1]!;
    if (!Number.isFinite(x) || x === 0) return this.commitS(rd, x, 0, false);
    if (this.rd !== RD_NEAREST || Math.abs(x) < 2 ** -125) return this.applyS(rd, convert(F32, decodeFinite(F64, this.bigD(rs2)), this.rd));
    const r = Math.fround(x);
    let exc = r !== x ? EXC_NX : 0;
    if (!Number.isFinite(r)) exc |= EXC_OF | EXC_NX;
    return this.commitS(rd, r, exc, false);
  }

  private fstod(rs2: number, rd: number): number {
    const b = this.fr[rs2 ^ 1]!;
    if (SparcFpu.isNanS(b)) {
      const hi = (b & 0x80000000) | 0x7ff80000 | ((b & 0x3fffff) >>> 3);
      const lo = (b & 7) << 29;
      if (this.settle(SparcFpu.isSnanS(b) ? EXC_NV : 0)) this.setD(rd, hi, lo);
      return this.ftt;
    }
    if (this.settle(0)) this.f64[rd >> 1] = this.f32[rs2 ^ 1]!;
    return this.ftt;
  }

  private fsmuld(rs1: number, rs2: number, rd: number): number {
    const ab = this.fr[rs1 ^ 1]!;
    const bb = this.fr[rs2 ^ 1]!;
    if (SparcFpu.isNanS(ab) || SparcFpu.isNanS(bb)) {
      // Both operands widen to double first (NaNs quieted), then the NaN rule applies to them.
      const wide = (v: number): [number, number] => SparcFpu.isNanS(v)
        ? [(v & 0x80000000) | 0x7ff80000 | ((v & 0x3fffff) >>> 3), (v & 7) << 29]
        : [v, 0];
      const [ahi, alo] = wide(ab);
      const [bhi, blo] = wide(bb);
      const [hi, lo] = this.nanD(ahi, alo, bhi, blo, true);
      const exc = SparcFpu.isSnanS(ab) || SparcFpu.isSnanS(bb) ? EXC_NV : 0;
      if (this.settle(exc)) this.setD(rd, hi, lo);
      return this.ftt;
    }
    const x = this.f32[rs1 ^ 1]!;
    const y = this.f32[rs2 ^ 1]!;
    if ((x === 0 && !Number.isFinite(y)) || (y === 0 && !Number.isFinite(x))) {
      if (this.settle(EXC_NV)) this.setD(rd, DEFAULT_NAN_HI, DEFAULT_NAN_LO);
      return this.ftt;
    }
    // The product of two singles is exact in double.
    if (this.settle(0)) this.f64[rd >> 1] = x * y;
    return this.ftt;
  }

  // ---- double precision ----

  private arithD(opf: number, rs1: number, rs2: number, rd: number): number {
    const ahi = this.hi(rs1);
    const alo = this.lo(rs1);
    const bhi = this.hi(rs2);
    const blo = this.lo(rs2);
    if (SparcFpu.isNanD(ahi, alo) || SparcFpu.isNanD(bhi, blo)) {
      const [hi, lo] = this.nanD(ahi, alo, bhi, blo, true);
      if (this.settle(this.nanExc)) this.setD(rd, hi, lo);
      return this.ftt;
    }
    const x = this.f64[rs1 >> 1]!;
    const y = this.f64[rs2 >> 1]!;
    let invalid = false;
    let dz = false;
    switch (opf) {
      case 0x042: invalid = x === -y && !Number.isFinite(x); break;
      case 0x046: invalid = x === y && !Number.isFinite(x); break;
      case 0x04a: invalid = (x === 0 && !Number.isFinite(y)) || (y === 0 && !Number.isFinite(x)); break;
      case 0x04e: invalid = (x === 0 && y === 0) || (!Number.isFinite(x) && !Number.isFinite(y)); dz = y === 0 && x !== 0 && Number.isFinite(x); break;
    }
    if (invalid) {
      if (this.settle(EXC_NV)) this.setD(rd, DEFAULT_NAN_HI, DEFAULT_NAN_LO);
      return this.ftt;
    }
    const finite = Number.isFinite(x) && Number.isFinite(y);
    if (!finite || dz) {
      // Infinite operands give exact infinities/zeros; x / 0 is a signed infinity.
      let r: number;
      switch (opf) {
        case 0x042: r = x + y; break;
        case 0x046: r = x - y; break;
        case 0x04a: r = x * y; break;
        default: r = x / y; break;
      }
      return this.commitD(rd, r, dz ? EXC_DZ : 0);
    }
    if (this.rd === RD_NEAREST) {
      switch (opf) {
        case 0x042: case 0x046: {
          const yy = opf === 0x042 ? y : -y;
          const s = x + yy;
          if (!Number.isFinite(s)) return this.commitD(rd, s, EXC_OF | EXC_NX);
          const bv = s - x;
          const err = (x - (s - bv)) + (yy - bv);
          // A sum that lands in the subnormal range is exact (no underflow possible).
          return this.commitD(rd, s, err !== 0 ? EXC_NX : 0);
        }
        case 0x04a: {
          const p = x * y;
          const ap = Math.abs(p);
          if (ap >= TWO_M968 && Number.isFinite(p) && Math.abs(x) < TWO_995 && Math.abs(y) < TWO_995) {
            return this.commitD(rd, p, productError(x, y, p) !== 0 ? EXC_NX : 0);
          }
          if (p === 0 && (x === 0 || y === 0)) return this.commitD(rd, p, 0);
          break;
        }
        default: {
          const q = x / y;
          const aq = Math.abs(q);
          if (aq >= TWO_M968 && aq < TWO_995 && Math.abs(y) < TWO_995 && Math.abs(y) >= TWO_M968 && Math.abs(x) >= TWO_M968) {
            const h = q * y;
            const res = (x - h) - productError(q, y, h);
            return this.commitD(rd, q, res !== 0 ? EXC_NX : 0);
          }
          if (x === 0) return this.commitD(rd, q, 0);
          break;
        }
      }
    }
    const a = decodeFinite(F64, this.bigD(rs1));
    const b = decodeFinite(F64, this.bigD(rs2));
    let r: Rounded;
    switch (opf) {
      case 0x042: r = addExact(F64, a, b, this.rd); break;
      case 0x046: r = addExact(F64, a, { ...b, s: b.s ^ 1 }, this.rd); break;
      case 0x04a: r = mulExact(F64, a, b, this.rd); break;
      default: r = divExact(F64, a, b, this.rd); break;
    }
    return this.applyD(rd, r);
  }

  private commitD(rd: number, v: number, exc: number): number {
    if (this.settle(exc)) this.f64[rd >> 1] = v;
    return this.ftt;
  }

  private applyD(rd: number, r: Rounded): number {
    if (this.settle(r.flags, r.tiny ?? false)) this.putBigD(rd, r.bits);
    return this.ftt;
  }

  private sqrtD(rs2: number, rd: number): number {
    const hi = this.hi(rs2);
    const lo = this.lo(rs2);
    if (SparcFpu.isNanD(hi, lo)) {
      const [h, l] = this.nanD(hi, lo, hi, lo, false);
      if (this.settle(this.nanExc)) this.setD(rd, h, l);
      return this.ftt;
    }
    const x = this.f64[rs2 >> 1]!;
    if (x < 0) {
      if (this.settle(EXC_NV)) this.setD(rd, DEFAULT_NAN_HI, DEFAULT_NAN_LO);
      return this.ftt;
    }
    if (x === 0 || x === Infinity) return this.commitD(rd, x, 0);
    if (this.rd === RD_NEAREST && x >= TWO_M968) {
      const s = Math.sqrt(x);
      const h = s * s;
      const res = (x - h) - productError(s, s, h);
      return this.commitD(rd, s, res !== 0 ? EXC_NX : 0);
    }
    return this.applyD(rd, sqrtExact(F64, decodeFinite(F64, this.bigD(rs2)), this.rd));
  }

  private fcmpD(rs1: number, rs2: number, signalAll: boolean): number {
    const ahi = this.hi(rs1);
    const alo = this.lo(rs1);
    const bhi = this.hi(rs2);
    const blo = this.lo(rs2);
    let exc = 0;
    let fcc: number;
    if (SparcFpu.isNanD(ahi, alo) || SparcFpu.isNanD(bhi, blo)) {
      fcc = 3;
      if (signalAll || SparcFpu.isSnanD(ahi, alo) || SparcFpu.isSnanD(bhi, blo)) exc = EXC_NV;
    } else {
      const x = this.f64[rs1 >> 1]!;
      const y = this.f64[rs2 >> 1]!;
      fcc = x === y ? 0 : x < y ? 1 : 2;
    }
    if (this.settle(exc)) this.fcc = fcc;
    return this.ftt;
  }
}
