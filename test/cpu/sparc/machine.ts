/**
 * A bare SPARC machine for the lockstep and trap tests: physical memory, SRMMU page tables made
 * with the pmap's srmmuPteAddr (os/sparc/pmap.ts; code read/execute, data and stack read/write,
 * everything else unmapped), a CPU entered in user or supervisor mode through the kernel
 * interface, and a generic trap handler that every
 * engine gets identically. `state()` captures everything architectural (all windows, PSR, WIM,
 * TBR, Y, PC/nPC, FPU, MMU registers and TLB statistics, retired count, a memory digest) so two
 * machines can be compared after any run().
 */
import { PhysMem } from '../../../cpu/physmem.js';
import { SparcCpu, RUN_BUDGET, RUN_ERROR, type EngineName } from '../../../cpu/sparc/index.js';
import { FLUSH_ENTIRE, MMU_CTRL_E } from '../../../cpu/sparc/mmu.js';
import { srmmuPte, srmmuPtd, srmmuPteAddr } from '../../../os/sparc/pmap.js';
import { PSR_EF, PSR_S } from '../../../cpu/sparc/state.js';
import {
  TT_FP_EXCEPTION, TT_INSTRUCTION_ACCESS_ERROR, TT_INSTRUCTION_ACCESS_EXCEPTION, TT_WIN_OVF, TT_WIN_UNF,
} from '../../../cpu/sparc/traps.js';
import { windowOverflow, windowUnderflow } from '../../../cpu/sparc/windows.js';

export const PAGE = 4096;
export const ACC_R = 0;
export const ACC_RW = 1;
export const ACC_RX = 2;
export const ACC_RWX = 3;
export const ACC_X = 4;
export const ACC_R_SRW = 5;
export const ACC_SRX = 6;
export const ACC_SRWX = 7;

export interface MachineOptions {
  engine: EngineName;
  memSize?: number;
  nwindows?: number;
  /** Supervisor mode (S = 1) instead of user mode. */
  supervisor?: boolean;
  /** MMU off: virtual = physical. */
  passThrough?: boolean;
}

/** Layout of the machine's virtual address space. */
export const CODE_VA = 0x00010000;
export const DATA_VA = 0x00040000;
export const DATA_SIZE = 0x10000;
export const STACK_TOP = 0x00080000;
export const STACK_SIZE = 0x10000;

/** One memory and CPU per (engine, size, windows), reset for every new BareMachine. */
const POOL = new Map<string, { mem: PhysMem; cpu: SparcCpu }>();

export class BareMachine {
  readonly mem: PhysMem;
  readonly cpu: SparcCpu;
  private nextPage = 0;
  private l1 = 0;
  private ctxTable = 0;
  /** Traps handled, by tt (the same sequence on every engine for the same program). */
  readonly trapLog: number[] = [];

  constructor(readonly o: MachineOptions) {
    // Machines are reused (see machine()): each CPU carries 24 MiB of software page maps.
    const key = `${o.engine}:${o.memSize ?? 1 << 20}:${o.nwindows ?? 8}`;
    let pooled = POOL.get(key);
    if (!pooled) {
      const mem = new PhysMem(o.memSize ?? 1 << 20, 'big');
      pooled = { mem, cpu: new SparcCpu(mem, { engine: o.engine, nwindows: o.nwindows ?? 8 }) };
      POOL.set(key, pooled);
    }
    this.mem = pooled.mem;
    this.cpu = pooled.cpu;
    this.mem.zero(0, this.mem.size);
    this.cpu.sink = undefined;
    this.cpu.reset();
    if (!o.passThrough) {
      this.ctxTable = this.allocPage();
      this.l1 = this.allocPage();
      this.mem.write32(this.ctxTable + 4, srmmuPtd(this.l1));
      this.cpu.mmu.setCtpr((this.ctxTable >>> 6) << 2);
      this.cpu.mmu.setContext(1);
      this.cpu.mmu.setControl(MMU_CTRL_E);
    }
  }

  allocPage(): number {
    const pa = this.nextPage * PAGE;
    if (pa + PAGE > this.mem.size) throw new Error('bare machine: out of physical memory');
    this.nextPage++;
    this.mem.zero(pa, PAGE);
    return pa;
  }

  /** PTE address for va (creating level-2/3 tables). */
  pteAddr(va: number): number {
    return srmmuPteAddr(this.mem, this.l1, va, () => this.allocPage());
  }

  /** Maps [va, va + size) with permission acc; returns the physical address of va. */
  map(va: number, size: number, acc: number): number {
    let first = -1;
    for (let a = va & ~(PAGE - 1); a < va + size; a += PAGE) {
      const pa = this.allocPage();
      if (first < 0) first = pa;
      this.mem.write32(this.pteAddr(a), srmmuPte(pa, acc));
    }
    this.cpu.mmu.flush(FLUSH_ENTIRE);
    return first;
  }

  /** Physical address of a mapped va (walks the tables), or -1. */
  paOf(va: number): number {
    if (this.o.passThrough) return va;
    const w = this.cpu.mmu.walk(va >>> 0);
    if (w.fault) return -1;
    return ((w.pte >>> 8) << 12) + (va & (PAGE - 1));
  }

  write32(va: number, v: number): void {
    const pa = this.paOf(va);
    if (pa < 0) throw new Error(`bare machine: ${va.toString(16)} not mapped`);
    this.mem.write32(pa, v);
  }

  read32(va: number): number {
    const pa = this.paOf(va);
    if (pa < 0) throw new Error(`bare machine: ${va.toString(16)} not mapped`);
    return this.mem.read32(pa);
  }

  /** The standard layout: code (RX) with the words, data and stack (RW). */
  loadProgram(words: readonly number[], codeAcc = ACC_RX): void {
    if (this.o.passThrough) {
      for (let i = 0; i < words.length; i++) this.mem.write32(CODE_VA + i * 4, words[i]!);
    } else {
      this.map(CODE_VA, Math.max(PAGE, words.length * 4 + 8), codeAcc);
      this.map(DATA_VA, DATA_SIZE, ACC_RW);
      this.map(STACK_TOP - STACK_SIZE, STACK_SIZE, ACC_RW);
      for (let i = 0; i < words.length; i++) this.write32(CODE_VA + i * 4, words[i]!);
    }
  }

  /**
   * Enters the program at CODE_VA the architectural way: from a trap window with PS = the wanted
   * mode, RETT. `cwp` is the window the program starts in; WIM marks window cwp + 1.
   */
  start(opts: { cwp?: number; wim?: number; ef?: boolean; pc?: number } = {}): void {
    const cpu = this.cpu;
    const n = cpu.nwindows;
    const cwp = opts.cwp ?? 0;
    const t = (cwp + n - 1) % n;
    cpu.psr = PSR_S | (opts.ef === false ? 0 : PSR_EF) | (this.o.supervisor ? 1 << 6 : 0) | t;
    cpu.setWim(opts.wim ?? 1 << ((cwp + 1) % n));
    cpu.setWindowReg(cwp, 14, STACK_TOP - 256);
    cpu.setWindowReg(cwp, 30, STACK_TOP - 64);
    const pc = opts.pc ?? CODE_VA;
    if (!cpu.returnFromTrap(pc, pc + 4)) throw new Error('bare machine: cannot enter the program');
  }

  /**
   * The generic trap handler: window traps are serviced (a fault while doing so skips the
   * SAVE/RESTORE); a fetch fault restarts at CODE_VA; every other trap skips the trapping
   * instruction (resume at nPC). Returns false in error mode.
   */
  handleTrap(stop: number): boolean {
    const cpu = this.cpu;
    if (stop === RUN_ERROR) return false;
    const tt = cpu.tt;
    this.trapLog.push(tt);
    if (tt === TT_WIN_OVF || tt === TT_WIN_UNF) {
      const f = tt === TT_WIN_OVF ? windowOverflow(cpu) : windowUnderflow(cpu);
      const l1 = cpu.trapPc, l2 = cpu.trapNpc;
      return f ? cpu.returnFromTrap(l2, (l2 + 4) | 0) : cpu.returnFromTrap(l1, l2);
    }
    if (tt === TT_INSTRUCTION_ACCESS_EXCEPTION || tt === TT_INSTRUCTION_ACCESS_ERROR) return cpu.returnFromTrap(CODE_VA, CODE_VA + 4);
    // A kernel empties the floating-point queue after an fp_exception (as with stdfq).
    if (tt === TT_FP_EXCEPTION) cpu.fpu.takeQueue();
    const l2 = cpu.trapNpc;
    return cpu.returnFromTrap(l2, (l2 + 4) | 0);
  }

  /** Runs `budget` instructions (handling traps); returns false when the machine stopped. */
  run(budget: number): boolean {
    const stop = this.cpu.run(budget);
    if (stop === RUN_BUDGET) return true;
    return this.handleTrap(stop);
  }

  /** Every architectural value, as plain data for deep comparison. */
  state(withMemory = true): Record<string, unknown> {
    const cpu = this.cpu;
    const f = cpu.fpu;
    const s: Record<string, unknown> = {
      pc: cpu.pc >>> 0, npc: cpu.npc >>> 0, psr: cpu.psr >>> 0, wim: cpu.wim >>> 0, tbr: cpu.tbr >>> 0, y: cpu.y >>> 0,
      globals: Array.from(cpu.currentWindow().subarray(0, 8)), current: Array.from(cpu.currentWindow()),
      windows: Array.from({ length: cpu.nwindows * 16 }, (_, k) => cpu.windowReg(k >> 4, 8 + (k & 15))),
      instret: cpu.instret, trapped: cpu.trapped, errorMode: cpu.errorMode, tt: cpu.tt,
      fr: Array.from(f.fr), fsr: f.fsr >>> 0, fq: f.queue ? [f.queue.address, f.queue.instruction] : null,
      sfsr: cpu.mmu.sfsr >>> 0, sfar: cpu.mmu.sfar >>> 0, ctx: cpu.mmu.ctx, tlbMisses: cpu.mmu.tlbMisses, mWalks: cpu.mmu.mWalks,
    };
    if (withMemory) s['memory'] = digest(this.mem.u32);
    return s;
  }
}

/** FNV-1a over the words of memory (cheap enough to take after every run). */
export function digest(u32: Int32Array): string {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x01000193 | 0;
  for (let i = 0; i < u32.length; i++) {
    const w = u32[i]!;
    if (w === 0) continue;
    h1 = Math.imul(h1 ^ w, 0x01000193);
    h2 = Math.imul(h2 ^ (w + i), 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`;
}
