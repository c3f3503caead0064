/**
 * Exact IEEE 754 arithmetic on binary32/binary64 bit patterns, with BigInt significands: the
 * reference behind fpu.ts. fpu.ts computes the common cases with host doubles and error-free
 * transformations and falls back here for everything else (directed rounding near the limits,
 * subnormal and near-overflow results), so every result and flag is exactly IEEE's.
 *
 * Values are finite non-zero numbers sign * m * 2^e (m a positive BigInt); rounding takes a
 * sticky flag for bits below m that are known to be non-zero. Rounding directions follow
 * FSR.RD: 0 nearest (ties to even), 1 toward zero, 2 toward +infinity, 3 toward -infinity.
 * Tininess is detected before rounding (see docs/cpu-sparc.md, FPU).
 */

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

/**
 * Rounds (-1)^s * m * 2^e (+ sticky below m) to format f in direction rd. m may be 0 with sticky
 * set (a value too small to represent other than by its sign).
 */
export function roundTo(f: Format, s: number, m: bigint, e: number, sticky: boolean, rd: number): Rounded {
  const sb = s ? signBit(f) : 0n;
  if (m === 0n && !sticky) return { bits: sb, flags: 0 };
  const L = bitLength(m);
  // Exponent of the leading bit, before rounding (for m = 0 the value is below any quantum).
  const lead = m === 0n ? -Infinity : e + L - 1;
  const tiny = lead < f.emin;
  // Quantum exponent: the weight of the last significand bit at this magnitude.
  const qexp = Math.max(lead, f.emin) - (f.p - 1);
  let q: bigint;
  let rem = false;
  let half = false;
  let lowRest = sticky;
  if (m === 0n) {
    q = 0n;
  } else if (e >= qexp) {
    q = m << BigInt(e - qexp);
  } else {
    const sh = BigInt(qexp - e);
    q = m >> sh;
    const dropped = m - (q << sh);
    const halfv = 1n << (sh - 1n);
    half = dropped >= halfv;
    lowRest = lowRest || (dropped & (halfv - 1n)) !== 0n;
  }
  rem = half || lowRest;
  let up = false;
  if (rem) {
    switch (rd) {
      case RD_NEAREST: up = half && (lowRest || (q & 1n) === 1n); break;
      case RD_ZERO: up = false; break;
      case RD_POS: up = s === 0; break;
      case RD_NEG: up = s === 1; break;
    }
  }
  if (up) q += 1n;
  let qe = qexp;
  if (q >> BigInt(f.p) !== 0n) {
    q >>= 1n;
    qe += 1;
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
export function addExact(f: Format, a: Finite, b: Finite, rd: number): Rounded {
  const e = Math.min(a.e, b.e);
  const ma = a.m << BigInt(a.e - e);
  const mb = b.m << BigInt(b.e - e);
  const va = a.s ? -ma : ma;
  const vb = b.s ? -mb : mb;
  const sum = va + vb;
  if (sum === 0n) {
    // x + (-x) is +0 in every direction but toward -infinity (IEEE 754 6.3); -0 + -0 is -0.
    const neg = (a.m === 0n && b.m === 0n && a.s === 1 && b.s === 1) || (rd === RD_NEG && !(a.m === 0n && b.m === 0n && a.s === 0 && b.s === 0));
    return { bits: neg ? signBit(f) : 0n, flags: 0 };
  }
  return roundTo(f, sum < 0n ? 1 : 0, sum < 0n ? -sum : sum, e, false, rd);
}

export function mulExact(f: Format, a: Finite, b: Finite, rd: number): Rounded {
  return roundTo(f, a.s ^ b.s, a.m * b.m, a.e + b.e, false, rd);
}

/** Quotient of finite values, b non-zero. */
export function divExact(f: Format, a: Finite, b: Finite, rd: number): Rounded {
  const s = a.s ^ b.s;
  if (a.m === 0n) return { bits: s ? signBit(f) : 0n, flags: 0 };
  // Scale so the integer quotient has at least p + 2 bits; the remainder is the sticky bit.
  const k = Math.max(0, f.p + 3 + bitLength(b.m) - bitLength(a.m));
  const num = a.m << BigInt(k);
  const q = num / b.m;
  const r = num - q * b.m;
  return roundTo(f, s, q, a.e - b.e - k, r !== 0n, rd);
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
export function sqrtExact(f: Format, a: Finite, rd: number): Rounded {
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
  return roundTo(f, 0, r, e / 2 - k, r * r !== n, rd);
}

/** Rounds an exact integer (int32 source) to format f. */
export function fromInt(f: Format, v: number, rd: number): Rounded {
  if (v === 0) return { bits: 0n, flags: 0 };
  const s = v < 0 ? 1 : 0;
  return roundTo(f, s, BigInt(Math.abs(v)), 0, false, rd);
}

/** Re-rounds a finite value of one format into another (fdtos and friends). */
export function convert(to: Format, a: Finite, rd: number): Rounded {
  if (a.m === 0n) return { bits: a.s ? signBit(to) : 0n, flags: 0 };
  return roundTo(to, a.s, a.m, a.e, false, rd);
}
