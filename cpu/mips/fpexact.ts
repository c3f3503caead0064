/**
 * Exact arithmetic on IEEE doubles (as dyadic rationals m * 2^e with BigInt m), for the cases the
 * FPU's fast path cannot decide with error-free transformations: results near overflow or in the
 * subnormal range, and the rounding direction of quotients and products there.
 *
 * Everything here is slow and obviously correct; fpu.ts calls it only off the common path.
 */

const SCRATCH = new Float64Array(1);
const SCRATCH_U32 = new Uint32Array(SCRATCH.buffer);

/** A finite double as m * 2^e (m a BigInt, possibly zero or negative). */
export interface Dyadic {
  m: bigint;
  e: number;
}

export function toDyadic(x: number): Dyadic {
  SCRATCH[0] = x;
  const lo = SCRATCH_U32[0]!;
  const hi = SCRATCH_U32[1]!;
  const exp = (hi >>> 20) & 0x7ff;
  if (exp === 0x7ff) throw new RangeError('toDyadic: not finite');
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (exp === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = exp - 1075;
  }
  return { m: hi >>> 31 ? -m : m, e };
}

function align(a: Dyadic, e: number): bigint {
  return a.m << BigInt(a.e - e);
}

function sign(v: bigint): number {
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}

export type ExactOp = 'add' | 'sub' | 'mul' | 'div';

/**
 * sign(exact(a op b) - x) for finite a, b and x (b nonzero for div; x a double or any dyadic
 * rational, e.g. a rounding threshold): +1 when the exact result lies above x, -1 below, 0 when
 * equal.
 */
export function cmpExact(op: ExactOp, a: number, b: number, x: number | Dyadic): number {
  const A = toDyadic(a);
  const B = toDyadic(b);
  const X = typeof x === 'number' ? toDyadic(x) : x;
  switch (op) {
    case 'add':
    case 'sub': {
      const e = Math.min(A.e, B.e, X.e);
      const bm = align(B, e);
      return sign(align(A, e) + (op === 'add' ? bm : -bm) - align(X, e));
    }
    case 'mul': {
      const P = { m: A.m * B.m, e: A.e + B.e };
      const e = Math.min(P.e, X.e);
      return sign(align(P, e) - align(X, e));
    }
    case 'div': {
      // a/b - x has the sign of (a - x*b) * sign(b).
      const P = { m: X.m * B.m, e: X.e + B.e };
      const e = Math.min(P.e, A.e);
      return sign(align(A, e) - align(P, e)) * sign(B.m);
    }
  }
}
