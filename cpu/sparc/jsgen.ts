/**
 * The code generator's state for one translated block (which registers and maps the block uses,
 * the pending condition codes, temporaries, slow exits) and the JavaScript spellings of register
 * operands: shared by codegen.ts (integer instructions, control) and fpgen.ts (FPU).
 */
import { CC_LOGIC } from './state.js';

/** Pending condition codes of the generated code: JS expressions (locals) for the lazy form. */
export interface PendingCc {
  op: number;
  a: string;
  b: string;
  r: string;
}

/** Code generator state for one block. */
export class Gen {
  readonly out: string[] = [];
  cc: PendingCc | null = null;
  private ntmp = 0;
  /** Prefix of retired counts in return statements ('n + ' inside a loop block). */
  base = '';
  usesRM = false;
  usesWM = false;
  fpChecked = false;
  /** The block uses the FPU (`f` = c.fpu). */
  usesF = false;
  /** The block computes FPops inline (fpgen.ts's locals). */
  usesFpTemps = false;
  /**
   * Some fast path of the block is bypassed while `k0` is 1: in the first iteration of its first
   * COLD_CALLS calls (codegen.ts, generateBlock).
   */
  usesCold = false;
  /**
   * The slow exit of the integer load or store being emitted (see slowExit; set by the caller of
   * emitInsn), or null: it calls its slow path in place.
   */
  memExit: { pc: number; count: number } | null = null;
  constructor(readonly sup: boolean, readonly hooks: boolean, readonly va: number) {}
  tmp(): string {
    return `t${this.ntmp++}`;
  }
  temps(): number {
    return this.ntmp;
  }
  emit(s: string): void {
    this.out.push(s);
  }
  /** Statement writing the pending icc back to the CPU. */
  flushCc(): string {
    const cc = this.cc;
    if (!cc) return '';
    if (cc.op === CC_LOGIC) return `c.ccOp = ${CC_LOGIC}; c.ccA = ${cc.r}; `;
    return `c.ccOp = ${cc.op}; c.ccA = ${cc.a}; c.ccB = ${cc.b}; `;
  }
  /** Makes icc current in the CPU (before helpers that read or replace it). */
  settleCc(): void {
    const f = this.flushCc();
    if (f) this.emit(f);
    this.cc = null;
  }
  ret(count: number): string {
    return `return ${this.base}${count};`;
  }
  /**
   * The slow exit of a memory access (see the file comment): the block leaves to `pc` (the
   * access's, or its branch's for a delay slot, `ds`) with `count` instructions retired. Null —
   * the slow path is called in place — at the block's first instruction (the block starting there
   * must not leave again), and in a delay slot when re-executing the branch would not be exact
   * (`redo` false) or the ground-truth sink has seen the branch already.
   */
  slowExit(pc: number, count: number, ds: boolean, redo = true): { pc: number; count: number } | null {
    if ((pc | 0) === (this.va | 0)) return null;
    if (ds && (this.hooks || !redo)) return null;
    return { pc, count };
  }
  /** Trap exit inside a slow path: icc written back, `count` instructions retired. */
  trapRet(count: number): string {
    return `{ ${this.flushCc()}${this.ret(count)} }`;
  }
}

/** Register i of the current window as a JS expression: globals at r[i], the window at r[w + i]. */
export const R = (i: number): string => (i === 0 ? '0' : RL(i));
/** Register i (1..31) as an assignable JS expression. */
export const RL = (i: number): string => (i < 8 ? `r[${i}]` : `r[w + ${i}]`);
export const I = (v: number): string => String(v | 0);
