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
import { SparcCore } from './core.js';
import type { SparcCpuOptions } from './state.js';
import { step } from './interp.js';
import { NPC_IMPLICIT, SparcTranslator } from './translate.js';
import { TT_INTERRUPT_LEVEL } from './traps.js';

export type { SparcRefSink } from './core.js';

export const RUN_BUDGET = 0;
export const RUN_TRAP = 1;
export const RUN_ERROR = 2;
export type RunExit = typeof RUN_BUDGET | typeof RUN_TRAP | typeof RUN_ERROR;

export type EngineName = 'interp' | 'fast';

export interface SparcCpuConfig extends SparcCpuOptions {
  engine?: EngineName;
}

export class SparcCpu extends SparcCore {
  engine: EngineName;
  /** Instructions retired by the last run(). */
  lastRetired = 0;
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
}
