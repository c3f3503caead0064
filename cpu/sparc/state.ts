/**
 * Architectural state of the SPARC v8 integer unit: the windowed register file, PSR (with lazily
 * evaluated integer condition codes), WIM, TBR, Y, PC/nPC, and trap entry (manual chapter 7).
 *
 * Register file (manual 4.1, figure 4-1, with the overlap of adjacent windows made physical):
 * one array `rf` of 8 globals and NWINDOWS windows of 16 registers. rf[0..7] are %g0..%g7;
 * register i (8..31) of window w is rf[w * 16 + i], so window w's ins (24..31) are the same
 * elements as window w + 1's outs (8..15), and the CPU's current window starts at `wb` =
 * CWP * 16: changing windows (SAVE, RESTORE, traps, RETT, WRPSR) moves wb and copies nothing,
 * except at the wrap-around: window NWINDOWS - 1's ins are rf[NWINDOWS * 16 + 8 .. + 15], a second
 * copy of window 0's outs rf[8..15]; the copy of the window the CPU is in is the live one
 * (setCwp moves the 8 values when CWP enters or leaves NWINDOWS - 1; regIndex knows which).
 * Engines index the current window as rf[i] (i < 8) and rf[wb + i]; anything reading another
 * window goes through windowReg/setWindowReg.
 *
 * Condition codes: `ccOp` says how icc is derived: CC_FLAGS (held in `iccBits`, NZVC in bits
 * 3..0), CC_LOGIC (from the result, held in ccA: N, Z; V = C = 0), CC_ADD / CC_SUB (from the
 * operands ccA, ccB, without carry in; the result is their 32-bit sum or difference). Engines set
 * the lazy form (two or three stores); `icc` materialises it.
 */
import type { PhysMem } from '../physmem.js';
import { SparcMmu } from './mmu.js';
import { SparcFpu } from './fpu.js';

export const CC_FLAGS = 0;
export const CC_LOGIC = 1;
export const CC_ADD = 2;
export const CC_SUB = 3;

export const ICC_N = 8;
export const ICC_Z = 4;
export const ICC_V = 2;
export const ICC_C = 1;

/** PSR fields (manual 4.2). */
export const PSR_IMPL_VER = 0x04000000; // impl 0, ver 4 (the identity QEMU's default sparc32 CPU reports)
export const PSR_EC = 1 << 13;
export const PSR_EF = 1 << 12;
export const PSR_S = 1 << 7;
export const PSR_PS = 1 << 6;
export const PSR_ET = 1 << 5;

export interface SparcCpuOptions {
  /** Register windows, 2..32 (default 8). */
  nwindows?: number;
  /** Entries of the TLB model (default 64). */
  tlbEntries?: number;
}

/** Index in SparcState.rf of register i (0..31) of the window whose base (CWP * 16) is wb. */
export function regAt(wb: number, i: number): number {
  return i < 8 ? i : wb + i;
}

export class SparcState {
  readonly mem: PhysMem;
  readonly mmu: SparcMmu;
  readonly fpu: SparcFpu;
  readonly nwindows: number;
  /** The register file (see the file comment): globals, then 16 per window, then 8. */
  readonly rf: Int32Array;
  /** CWP * 16: register i (8..31) of the current window is rf[wb + i]. */
  wb = 0;
  cwp = 0;
  wim = 0;
  // PSR fields.
  s = 1;
  ps = 0;
  et = 0;
  pil = 0;
  ef = 0;
  ccOp = CC_FLAGS;
  iccBits = 0;
  ccA = 0;
  ccB = 0;
  y = 0;
  /** TBR.tba (bits 31:12) and tt of the last trap. */
  tba = 0;
  tt = 0;
  pc = 0;
  npc = 4;
  /** Interrupt request level driven by devices (0 = none). */
  irl = 0;
  /** Set by trap entry during an instruction; engines stop at it. */
  trapped = false;
  /** The processor halted in error mode (a trap with ET = 0). */
  errorMode = false;
  /** Retired instructions since reset (exact). */
  instret = 0;
  /**
   * Instruction-fetch page: virtual page number whose translation fetches use without consulting
   * the MMU, and (PA - VA) for it. Like a one-entry micro-TLB, it is looked up again when control
   * enters another page, on a mode change (trap, RETT) and after explicit MMU changes; both
   * engines follow this rule, so the TLB model sees the same references from either.
   */
  ifPage = -1;
  ifDelta = 0;
  /** Software maps of the current mode (user or supervisor): read, write, execute. */
  RM: Int32Array;
  WM: Int32Array;
  XM: Int32Array;
  readonly u8: Uint8Array;
  readonly u16: Uint16Array;
  readonly u32: Int32Array;

  constructor(mem: PhysMem, opts: SparcCpuOptions = {}) {
    if (mem.endian !== 'big') throw new Error('SPARC needs big-endian physical memory (PhysMem endian "big")');
    const n = opts.nwindows ?? 8;
    if (!Number.isInteger(n) || n < 2 || n > 32) throw new Error(`NWINDOWS ${n} outside 2..32`);
    this.mem = mem;
    this.nwindows = n;
    this.rf = new Int32Array(n * 16 + 16);
    this.mmu = new SparcMmu(mem, opts.tlbEntries ?? 64);
    this.fpu = new SparcFpu();
    this.u8 = mem.u8;
    this.u16 = mem.u16;
    this.u32 = mem.u32;
    this.RM = this.mmu.maps[3]!;
    this.WM = this.mmu.maps[4]!;
    this.XM = this.mmu.maps[5]!;
  }

  // ---- windows ----

  /** Moves to window w (no WIM check: that is the caller's business). */
  setCwp(w: number): void {
    const n = this.nwindows;
    const rf = this.rf;
    const x = n * 16;
    // Window n - 1's ins and window 0's outs: the live copy follows the CPU (file comment).
    if (this.cwp === n - 1) for (let k = 8; k < 16; k++) rf[k] = rf[x + k]!;
    this.cwp = w;
    this.wb = w * 16;
    if (w === n - 1) for (let k = 8; k < 16; k++) rf[x + k] = rf[k]!;
  }

  /** Index in rf of register i (0..31) of window w, as that window names it. */
  regIndex(w: number, i: number): number {
    if (i < 8) return i;
    const n = this.nwindows;
    const x = w * 16 + i;
    if (x >= n * 16 + 8) return this.cwp === n - 1 ? x : x - n * 16;
    if (x < 16 && this.cwp === n - 1) return x + n * 16;
    return x;
  }

  /** Register i (0..31) of window w, as that window names it. */
  windowReg(w: number, i: number): number {
    return this.rf[this.regIndex(w, i)]!;
  }

  setWindowReg(w: number, i: number, v: number): void {
    if (i !== 0) this.rf[this.regIndex(w, i)] = v;
  }

  /** Register i (0..31) of the current window. */
  getReg(i: number): number {
    return this.rf[regAt(this.wb, i)]!;
  }

  setReg(i: number, v: number): void {
    if (i !== 0) this.rf[regAt(this.wb, i)] = v;
  }

  /** A copy of the current window's 32 registers (r0..r31). */
  currentWindow(): Int32Array {
    const out = new Int32Array(32);
    for (let i = 0; i < 32; i++) out[i] = this.getReg(i);
    return out;
  }

  // ---- condition codes and PSR ----

  get icc(): number {
    const a = this.ccA;
    const b = this.ccB;
    let res: number;
    switch (this.ccOp) {
      case CC_FLAGS: return this.iccBits;
      case CC_LOGIC: return (a < 0 ? ICC_N : 0) | (a === 0 ? ICC_Z : 0);
      case CC_ADD:
        res = (a + b) | 0;
        return (res < 0 ? ICC_N : 0) | (res === 0 ? ICC_Z : 0)
          | ((~(a ^ b) & (a ^ res)) < 0 ? ICC_V : 0) | ((res >>> 0) < (a >>> 0) ? ICC_C : 0);
      default:
        res = (a - b) | 0;
        return (res < 0 ? ICC_N : 0) | (res === 0 ? ICC_Z : 0)
          | (((a ^ b) & (a ^ res)) < 0 ? ICC_V : 0) | ((a >>> 0) < (b >>> 0) ? ICC_C : 0);
    }
  }

  set icc(v: number) {
    this.ccOp = CC_FLAGS;
    this.iccBits = v & 15;
  }

  get psr(): number {
    return (PSR_IMPL_VER | (this.icc << 20) | (this.ef ? PSR_EF : 0) | (this.pil << 8)
      | (this.s ? PSR_S : 0) | (this.ps ? PSR_PS : 0) | (this.et ? PSR_ET : 0) | this.cwp) >>> 0;
  }

  /**
   * Writes the PSR as WRPSR does (impl/ver read-only, EC reads 0: there is no coprocessor).
   * The caller checks CWP < NWINDOWS (illegal_instruction otherwise).
   */
  set psr(v: number) {
    this.icc = (v >>> 20) & 15;
    this.ef = (v & PSR_EF) ? 1 : 0;
    this.pil = (v >>> 8) & 15;
    this.ps = (v & PSR_PS) ? 1 : 0;
    this.et = (v & PSR_ET) ? 1 : 0;
    const cwp = v & 31;
    if (cwp !== this.cwp) this.setCwp(cwp % this.nwindows);
    this.setS((v & PSR_S) ? 1 : 0);
  }

  /** Supervisor bit; selects the software maps of the mode. */
  setS(s: number): void {
    this.s = s;
    this.ifPage = -1;
    const base = s ? 3 : 0;
    const maps = this.mmu.maps;
    this.RM = maps[base]!;
    this.WM = maps[base + 1]!;
    this.XM = maps[base + 2]!;
  }

  get tbr(): number {
    return (this.tba | (this.tt << 4)) >>> 0;
  }

  setWim(v: number): void {
    this.wim = (v & (this.nwindows === 32 ? -1 : (1 << this.nwindows) - 1)) >>> 0;
  }

  // ---- traps ----

  /**
   * Trap entry (manual 7.5): with ET = 1, ET <- 0, PS <- S, S <- 1, CWP <- CWP - 1 (no overflow
   * check), %l1 <- PC, %l2 <- nPC of the trapping instruction (this.pc / this.npc, which the
   * caller has set), TBR.tt <- tt, PC <- TBR, nPC <- TBR + 4. With ET = 0 the processor enters
   * error mode instead (tt is still recorded).
   */
  trap(tt: number): void {
    this.trapped = true;
    this.tt = tt;
    if (!this.et) {
      this.errorMode = true;
      return;
    }
    this.et = 0;
    this.ps = this.s;
    this.setS(1);
    this.setCwp((this.cwp + this.nwindows - 1) % this.nwindows);
    this.rf[this.wb + 17] = this.pc;
    this.rf[this.wb + 18] = this.npc;
    this.pc = this.tbr | 0;
    this.npc = (this.pc + 4) | 0;
  }

  /** Trap for the instruction at (pc, npc): what engines call from a slow path. */
  trapAt(tt: number, pc: number, npc: number): void {
    this.pc = pc;
    this.npc = npc;
    this.trap(tt);
  }

  /** An interrupt request above PIL (or level 15) with ET = 1 is pending. */
  interruptPending(): boolean {
    return this.et !== 0 && this.irl > 0 && (this.irl === 15 || this.irl > this.pil);
  }
}
