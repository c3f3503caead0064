/**
 * Instruction semantics too large to inline, shared by the interpreter and the translated code
 * (both call these methods): MULScc, tagged arithmetic, add and subtract with carry (their
 * values and condition codes), SAVE/RESTORE with their window traps, WRPSR, condition
 * evaluation. What multiply, divide and the other value rows compute is their opcode-table
 * binding (opcodes.ts `value`). Page references are to The SPARC Architecture Manual v8,
 * Appendix B. A method that traps enters the trap for the instruction at
 * (pc, npc) and returns with `trapped` set; its result is then meaningless.
 */
import { SparcMemory } from './memops.js';
import { CC_FLAGS, CC_LOGIC, ICC_C, ICC_N, ICC_V, ICC_Z } from './state.js';
import {
  TT_ILLEGAL_INSTRUCTION, TT_TAG_OVERFLOW, TT_WIN_OVF, TT_WIN_UNF,
} from './traps.js';

/** ICOND[cond << 4 | icc]: Bicc/Ticc condition `cond` holds for NZVC = icc (manual Table F-7). */
export const ICOND = new Uint8Array(256);
/** FCOND[cond << 2 | fcc]: FBfcc condition for fcc 0 E, 1 L, 2 G, 3 U. */
export const FCOND = new Uint8Array(64);
{
  for (let icc = 0; icc < 16; icc++) {
    const n = (icc >> 3) & 1, z = (icc >> 2) & 1, v = (icc >> 1) & 1, c = icc & 1;
    const t = [0, z, z | (n ^ v), n ^ v, c | z, c, n, v];
    for (let cond = 0; cond < 8; cond++) {
      ICOND[(cond << 4) | icc] = t[cond]!;
      ICOND[((cond + 8) << 4) | icc] = cond === 0 ? 1 : t[cond]! ^ 1;
    }
  }
  // Bit fcc of each mask: E = 1, L = 2, G = 4, U = 8.
  const masks = [0, 14, 6, 10, 2, 12, 4, 8, 15, 1, 9, 5, 13, 3, 11, 7];
  for (let cond = 0; cond < 16; cond++) for (let fcc = 0; fcc < 4; fcc++) FCOND[(cond << 2) | fcc] = (masks[cond]! >> fcc) & 1;
}

export class SparcOps extends SparcMemory {
  /** Bicc/Ticc condition on the current icc. */
  cond(cond: number): boolean {
    return ICOND[(cond << 4) | this.icc] !== 0;
  }

  fcond(cond: number): boolean {
    return FCOND[(cond << 2) | this.fpu.fcc] !== 0;
  }

  setLogicCc(res: number): void {
    this.ccOp = CC_LOGIC;
    this.ccA = res;
  }

  setFlags(n: boolean, z: boolean, v: boolean, c: boolean): void {
    this.ccOp = CC_FLAGS;
    this.iccBits = (n ? ICC_N : 0) | (z ? ICC_Z : 0) | (v ? ICC_V : 0) | (c ? ICC_C : 0);
  }

  /**
   * MULScc (B.17): one step of the shift-and-add multiply. op1 = (N xor V) : rs1[31:1];
   * op2 = operand if Y[0] else 0; rd <- op1 + op2 with add cc; Y <- rs1[0] : Y[31:1].
   */
  mulscc(a: number, b: number): number {
    const icc = this.icc;
    const nv = ((icc >> 3) ^ (icc >> 1)) & 1;
    const op1 = ((nv << 31) | (a >>> 1)) | 0;
    const op2 = (this.y & 1) ? b : 0;
    const res = (op1 + op2) | 0;
    this.y = ((a & 1) << 31) | (this.y >>> 1);
    this.setFlags(res < 0, res === 0, (~(op1 ^ op2) & (op1 ^ res)) < 0, (res >>> 0) < (op1 >>> 0));
    return res;
  }

  /**
   * Tagged add/subtract (B.14/B.15): V is set on arithmetic overflow or when either operand has a
   * non-zero tag (bits 1:0). The TV forms trap (tag_overflow) instead, leaving rd and icc alone.
   */
  tagged(sub: boolean, trapv: boolean, a: number, b: number, pc: number, npc: number): number {
    const res = sub ? (a - b) | 0 : (a + b) | 0;
    const ovf = sub ? ((a ^ b) & (a ^ res)) < 0 : (~(a ^ b) & (a ^ res)) < 0;
    const v = ovf || ((a | b) & 3) !== 0;
    if (trapv && v) {
      this.trapAt(TT_TAG_OVERFLOW, pc, npc);
      return 0;
    }
    const c = sub ? (a >>> 0) < (b >>> 0) : (res >>> 0) < (a >>> 0);
    this.setFlags(res < 0, res === 0, v, c);
    return res;
  }

  /** ADDX/ADDXcc: a + b + C. */
  addx(a: number, b: number, cc: boolean): number {
    const cin = this.icc & ICC_C;
    const res = (a + b + cin) | 0;
    if (cc) {
      const carry = (a >>> 0) + (b >>> 0) + cin > 0xffffffff;
      this.setFlags(res < 0, res === 0, (~(a ^ b) & (a ^ res)) < 0, carry);
    }
    return res;
  }

  /** SUBX/SUBXcc: a - b - C. */
  subx(a: number, b: number, cc: boolean): number {
    const cin = this.icc & ICC_C;
    const res = (a - b - cin) | 0;
    if (cc) {
      const borrow = (a >>> 0) < (b >>> 0) + cin;
      this.setFlags(res < 0, res === 0, ((a ^ b) & (a ^ res)) < 0, borrow);
    }
    return res;
  }

  /**
   * SAVE (B.20): new CWP = CWP - 1; window_overflow if WIM has its bit. The sum is computed
   * with the old window's registers and written to rd of the new one. Returns false on a trap.
   */
  save(sum: number, rd: number, pc: number, npc: number): boolean {
    const n = this.nwindows;
    const ncwp = (this.cwp + n - 1) % n;
    if ((this.wim >>> ncwp) & 1) {
      this.trapAt(TT_WIN_OVF, pc, npc);
      return false;
    }
    this.setCwp(ncwp);
    this.setReg(rd, sum);
    return true;
  }

  /** RESTORE: new CWP = CWP + 1; window_underflow if WIM has its bit. */
  restore(sum: number, rd: number, pc: number, npc: number): boolean {
    const ncwp = (this.cwp + 1) % this.nwindows;
    if ((this.wim >>> ncwp) & 1) {
      this.trapAt(TT_WIN_UNF, pc, npc);
      return false;
    }
    this.setCwp(ncwp);
    this.setReg(rd, sum);
    return true;
  }

  /** WRPSR (B.29): illegal_instruction when the new CWP is not below NWINDOWS. */
  wrpsr(v: number, pc: number, npc: number): boolean {
    if ((v & 31) >= this.nwindows) {
      this.trapAt(TT_ILLEGAL_INSTRUCTION, pc, npc);
      return false;
    }
    this.psr = v;
    return true;
  }
}
