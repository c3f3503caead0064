/**
 * Exact IEEE 754 arithmetic on binary32/binary64 values with BigInt significands: the soft-float
 * both FPUs fall back on (cpu/mips/fpu.ts, cpu/sparc/fpu.ts). Each FPU computes the common cases
 * with host doubles and error-free transformations and comes here for everything else (directed
 * rounding, subnormal and near-overflow results), so every result and flag is exactly IEEE's.
 * QEMU's fpu/softfloat.c plays the same part there, with a float_status saying how to round and
 * when a result is tiny; here that is the `mode` argument.
 *
 * Values are finite numbers sign * m * 2^e (m a non-negative BigInt); rounding takes a sticky
 * flag for bits below m that are known to be non-zero. `mode` bits 1:0 are the rounding
 * direction, numbered as both CPUs number it (SPARC FSR.RD, MIPS FCSR.RM): 0 nearest (ties to
 * even), 1 toward zero, 2 toward +infinity, 3 toward -infinity. Bit 2 (TINY_AFTER) detects
 * tininess after rounding (the R2010, as QEMU's MIPS target); without it, before rounding (the
 * SPARC FPU: docs/cpu-sparc.md, FPU). IEEE 754-1985 7.4 allows either.
 */

/** Veltkamp's splitting constant, 2^27 + 1. */
export const SPLIT = 134217729;

/**
 * The exact error of the rounded product p = fl(a * b), a * b - p (Dekker's TwoProduct with
 * Veltkamp's splitting): exact when nothing overflows or underflows, the condition under which
 * the FPUs' fast paths call it.
 */
export function productError(a: number, b: number, p: number): number {
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

/** IEEE exception bits as in FSR.cexc: nv of uf dz nx. */
export const EXC_NV = 0x10;
export const EXC_OF = 0x08;
export const EXC_UF = 0x04;
export const EXC_DZ = 0x02;
export const EXC_NX = 0x01;

export const RD_NEAREST = 0;
export const RD_ZERO = 1;
export const RD_POS = 2;
export const RD_NEG = 3;
/** `mode` bit: tininess is detected after rounding (with unbounded exponent), not before. */
export const TINY_AFTER = 4;

export interface Format {
  /** Significand precision including the hidden bit. */
  p: number;
  emin: number;
  emax: number;
  /** Exponent field width. */
  ew: number;
}
export const F32: Format = { p: 24, emin: -126, emax: 127, ew: 8 };
export const F64: Format = { p: 53, emin: -1022, emax: 1023, ew: 11 };

/** A decoded finite value: (-1)^s * m * 2^e, m >= 0. */
export interface Finite {
  s: number;
  m: bigint;
  e: number;
}

export interface Rounded {
  /** Bit pattern: a BigInt of 32 or 64 bits. */
  bits: bigint;
  flags: number;
  /** The exact result was non-zero and below the smallest normal magnitude (before rounding). */
  tiny?: boolean;
}

function bitLength(m: bigint): number {
  return m === 0n ? 0 : m.toString(2).length;
}

/** Bit pattern of the largest finite magnitude of a format. */
function maxFinite(f: Format): bigint {
  const emask = (1n << BigInt(f.ew)) - 1n;
  return ((emask - 1n) << BigInt(f.p - 1)) | ((1n << BigInt(f.p - 1)) - 1n);
}
function infinity(f: Format): bigint {
  return ((1n << BigInt(f.ew)) - 1n) << BigInt(f.p - 1);
}
function signBit(f: Format): bigint {
  return 1n << BigInt(f.ew + f.p - 1);
}

/** Whether rounding q (with `half`, `lowRest` the bits dropped below it) away from zero is due. */
function roundsUp(rd: number, s: number, q: bigint, half: boolean, lowRest: boolean): boolean {
  if (!half && !lowRest) return false;
  switch (rd) {
    case RD_NEAREST: return half && (lowRest || (q & 1n) === 1n);
    case RD_ZERO: return false;
    case RD_POS: return s === 0;
    default: return s === 1;
  }
}

/** m * 2^e cut to a multiple of 2^qexp: the quotient, the half bit and the bits below it. */
function cut(m: bigint, e: number, qexp: number, sticky: boolean): { q: bigint; half: boolean; lowRest: boolean } {
  if (e >= qexp) return { q: m << BigInt(e - qexp), half: false, lowRest: sticky };
  const sh = BigInt(qexp - e);
  const q = m >> sh;
  const dropped = m - (q << sh);
  const halfv = 1n << (sh - 1n);
  return { q, half: dropped >= halfv, lowRest: sticky || (dropped & (halfv - 1n)) !== 0n };
}

/**
 * Rounds (-1)^s * m * 2^e (+ sticky below m) to format f as `mode` says. m may be 0 with sticky
 * set (a value too small to represent other than by its sign).
 */
export function roundTo(f: Format, s: number, m: bigint, e: number, sticky: boolean, mode: number): Rounded {
  const rd = mode & 3;
  const sb = s ? signBit(f) : 0n;
  if (m === 0n && !sticky) return { bits: sb, flags: 0 };
  const L = bitLength(m);
  // Exponent of the leading bit, before rounding (for m = 0 the value is below any quantum).
  const lead = m === 0n ? -Infinity : e + L - 1;
  let tiny = lead < f.emin;
  // Quantum exponent: the weight of the last significand bit at this magnitude.
  const qexp = Math.max(lead, f.emin) - (f.p - 1);
  const c = m === 0n ? { q: 0n, half: false, lowRest: sticky } : cut(m, e, qexp, sticky);
  const rem = c.half || c.lowRest;
  let q = c.q;
  if (roundsUp(rd, s, q, c.half, c.lowRest)) q += 1n;
  let qe = qexp;
  if (q >> BigInt(f.p) !== 0n) {
    q >>= 1n;
    qe += 1;
  }
  if (tiny && (mode & TINY_AFTER) && m !== 0n && lead === f.emin - 1) {
    // After rounding to p bits with unbounded exponent, the value may reach 2^emin.
    const u = cut(m, e, lead - (f.p - 1), sticky);
    if (roundsUp(rd, s, u.q, u.half, u.lowRest) && (u.q + 1n) >> BigInt(f.p) !== 0n) tiny = false;
  }
  let flags = rem ? EXC_NX : 0;
  if (tiny && rem) flags |= EXC_UF;
  // Overflow: the rounded result's exponent exceeds emax.
  if (q !== 0n && qe + (f.p - 1) > f.emax) {
    flags |= EXC_OF | EXC_NX;
    const toInf = rd === RD_NEAREST || (rd === RD_POS && s === 0) || (rd === RD_NEG && s === 1);
    return { bits: sb | (toInf ? infinity(f) : maxFinite(f)), flags };
  }
  if (q === 0n) return { bits: sb, flags, tiny };
  // Encode: normal when the hidden bit is set, else subnormal (biased exponent 0).
  const hidden = 1n << BigInt(f.p - 1);
  let bits: bigint;
  if (q & hidden) {
    const be = BigInt(qe + (f.p - 1) + ((1 << (f.ew - 1)) - 1));
    bits = (be << BigInt(f.p - 1)) | (q & (hidden - 1n));
  } else {
    bits = q;
  }
  return { bits: sb | bits, flags, tiny };
}

/** Decodes a finite pattern (caller excludes Inf/NaN). */
export function decodeFinite(f: Format, bits: bigint): Finite {
  const s = Number((bits >> BigInt(f.ew + f.p - 1)) & 1n);
  const be = Number((bits >> BigInt(f.p - 1)) & ((1n << BigInt(f.ew)) - 1n));
  const frac = bits & ((1n << BigInt(f.p - 1)) - 1n);
  const bias = (1 << (f.ew - 1)) - 1;
  if (be === 0) return { s, m: frac, e: 1 - bias - (f.p - 1) };
  return { s, m: frac | (1n << BigInt(f.p - 1)), e: be - bias - (f.p - 1) };
}

/** Exact sum of two finite values, rounded. `zeroSign` gives the sign of an exact zero sum. */
export function addExact(f: Format, a: Finite, b: Finite, mode: number): Rounded {
  const e = Math.min(a.e, b.e);
  const ma = a.m << BigInt(a.e - e);
  const mb = b.m << BigInt(b.e - e);
  const va = a.s ? -ma : ma;
  const vb = b.s ? -mb : mb;
  const sum = va + vb;
  if (sum === 0n) {
    // x + (-x) is +0 in every direction but toward -infinity (IEEE 754 6.3); -0 + -0 is -0.
    const neg = (a.m === 0n && b.m === 0n && a.s === 1 && b.s === 1) || ((mode & 3) === RD_NEG && !(a.m === 0n && b.m === 0n && a.s === 0 && b.s === 0));
    return { bits: neg ? signBit(f) : 0n, flags: 0 };
  }
  return roundTo(f, sum < 0n ? 1 : 0, sum < 0n ? -sum : sum, e, false, mode);
}

export function mulExact(f: Format, a: Finite, b: Finite, mode: number): Rounded {
  return roundTo(f, a.s ^ b.s, a.m * b.m, a.e + b.e, false, mode);
}

/** Quotient of finite values, b non-zero. */
export function divExact(f: Format, a: Finite, b: Finite, mode: number): Rounded {
  const s = a.s ^ b.s;
  if (a.m === 0n) return { bits: s ? signBit(f) : 0n, flags: 0 };
  // Scale so the integer quotient has at least p + 2 bits; the remainder is the sticky bit.
  const k = Math.max(0, f.p + 3 + bitLength(b.m) - bitLength(a.m));
  const num = a.m << BigInt(k);
  const q = num / b.m;
  const r = num - q * b.m;
  return roundTo(f, s, q, a.e - b.e - k, r !== 0n, mode);
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** Square root of a finite non-negative value. */
export function sqrtExact(f: Format, a: Finite, mode: number): Rounded {
  if (a.m === 0n) return { bits: a.s ? signBit(f) : 0n, flags: 0 };
  let m = a.m;
  let e = a.e;
  if (e & 1) {
    m <<= 1n;
    e -= 1;
  }
  // Enough bits: the root of m * 2^(2k) has >= p + 2 bits.
  const k = Math.max(0, f.p + 3 - Math.floor(bitLength(m) / 2));
  const n = m << BigInt(2 * k);
  const r = isqrt(n);
  return roundTo(f, 0, r, e / 2 - k, r * r !== n, mode);
}

/** Rounds an exact integer (int32 source) to format f. */
export function fromInt(f: Format, v: number, mode: number): Rounded {
  if (v === 0) return { bits: 0n, flags: 0 };
  const s = v < 0 ? 1 : 0;
  return roundTo(f, s, BigInt(Math.abs(v)), 0, false, mode);
}

/** Re-rounds a finite value of one format into another (fdtos and friends). */
export function convert(to: Format, a: Finite, mode: number): Rounded {
  if (a.m === 0n) return { bits: a.s ? signBit(to) : 0n, flags: 0 };
  return roundTo(to, a.s, a.m, a.e, false, mode);
}
