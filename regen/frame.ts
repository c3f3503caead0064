/**
 * Where a regenerating process is (an item of a block, of an edge or of an entry stub) and the
 * frames of its procedure stack: the state regen/process.ts keeps and regen/signals.ts builds
 * signal frames of. Below both, so neither imports the other's code for it.
 */
import type { RFunc } from './model.js';
import type { ContextReader } from './stream.js';

/** Where the process is: an item of a block, of an edge, or of an entry stub. */
export const AT_BLOCK = 0;
export const AT_EDGE = 1;
export const AT_ENTRY = 2;

/** A call or signal frame (regen/signals.ts builds the signal ones). */
export interface Frame {
  kind: 'call' | 'signal';
  fn: RFunc;
  /** Resume position. */
  at: number;
  id: number;
  item: number;
  /**
   * call: callee-saved values (MIPS, in MIPS_CALLEE_SAVED order) / %sp (SPARC) at the call;
   * signal: every register (the register file sigreturn takes back: an Int32Array).
   */
  regs: Int32Array | number[];
  wb: number;
  y: number;
  slots: Map<number, number>;
  /** signal: the interrupted state. */
  pending?: number;
  reader?: ContextReader;
  sub?: number;
  /** signal: a system call that restarts after the handler (its address). */
  restart?: number;
}

