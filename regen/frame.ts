/**
 * Where a regenerating process is (an item of a block, of an edge or of an entry stub) and the
 * frames of its procedure stack: the state regen/process.ts keeps and regen/signals.ts builds
 * signal frames of. Below both, so neither imports the other's code for it.
 */
import { RegenError, type RFunc } from './model.js';
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


/** The MIPS registers a call frame saves and a return restores (s0-s7, gp, sp, s8), in order. */
export const MIPS_CALLEE_SAVED = [16, 17, 18, 19, 20, 21, 22, 23, 28, 29, 30];
export const SPARC_SP = 14;
export const MIPS_SP = 29;

/**
 * The slots of an activation that has written none (most never do): one shared, empty object
 * instead of a Map per call. The first write gives the activation its own Map
 * (RegenProcess.slotSet), and so does a setjmp snapshot of the frames (regen/nonlocal.ts), the one
 * holder that must see the activation's later writes; a write through the shared object itself
 * would be a missed case, and throws.
 */
class NoSlots extends Map<number, number> {
  override set(r: number): this {
    throw new RegenError(`stack slot register ${r} written through the shared empty slots`);
  }
}
export const NO_SLOTS: Map<number, number> = new NoSlots();
