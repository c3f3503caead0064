/**
 * The value semantics of the computable operations (tracer/isa.ts ComputeOp), shared by the
 * instrumenter's constant evaluation (jump tables, code addresses) and the reference regenerator.
 * They reproduce the CPU packages bit for bit: MIPS div/divu divide by 1 when the divisor is 0
 * (and INT_MIN / -1), as cpu/mips/interp.ts does; SPARC udiv/sdiv follow manual B.19 with the
 * overflow values of cpu/sparc/ops.ts (division by zero traps there and never completes).
 */
import type { ComputeName } from './isa.js';

/** High word of the unsigned 64-bit product a * b (a, b unsigned 32-bit). */
export function umulHi(a: number, b: number): number {
  const al = a & 0xffff;
  const ah = a >>> 16;
  const bl = b & 0xffff;
  const bh = b >>> 16;
  const ll = al * bl;
  const lh = al * bh;
  const hl = ah * bl;
  const hh = ah * bh;
  const mid = (ll >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return (hh + (lh >>> 16) + (hl >>> 16) + Math.floor(mid / 0x10000)) | 0;
}

/** High word of the signed 64-bit product. */
export function smulHi(a: number, b: number): number {
  let hi = umulHi(a >>> 0, b >>> 0);
  if (a < 0) hi = (hi - b) | 0;
  if (b < 0) hi = (hi - a) | 0;
  return hi;
}

export function udiv64(y: number, a: number, b: number): number {
  if ((y | 0) === 0) return Math.floor((a >>> 0) / (b >>> 0)) | 0;
  const big = ((BigInt(y >>> 0) << 32n) | BigInt(a >>> 0)) / BigInt(b >>> 0);
  return big > 0xffffffffn ? -1 : Number(big) | 0;
}

export function sdiv64(y: number, a: number, b: number): number {
  if ((y | 0) === a >> 31) {
    const q = Math.trunc((a | 0) / (b | 0));
    return q > 0x7fffffff ? 0x7fffffff : q | 0;
  }
  const big = ((BigInt(y | 0) << 32n) | BigInt(a >>> 0)) / BigInt(b | 0);
  if (big > 0x7fffffffn) return 0x7fffffff;
  if (big < -0x80000000n) return -0x80000000;
  return Number(big) | 0;
}

/**
 * Evaluates an operation: a, b the source values (b: the immediate when the source is one),
 * y the current SPARC Y (udiv/sdiv). Returns the values of op.d in order.
 */
export function evalOp(op: ComputeName, a: number, b: number, y: number): number[] {
  switch (op) {
    case 'add': case 'save': case 'restore': return [(a + b) | 0];
    case 'sub': return [(a - b) | 0];
    case 'and': return [a & b];
    case 'or': return [a | b];
    case 'xor': return [a ^ b];
    case 'nor': return [~(a | b)];
    case 'andn': return [a & ~b];
    case 'orn': return [a | ~b];
    case 'xnor': return [~(a ^ b)];
    case 'sll': return [a << (b & 31)];
    case 'srl': return [(a >>> (b & 31)) | 0];
    case 'sra': return [a >> (b & 31)];
    case 'slt': return [(a | 0) < (b | 0) ? 1 : 0];
    case 'sltu': return [a >>> 0 < b >>> 0 ? 1 : 0];
    case 'const': return [b | 0];
    case 'mult': return [smulHi(a, b), Math.imul(a, b)];
    case 'multu': return [umulHi(a >>> 0, b >>> 0), Math.imul(a, b)];
    case 'div': {
      let d = b | 0;
      if (d === 0 || ((a | 0) === -0x80000000 && d === -1)) d = 1;
      return [(a | 0) % d | 0, ((a | 0) / d) | 0];
    }
    case 'divu': {
      let d = b >>> 0;
      if (d === 0) d = 1;
      return [((a >>> 0) % d) | 0, Math.trunc((a >>> 0) / d) | 0];
    }
    case 'umul': return [Math.imul(a, b), umulHi(a >>> 0, b >>> 0)];
    case 'smul': return [Math.imul(a, b), smulHi(a, b)];
    case 'udiv': return [udiv64(y, a, b)];
    case 'sdiv': return [sdiv64(y, a, b)];
    case 'wry': return [a ^ b];
    case 'ldro': throw new Error('evalOp: ldro reads memory (regen/model.ts roLoad)');
  }
}
