/**
 * The SPARC v8 integer unit's services that both engines (interp.ts, translate.ts and the code
 * it generates) call, and that the kernel uses between runs: the ground-truth sink, RETT, FLUSH,
 * word accesses with the page-map fast path, trap-window registers and user data access checks.
 * SparcCpu (cpu.ts) adds run() and the engines on top; the engines see only this class, so they
 * do not import the CPU that runs them.
 */
import { ACCESS_READ, ACCESS_WRITE, FT_ACCESS_BUS, MAP_INVALID } from './mmu.js';
import { SparcOps } from './ops.js';
import {
  TT_DATA_ACCESS_ERROR, TT_DATA_ACCESS_EXCEPTION, TT_MEM_ADDRESS_NOT_ALIGNED, TT_PRIVILEGED_INSTRUCTION,
  TT_WIN_UNF,
} from './traps.js';

/**
 * Ground-truth reference sink. Receives, for every instruction retired in user mode (S = 0), its
 * fetch and then its data references (virtual addresses, sizes in bytes: ldd/std are one 8-byte
 * reference; ldstub/swap a load then a store). `kload`/`kstore` receive the references the
 * kernel helpers make on behalf of user code (window spill and fill).
 */
export interface SparcRefSink {
  ifetch(va: number): void;
  load(va: number, size: number): void;
  store(va: number, size: number): void;
  kload(va: number, size: number): void;
  kstore(va: number, size: number): void;
}

export class SparcCore extends SparcOps {
  private sinkRef: SparcRefSink | undefined;
  /** A sink is set (read by the translator's dispatch loop). */
  sinkOn = false;
  /** Set by PSR writes and RETT: interrupts must be re-examined before the next instruction. */
  pollInterrupts = false;

  /** The ground-truth sink; with none set, translated code contains no hook calls. */
  get sink(): SparcRefSink | undefined {
    return this.sinkRef;
  }
  set sink(s: SparcRefSink | undefined) {
    this.sinkRef = s;
    this.sinkOn = s !== undefined;
  }

  override set psr(v: number) {
    super.psr = v;
    this.pollInterrupts = true;
  }
  override get psr(): number {
    return super.psr;
  }

  /**
   * The RETT instruction's effect after its checks (B.27): used by the engines. Returns false
   * after entering the trap (which, with ET = 0, is error mode).
   */
  rettInsn(target: number, pc: number, npc: number): boolean {
    if (!this.s) {
      this.trapAt(TT_PRIVILEGED_INSTRUCTION, pc, npc);
      return false;
    }
    const ncwp = (this.cwp + 1) % this.nwindows;
    if ((this.wim >>> ncwp) & 1) {
      this.trapAt(TT_WIN_UNF, pc, npc);
      return false;
    }
    if (target & 3) {
      this.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
      return false;
    }
    this.setCwp(ncwp);
    this.et = 1;
    this.setS(this.ps);
    this.pollInterrupts = true;
    return true;
  }

  /**
   * Return from trap for the TypeScript kernel: exactly what `jmpl pc; rett npc` does in a v8
   * trap handler. Resume the trapping instruction with returnFromTrap(l1, l2), or the one after it
   * (syscalls, after emulation) with returnFromTrap(l2, l2 + 4). Returns false if it entered error
   * mode (the window to return to is invalid, or a target is misaligned).
   */
  returnFromTrap(pc: number, npc: number): boolean {
    if (this.errorMode) throw new Error('returnFromTrap: the CPU is in error mode');
    if (this.et) throw new Error('returnFromTrap: ET = 1 (no trap is being handled)');
    this.trapped = false;
    // The jmpl half: a misaligned target traps, which with ET = 0 is error mode.
    if ((pc & 3) !== 0) {
      this.trap(TT_MEM_ADDRESS_NOT_ALIGNED);
      return false;
    }
    if (!this.rettInsn(npc | 0, this.pc, this.npc)) return false;
    this.pc = pc | 0;
    this.npc = npc | 0;
    return true;
  }

  /** %l1 of the trap window: PC of the trapping instruction. */
  get trapPc(): number {
    return this.rf[this.wb + 17]! >>> 0;
  }
  /** %l2 of the trap window: nPC of the trapping instruction. */
  get trapNpc(): number {
    return this.rf[this.wb + 18]! >>> 0;
  }

  /**
   * FLUSH (B.32): makes instruction fetches of the addressed doubleword see earlier stores. The
   * engines drop translations of its page; no trap is taken for an unmapped address.
   */
  flushInsn(va: number): void {
    const pa = this.mmu.translate(va >>> 0, ACCESS_READ, this.s !== 0, true);
    if (pa >= 0) this.onCodeWrite(pa);
  }

  // ---- word accesses with the fast path, for FP loads/stores and the kernel helpers ----

  load32(va: number, pc: number, npc: number): number {
    const e = this.RM[va >>> 12]!;
    if (((e | va) & 3) === 0) return this.u32[(va + e) >>> 2]!;
    return this.loadSlow(va, 4, pc, npc);
  }
  load64(va: number, pc: number, npc: number): number {
    const e = this.RM[va >>> 12]!;
    if (((e | va) & 7) === 0) {
      const p = (va + e) | 0;
      this.lo = this.u32[(p + 4) >>> 2]!;
      return this.u32[p >>> 2]!;
    }
    return this.load64Slow(va, pc, npc);
  }
  store32(va: number, v: number, pc: number, npc: number): void {
    const e = this.WM[va >>> 12]!;
    if (((e | va) & 3) === 0) this.u32[(va + e) >>> 2] = v;
    else this.storeSlow(va, 4, v, pc, npc);
  }
  store64(va: number, hi: number, lo: number, pc: number, npc: number): void {
    const e = this.WM[va >>> 12]!;
    if (((e | va) & 7) === 0) {
      const p = (va + e) | 0;
      this.u32[p >>> 2] = hi;
      this.u32[(p + 4) >>> 2] = lo;
    } else {
      this.store64Slow(va, hi, lo, pc, npc);
    }
  }
  /** Kernel-side data access check used by the window helpers: the user-permission PA or -1. */
  userDataPa(va: number, write: boolean): number {
    const e = this.mmu.maps[write ? ACCESS_WRITE : ACCESS_READ]![va >>> 12]!;
    if (e !== MAP_INVALID) return (va + e) | 0;
    return this.mmu.translate(va >>> 0, write ? ACCESS_WRITE : ACCESS_READ, false);
  }

  /** Trap type a failed user data access (from userDataPa) corresponds to. */
  userFaultTrap(): number {
    return this.mmu.fault.ft === FT_ACCESS_BUS ? TT_DATA_ACCESS_ERROR : TT_DATA_ACCESS_EXCEPTION;
  }
}
