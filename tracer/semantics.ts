/**
 * The instrumenter's and the reference regenerator's evaluation of the computable operations
 * (tracer/isa.ts ComputeOp): cpu/semantics.ts's definitions, the ones the CPUs' opcode tables
 * name, so values are the CPU packages' bit for bit.
 */
import { evalValue } from '../cpu/semantics.js';
import type { ComputeName } from './isa.js';

/**
 * Evaluates an operation: a, b the source values (b: the immediate when the source is one),
 * y the current SPARC Y (udiv/sdiv). Returns the values of op.d in order.
 */
export function evalOp(op: ComputeName, a: number, b: number, y: number): number[] {
  if (op === 'ldro') throw new Error('evalOp: ldro reads memory (regen/model.ts roLoad)');
  return evalValue(op, a, b, y);
}
