/**
 * The SPARC v8 CPU as the kernel sees it: run(budget) on one of two engines, architectural trap
 * entry and return, interrupts, error mode, register access and ground-truth hooks. The
 * contract is written out in docs/cpu-sparc.md ("Kernel interface").
 *
 *   run(budget)  executes at most `budget` instructions and stops at the first trap: it returns
 *                RUN_BUDGET (budget used up), RUN_TRAP (a trap was entered: TBR.tt says which,
 *                PC = TBR, S = 1, ET = 0, CWP decremented, %l1/%l2 = PC/nPC of the trapping
 *                instruction) or RUN_ERROR (error mode). `lastRetired` is the exact count;
 *                a Ticc that traps counts as retired, an instruction that faults does not.
 *   returnFromTrap(pc, npc)  the RETT path: CWP + 1, S = PS, ET = 1, PC/nPC = pc/npc (a window
 *                that is invalid in WIM, or a misaligned target, enters error mode as RETT does).
 *   irl          interrupt request level (0..15) from devices; taken before the next instruction
 *                when ET = 1 and irl > PIL (15 always), also at the start of run().
 */
import type { PhysMem } from '../physmem.js';
import { ACCESS_READ } from './mmu.js';
import { SparcOps } from './ops.js';
import type { SparcCpuOptions } from './state.js';
import { step } from './interp.js';
import { NPC_IMPLICIT, SparcTranslator } from './translate.js';
import {
  TT_INTERRUPT_LEVEL, TT_MEM_ADDRESS_NOT_ALIGNED, TT_PRIVILEGED_INSTRUCTION, TT_WIN_UNF,
  TT_DATA_ACCESS_ERROR, TT_DATA_ACCESS_EXCEPTION,
} from './traps.js';
import { FT_ACCESS_BUS, MAP_INVALID, ACCESS_WRITE } from './mmu.js';

export const RUN_BUDGET = 0;
export const RUN_TRAP = 1;
export const RUN_ERROR = 2;
export type RunExit = typeof RUN_BUDGET | typeof RUN_TRAP | typeof RUN_ERROR;

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

export type EngineName = 'interp' | 'fast';

export interface SparcCpuConfig extends SparcCpuOptions {
  engine?: EngineName;
}

export class SparcCpu extends SparcOps {
  engine: EngineName;
  private sinkRef: SparcRefSink | undefined;
  /** A sink is set (read by the translator's dispatch loop). */
  sinkOn = false;
  /** Instructions retired by the last run(). */
  lastRetired = 0;
  /** Set by PSR writes and RETT: interrupts must be re-examined before the next instruction. */
  pollInterrupts = false;
  readonly translator: SparcTranslator;

  constructor(mem: PhysMem, cfg: SparcCpuConfig = {}) {
    super(mem, cfg);
    this.engine = cfg.engine ?? 'fast';
    this.translator = new SparcTranslator(this);
    this.onCodeWrite = (pa) => this.translator.invalidatePage(pa >>> 12);
    this.mmu.onChange = () => {
      this.ifPage = -1;
    };
    this.reset();
  }

  /** The ground-truth sink; with none set, translated code contains no hook calls. */
  get sink(): SparcRefSink | undefined {
    return this.sinkRef;
  }
  set sink(s: SparcRefSink | undefined) {
    this.sinkRef = s;
    this.sinkOn = s !== undefined;
  }

  /** Power-on reset (manual 7.7): S = 1, ET = 0, PC = 0, nPC = 4; MMU disabled. */
  reset(): void {
    this.rf.fill(0);
    this.cwp = 0;
    this.wb = 0;
    this.wim = 0;
    this.ps = 0;
    this.et = 0;
    this.pil = 0;
    this.ef = 0;
    this.icc = 0;
    this.y = 0;
    this.tba = 0;
    this.tt = 0;
    this.pc = 0;
    this.npc = 4;
    this.irl = 0;
    this.trapped = false;
    this.errorMode = false;
    this.setS(1);
    this.instret = 0;
    this.fpu.reset();
    this.translator.flushAll();
    this.mmu.reset();
  }

  override set psr(v: number) {
    super.psr = v;
    this.pollInterrupts = true;
  }
  override get psr(): number {
    return super.psr;
  }

  /** Executes at most `budget` instructions; see the file comment. */
  run(budget: number): RunExit {
    if (this.errorMode) {
      this.lastRetired = 0;
      return RUN_ERROR;
    }
    this.trapped = false;
    let left = budget;
    if (this.interruptPending()) {
      this.trap(TT_INTERRUPT_LEVEL + this.irl);
    } else if (this.engine === 'interp') {
      while (left > 0) {
        left -= step(this);
        if (this.trapped) break;
        if (this.pollInterrupts) {
          this.pollInterrupts = false;
          if (this.interruptPending()) {
            this.trap(TT_INTERRUPT_LEVEL + this.irl);
            break;
          }
        }
      }
    } else {
      left = this.translator.run(left);
      // Block exits leave nPC implicit; make it explicit for whoever looks next.
      if (left === NPC_IMPLICIT) {
        this.npc = (this.pc + 4) | 0;
        left = 0;
      }
    }
    this.lastRetired = budget - left;
    this.instret += this.lastRetired;
    if (this.errorMode) return RUN_ERROR;
    return this.trapped ? RUN_TRAP : RUN_BUDGET;
  }

  /** Executes exactly one instruction on the reference interpreter (tests, single-stepping). */
  stepOne(): RunExit {
    const e = this.engine;
    this.engine = 'interp';
    try {
      return this.run(1);
    } finally {
      this.engine = e;
    }
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
    if (pa >= 0) this.translator.invalidatePage(pa >>> 12);
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
