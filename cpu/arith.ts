/**
 * Integer arithmetic wider than 32 bits, shared by both CPUs and by everything that evaluates
 * their instructions (the engines, the instrumenter, regeneration): the high word of the 64-bit
 * product of two 32-bit values (MIPS mult/multu, SPARC umul/smul) and the quotient of a 64-bit
 * dividend by a 32-bit divisor (SPARC udiv/sdiv, dividend Y:rs1).
 *
 * Values are JavaScript numbers holding int32 (signed) or uint32 (unsigned) integers; results
 * are int32 bit patterns.
 */

/**
 * High word of the 64-bit product a * b, where b = bh * 65536 + bl (0 <= bl < 65536) and a, bh
 * are both signed or both unsigned: the two partial products are below 2^48 and exact in doubles.
 * Translated code calls it directly (cpu/semantics.ts mult, umul ...): one call V8 inlines.
 */
export function mulHi(a: number, bh: number, bl: number): number {
  const t1 = a * bl;
  const t2 = a * bh;
  const q2 = Math.floor(t2 / 65536);
  const r2 = t2 - q2 * 65536;
  return (q2 + Math.floor((r2 * 65536 + t1) / 4294967296)) | 0;
}

/** High word of the signed 64-bit product of the int32 values of a and b. */
export function smulHi(a: number, b: number): number {
  return mulHi(a | 0, b >> 16, b & 0xffff);
}

/** High word of the unsigned 64-bit product of the uint32 values of a and b. */
export function umulHi(a: number, b: number): number {
  return mulHi(a >>> 0, b >>> 16, b & 0xffff);
}

/**
 * The unsigned quotient of the 64-bit dividend y:a by b (b non-zero), truncated: exact below
 * 2^53, and above 0xffffffff whenever the true quotient is (it does not fit: y >= b).
 */
export function udivQuotient(y: number, a: number, b: number): number {
  if ((y | 0) === 0) return Math.floor((a >>> 0) / (b >>> 0));
  return Number(((BigInt(y >>> 0) << 32n) | BigInt(a >>> 0)) / BigInt(b >>> 0));
}

/**
 * The signed quotient of the 64-bit dividend y:a by b (b non-zero), rounded toward zero: exact
 * within int32 range, and outside it whenever the true quotient is.
 */
export function sdivQuotient(y: number, a: number, b: number): number {
  // A dividend that is a sign-extended word divides exactly in doubles.
  if ((y | 0) === a >> 31) return Math.trunc((a | 0) / (b | 0));
  return Number(((BigInt(y | 0) << 32n) | BigInt(a >>> 0)) / BigInt(b | 0));
}

/** UDIV's result for the quotient q (manual B.19): q, or 0xffffffff when it does not fit in 32 bits. */
export function udivResult(q: number): number {
  return q > 0xffffffff ? -1 : q | 0;
}

/** SDIV's result for the quotient q: q, or 0x7fffffff / 0x80000000 when it does not fit in 32 bits. */
export function sdivResult(q: number): number {
  return q > 0x7fffffff ? 0x7fffffff : q < -0x80000000 ? -0x80000000 : q | 0;
}

/** UDIV of the dividend y:a by b (b non-zero). */
export function udiv64(y: number, a: number, b: number): number {
  return udivResult(udivQuotient(y, a, b));
}

/** SDIV of the dividend y:a by b (b non-zero). */
export function sdiv64(y: number, a: number, b: number): number {
  return sdivResult(sdivQuotient(y, a, b));
}

/** UDIVcc's V: the quotient of y:a by b does not fit in 32 bits. */
export function udivOverflows(y: number, a: number, b: number): boolean {
  return udivQuotient(y, a, b) > 0xffffffff;
}

/** SDIVcc's V: the quotient of y:a by b does not fit in 32 bits. */
export function sdivOverflows(y: number, a: number, b: number): boolean {
  const q = sdivQuotient(y, a, b);
  return q > 0x7fffffff || q < -0x80000000;
}
