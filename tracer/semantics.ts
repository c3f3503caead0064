/**
 * The value semantics of the computable operations (tracer/isa.ts ComputeOp), shared by the
 * instrumenter's constant evaluation (jump tables, code addresses) and the reference regenerator.
 * They reproduce the CPU packages bit for bit: MIPS div/divu divide by 1 when the divisor is 0
 * (and INT_MIN / -1), as cpu/mips/interp.ts does; SPARC udiv/sdiv follow manual B.19 with the
 * overflow values of cpu/sparc/ops.ts (division by zero traps there and never completes).
 */
import { sdiv64, smulHi, udiv64, umulHi } from '../cpu/arith.js';
import type { ComputeName } from './isa.js';

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
