/**
 * The R2010 floating-point accelerator (coprocessor 1): 32 32-bit FGRs, FCR0 and FCR31 (FCSR), and
 * IEEE 754 arithmetic with the four rounding modes, the five exception flags and the compare
 * condition bit (Kane & Heinrich chapter 8).
 *
 * Register file: with 32-bit FGRs a double lives in an even/odd pair, the even register holding the
 * low-order word; on a little-endian host that is exactly a Float64Array over the Int32Array of
 * FGRs, so f64[n >> 1] is the double in $fn/$fn+1.
 *
 * NaNs: the R2000 family uses the legacy encoding — a NaN whose most significant fraction bit is
 * SET is signaling. Every NaN an operation produces is the default quiet NaN (0x7fbfffff,
 * 0x7ff7ffff_ffffffff), as QEMU does in legacy-NaN mode; an sNaN operand signals Invalid. Results
 * are written as raw words so host NaN canonicalisation cannot change them.
 *
 * Tininess is detected after rounding and Underflow is flagged only when the result is also
 * inexact (as QEMU's softfloat). abs/neg/mov are bit operations that never signal (as QEMU).
 *
 * Exceptions: an operation whose cause bits meet the enables (or Unimplemented, which is always
 * enabled) writes only the cause field, leaves its destination and the flags unchanged and returns
 * false; the CPU then signals the FPA interrupt (cpu.ts). Otherwise cause is written and or-ed into
 * the flags.
 *
 * Fast paths decide exactness with error-free transformations (TwoSum, Veltkamp/Dekker products)
 * in round-to-nearest for results well inside the normal range; anything else goes to the general
 * path, which rounds the exact result (cpu/softfloat.ts, tininess after rounding).
 */
import {
  EXC_NX, EXC_OF, EXC_UF, F32, F64, TINY_AFTER, addExact, convert, decodeFinite, divExact, fromInt, mulExact,
  productError, type Finite, type Format, type Rounded,
} from '../softfloat.js';

// Exception bits as a 6-bit set, the order of the FCSR fields (Kane & Heinrich Figure 8-3).
export const EX_I = 1; // inexact
export const EX_U = 2; // underflow
export const EX_O = 4; // overflow
export const EX_Z = 8; // division by zero
export const EX_V = 16; // invalid operation
export const EX_E = 32; // unimplemented operation (cause only)

export const FCSR_RM_MASK = 3;
export const FCSR_FLAGS_SHIFT = 2;
export const FCSR_ENABLES_SHIFT = 7;
export const FCSR_CAUSE_SHIFT = 12;
export const FCSR_CAUSE_MASK = 0x3f << 12;
/** Condition bit set by c.cond, tested by bc1t/bc1f. */
export const FCSR_C = 1 << 23;
/** FCSR bits a ctc1 can write; the rest read as zero on the R2010. */
export const FCSR_WRITABLE = 0x0083ffff;
/** FCR0: implementation 2 (R2010), revision 0x10. */
export const FCR0_R2010 = 0x00000210;

export const RM_RN = 0;
export const RM_RZ = 1;
export const RM_RP = 2;
export const RM_RM = 3;

const MAX_D = 1.7976931348623157e308;
const MAX_S = 3.4028234663852886e38;
const MIN_NORMAL_S = 1.1754943508222875e-38;
const TWO_M900 = 2 ** -900;
const TWO_994 = 2 ** 994;

export const DEFAULT_NAN_S = 0x7fbfffff;
export const DEFAULT_NAN_D_HI = 0x7ff7ffff;
export const DEFAULT_NAN_D_LO = -1;

type BinOp = 0 | 1 | 2 | 3; // add sub mul div

function compute(op: BinOp, a: number, b: number): number {
  switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
  }
}

/** The R2010's cause bits for softfloat's flags of a rounded result (inexact, underflow, overflow). */
function causeOf(flags: number): number {
  return (flags & EXC_NX ? EX_I : 0) | (flags & EXC_UF ? EX_U : 0) | (flags & EXC_OF ? EX_O : 0);
}

export class Fpu {
  readonly fgr = new Int32Array(32);
  readonly f32 = new Float32Array(this.fgr.buffer);
  readonly f64 = new Float64Array(this.fgr.buffer);
  /** FCR31. Use setFcsr to write it from outside. */
  fcsr = 0;
  /** Rounding mode, cached from fcsr. */
  rm = 0;

  setFcsr(v: number): void {
    this.fcsr = v & FCSR_WRITABLE;
    this.rm = this.fcsr & FCSR_RM_MASK;
  }

  /** Control register read (cfc1): FCR0 and FCR31; the others read as zero. */
  readControl(n: number): number {
    return n === 0 ? FCR0_R2010 : n === 31 ? this.fcsr : 0;
  }

  /** True while cause bits meet the enables (or E is set): the FPA's interrupt request. */
  get exceptionPending(): boolean {
    const cause = (this.fcsr >>> FCSR_CAUSE_SHIFT) & 0x3f;
    const en = ((this.fcsr >>> FCSR_ENABLES_SHIFT) & 0x1f) | EX_E;
    return (cause & en) !== 0;
  }

  /**
   * Records the exceptions of one operation. Returns false (trap) when one is enabled; the caller
   * then must not write the result.
   */
  private signal(cause: number): boolean {
    const en = ((this.fcsr >>> FCSR_ENABLES_SHIFT) & 0x1f) | EX_E;
    if ((cause & en) !== 0) {
      this.fcsr = (this.fcsr & ~FCSR_CAUSE_MASK) | (cause << FCSR_CAUSE_SHIFT);
      return false;
    }
    this.fcsr = (this.fcsr & ~FCSR_CAUSE_MASK) | (cause << FCSR_CAUSE_SHIFT) | (cause << FCSR_FLAGS_SHIFT);
    return true;
  }

  /** Unimplemented operation (a COP1 encoding the R2010 lacks): always traps. */
  unimplemented(): false {
    this.fcsr = (this.fcsr & ~FCSR_CAUSE_MASK) | (EX_E << FCSR_CAUSE_SHIFT);
    return false;
  }

  // ---- raw register access ----
  isNaND(n: number): boolean {
    const hi = this.fgr[n + 1]!;
    return (hi & 0x7ff00000) === 0x7ff00000 && ((hi & 0xfffff) | this.fgr[n]!) !== 0;
  }
  /** Legacy encoding: fraction MSB set means signaling. */
  isSNaND(n: number): boolean {
    return this.isNaND(n) && (this.fgr[n + 1]! & 0x00080000) !== 0;
  }
  isSNaNS(n: number): boolean {
    const w = this.fgr[n]!;
    return (w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0 && (w & 0x00400000) !== 0;
  }
  private writeD(n: number, x: number): void {
    if (x !== x) {
      this.fgr[n] = DEFAULT_NAN_D_LO;
      this.fgr[n + 1] = DEFAULT_NAN_D_HI;
    } else this.f64[n >> 1] = x;
  }
  private writeS(n: number, x: number): void {
    if (x !== x) this.fgr[n] = DEFAULT_NAN_S;
    else this.f32[n] = x;
  }

  // ---- arithmetic: add, sub, mul, div in both formats ----
  addD(fd: number, fs: number, ft: number): boolean {
    const a = this.f64[fs >> 1]!;
    const b = this.f64[ft >> 1]!;
    const s = a + b;
    if (this.rm === 0 && Math.abs(s) <= MAX_D) {
      // Sums of finite doubles that do not overflow have an exact TwoSum error (Knuth).
      const bb = s - a;
      const err = (a - (s - bb)) + (b - bb);
      if (!this.signal(err !== 0 ? EX_I : 0)) return false;
      this.f64[fd >> 1] = s;
      return true;
    }
    return this.binSlow(0, true, fd, fs, ft);
  }
  subD(fd: number, fs: number, ft: number): boolean {
    const a = this.f64[fs >> 1]!;
    const b = this.f64[ft >> 1]!;
    const s = a - b;
    if (this.rm === 0 && Math.abs(s) <= MAX_D) {
      const bb = s - a;
      const err = (a - (s - bb)) + (-b - bb);
      if (!this.signal(err !== 0 ? EX_I : 0)) return false;
      this.f64[fd >> 1] = s;
      return true;
    }
    return this.binSlow(1, true, fd, fs, ft);
  }
  mulD(fd: number, fs: number, ft: number): boolean {
    const a = this.f64[fs >> 1]!;
    const b = this.f64[ft >> 1]!;
    const p = a * b;
    const ap = Math.abs(p);
    if (this.rm === 0 && ((ap >= TWO_M900 && ap <= TWO_994 && Math.abs(a) <= TWO_994 && Math.abs(b) <= TWO_994) || (p === 0 && (a === 0 || b === 0) && Math.abs(a + b) <= MAX_D))) {
      const err = p === 0 ? 0 : productError(a, b, p);
      if (!this.signal(err !== 0 ? EX_I : 0)) return false;
      this.f64[fd >> 1] = p;
      return true;
    }
    return this.binSlow(2, true, fd, fs, ft);
  }
  divD(fd: number, fs: number, ft: number): boolean {
    const a = this.f64[fs >> 1]!;
    const b = this.f64[ft >> 1]!;
    const q = a / b;
    const aq = Math.abs(q);
    const aa = Math.abs(a);
    const ab = Math.abs(b);
    if (this.rm === 0 && aq >= TWO_M900 && aq <= TWO_994 && aa >= TWO_M900 && aa <= TWO_994 && ab >= TWO_M900 && ab <= TWO_994) {
      // q is exact iff q * b == a; q * b = p + e exactly and a - p is exact (Sterbenz).
      const p = q * b;
      const e = productError(q, b, p);
      if (!this.signal(a - p !== e ? EX_I : 0)) return false;
      this.f64[fd >> 1] = q;
      return true;
    }
    return this.binSlow(3, true, fd, fs, ft);
  }
  addS(fd: number, fs: number, ft: number): boolean {
    return this.binS(0, fd, fs, ft);
  }
  subS(fd: number, fs: number, ft: number): boolean {
    return this.binS(1, fd, fs, ft);
  }
  mulS(fd: number, fs: number, ft: number): boolean {
    return this.binS(2, fd, fs, ft);
  }
  divS(fd: number, fs: number, ft: number): boolean {
    return this.binS(3, fd, fs, ft);
  }

  /**
   * Single precision: the double result d of two singles, rounded once more, is the correctly
   * rounded single (53 >= 2 * 24 + 2). It is inexact iff the single differs from d or d itself was
   * inexact (mul of singles is always exact in double).
   */
  private binS(op: BinOp, fd: number, fs: number, ft: number): boolean {
    const a = this.f32[fs]!;
    const b = this.f32[ft]!;
    const d = compute(op, a, b);
    const r = Math.fround(d);
    const ar = Math.abs(r);
    if (this.rm === 0 && ((ar >= MIN_NORMAL_S && ar <= MAX_S) || (d === 0 && a === a && b === b && Math.abs(a) <= MAX_S && Math.abs(b) <= MAX_S && (op !== 3 || b !== 0)))) {
      let inexact = r !== d;
      if (!inexact && d !== 0) {
        if (op <= 1) {
          const bb = d - a;
          inexact = (a - (d - bb)) + ((op === 0 ? b : -b) - bb) !== 0;
        } else if (op === 3) {
          const p = d * b;
          inexact = a - p !== productError(d, b, p);
        }
      }
      if (!this.signal(inexact ? EX_I : 0)) return false;
      this.f32[fd] = r;
      return true;
    }
    return this.binSlow(op, false, fd, fs, ft);
  }

  /** The general case: NaNs, infinities, zeros, directed rounding, overflow, underflow. */
  private binSlow(op: BinOp, dbl: boolean, fd: number, fs: number, ft: number): boolean {
    const a = dbl ? this.f64[fs >> 1]! : this.f32[fs]!;
    const b = dbl ? this.f64[ft >> 1]! : this.f32[ft]!;
    const write = (x: number): boolean => {
      if (dbl) this.writeD(fd, x);
      else this.writeS(fd, x);
      return true;
    };
    if (a !== a || b !== b) {
      const snan = dbl ? this.isSNaND(fs) || this.isSNaND(ft) : this.isSNaNS(fs) || this.isSNaNS(ft);
      return this.signal(snan ? EX_V : 0) && write(NaN);
    }
    const x = compute(op, a, b);
    if (x !== x) return this.signal(EX_V) && write(NaN); // inf-inf, 0*inf, 0/0, inf/inf
    if (op === 3 && b === 0 && Math.abs(a) !== Infinity) return this.signal(EX_Z) && write(x); // finite nonzero / 0
    if (Math.abs(a) === Infinity || Math.abs(b) === Infinity) return this.signal(0) && write(x); // exact
    const f = dbl ? F64 : F32;
    // Finite operands: the exact result, rounded (an exact zero sum gets IEEE 754 6.3's sign).
    const A = this.finite(f, fs);
    const B = this.finite(f, ft);
    const mode = this.rm | TINY_AFTER;
    let r: Rounded;
    switch (op) {
      case 0: r = addExact(f, A, B, mode); break;
      case 1: r = addExact(f, A, { ...B, s: B.s ^ 1 }, mode); break;
      case 2: r = mulExact(f, A, B, mode); break;
      case 3: r = divExact(f, A, B, mode); break;
    }
    return this.signal(causeOf(r.flags)) && this.putBits(fd, dbl, r.bits);
  }

  /** The finite value in register n (a single, or the double in n/n + 1) for softfloat. */
  private finite(f: Format, n: number): Finite {
    const bits = f === F64 ? (BigInt(this.fgr[n + 1]! >>> 0) << 32n) | BigInt(this.fgr[n]! >>> 0) : BigInt(this.fgr[n]! >>> 0);
    return decodeFinite(f, bits);
  }

  private putBits(n: number, dbl: boolean, bits: bigint): boolean {
    if (dbl) {
      this.fgr[n] = Number(bits & 0xffffffffn) | 0;
      this.fgr[n + 1] = Number(bits >> 32n) | 0;
    } else this.fgr[n] = Number(bits) | 0;
    return true;
  }

  // ---- abs, neg, mov: bit operations ----
  absD(fd: number, fs: number): void {
    this.fgr[fd] = this.fgr[fs]!;
    this.fgr[fd + 1] = this.fgr[fs + 1]! & 0x7fffffff;
  }
  negD(fd: number, fs: number): void {
    this.fgr[fd] = this.fgr[fs]!;
    this.fgr[fd + 1] = this.fgr[fs + 1]! ^ 0x80000000;
  }
  movD(fd: number, fs: number): void {
    this.fgr[fd] = this.fgr[fs]!;
    this.fgr[fd + 1] = this.fgr[fs + 1]!;
  }
  absS(fd: number, fs: number): void {
    this.fgr[fd] = this.fgr[fs]! & 0x7fffffff;
  }
  negS(fd: number, fs: number): void {
    this.fgr[fd] = this.fgr[fs]! ^ 0x80000000;
  }
  movS(fd: number, fs: number): void {
    this.fgr[fd] = this.fgr[fs]!;
  }

  // ---- conversions ----
  cvtDS(fd: number, fs: number): boolean {
    const a = this.f32[fs]!;
    if (a !== a) return this.signal(this.isSNaNS(fs) ? EX_V : 0) && (this.writeD(fd, NaN), true);
    if (!this.signal(0)) return false;
    this.f64[fd >> 1] = a;
    return true;
  }
  cvtDW(fd: number, fs: number): boolean {
    if (!this.signal(0)) return false;
    this.f64[fd >> 1] = this.fgr[fs]!;
    return true;
  }
  cvtSD(fd: number, fs: number): boolean {
    const a = this.f64[fs >> 1]!;
    if (a !== a) return this.signal(this.isSNaND(fs) ? EX_V : 0) && (this.writeS(fd, NaN), true);
    if (Math.abs(a) === Infinity) return this.signal(0) && (this.writeS(fd, a), true);
    const r = convert(F32, this.finite(F64, fs), this.rm | TINY_AFTER);
    return this.signal(causeOf(r.flags)) && this.putBits(fd, false, r.bits);
  }
  cvtSW(fd: number, fs: number): boolean {
    const r = fromInt(F32, this.fgr[fs]!, this.rm | TINY_AFTER);
    return this.signal(causeOf(r.flags)) && this.putBits(fd, false, r.bits);
  }
  /** cvt.w.s / cvt.w.d: round to an integer by the rounding mode; NaN/inf/out of range: Invalid, 0x7fffffff. */
  cvtW(fd: number, fs: number, dbl: boolean): boolean {
    const a = dbl ? this.f64[fs >> 1]! : this.f32[fs]!;
    let i: number;
    switch (this.rm) {
      case RM_RN: {
        const fl = Math.floor(a);
        const diff = a - fl;
        i = diff > 0.5 ? fl + 1 : diff < 0.5 ? fl : fl % 2 === 0 ? fl : fl + 1;
        break;
      }
      case RM_RZ: i = Math.trunc(a); break;
      case RM_RP: i = Math.ceil(a); break;
      default: i = Math.floor(a); break;
    }
    if (!(i >= -2147483648 && i <= 2147483647)) {
      if (!this.signal(EX_V)) return false;
      this.fgr[fd] = 0x7fffffff;
      return true;
    }
    if (!this.signal(i !== a ? EX_I : 0)) return false;
    this.fgr[fd] = i;
    return true;
  }

  // ---- compare ----
  /**
   * c.cond.fmt: cond bit 0 = true if unordered, bit 1 = if equal, bit 2 = if less; bit 3 makes an
   * unordered compare signal Invalid (Kane & Heinrich Table 8-9). Sets or clears FCSR.C.
   */
  compare(cond: number, dbl: boolean, fs: number, ft: number): boolean {
    const a = dbl ? this.f64[fs >> 1]! : this.f32[fs]!;
    const b = dbl ? this.f64[ft >> 1]! : this.f32[ft]!;
    let c: boolean;
    let cause = 0;
    if (a !== a || b !== b) {
      c = (cond & 1) !== 0;
      const snan = dbl ? this.isSNaND(fs) || this.isSNaND(ft) : this.isSNaNS(fs) || this.isSNaNS(ft);
      if (snan || (cond & 8) !== 0) cause = EX_V;
    } else c = ((cond & 4) !== 0 && a < b) || ((cond & 2) !== 0 && a === b);
    if (!this.signal(cause)) return false;
    this.fcsr = c ? this.fcsr | FCSR_C : this.fcsr & ~FCSR_C;
    return true;
  }
}
