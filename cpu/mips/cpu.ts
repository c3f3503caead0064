/**
 * The MIPS R2000 + R2010 processor: architectural state, memory accesses (the slow path both
 * engines share), exceptions, CP0, and the interface the TypeScript kernel drives it through.
 * docs/cpu-mips.md "Kernel interface" is the contract; the summary:
 *
 *   run(budget)  executes at most `budget` instructions and stops early at the first exception,
 *                after performing the architectural exception entry. Returns STOP_BUDGET or
 *                STOP_EXCEPTION. `icount` counts retired instructions exactly.
 *   Retirement:  an instruction retires when it completes. syscall and break retire (their effect
 *                is the trap; EPC still points at them, as the architecture says); an instruction
 *                that faults (TLB, address error, overflow, RI, CpU, ...) does not retire and
 *                re-executes after the kernel fixes the cause. A branch retires before its delay
 *                slot executes: if the delay slot faults (or an interrupt lands between them), EPC
 *                points at the branch with Cause.BD set and the branch executes — and retires —
 *                again after the return. Ground-truth sinks see exactly the retired instructions.
 *   Return path: returnFromException(pc) = `jr k0; rfe`: pops the KU/IE stack and continues at
 *                pc — usually EPC (retry) or excNextPC (skip the excepting instruction).
 */
import type { PhysMem } from '../physmem.js';
import {
  C0_BADVADDR, C0_CAUSE, C0_CONTEXT, C0_ENTRYHI, C0_ENTRYLO, C0_EPC, C0_INDEX, C0_PRID, C0_RANDOM, C0_STATUS,
  CAUSE_BD, CAUSE_CE_MASK, CAUSE_CE_SHIFT, CAUSE_EXC_MASK, CAUSE_EXC_SHIFT, CAUSE_SW_MASK, CONTEXT_BADVPN_MASK,
  CONTEXT_PTEBASE_MASK, ENTRYHI_ASID_MASK, ENTRYHI_VPN_MASK, ENTRYLO_MASK, EXC_ADEL, EXC_ADES, EXC_CPU, EXC_DBE,
  EXC_IBE, EXC_INT, EXC_MOD, EXC_TLBL, EXC_TLBS, FPU_INT_LINE, INDEX_MASK, PRID_R2000A, SR_BEV, SR_IEC, SR_KUIE_MASK,
  SR_TS, SR_WRITABLE, TLB_ENTRIES, TLB_WIRED, VEC_GENERAL, VEC_GENERAL_BEV, VEC_UTLB, VEC_UTLB_BEV,
} from './cp0.js';
import { Fpu } from './fpu.js';
import {
  ACC_FETCH, ACC_LOAD, ACC_STORE, MipsMmu, XL_ADDR_ERR, XL_TLB_INVALID, XL_TLB_MOD, XL_TLB_REFILL,
} from './mmu.js';

export const STOP_BUDGET = 0;
export const STOP_EXCEPTION = 1;

/** Ground-truth hooks: every retired instruction's fetch, then its load or store. */
export interface TraceSink {
  ifetch(va: number): void;
  /** va: effective address (base + offset); size: the table's access width (lwl/lwr: 4). */
  load(va: number, size: number): void;
  store(va: number, size: number): void;
}

/** Thrown (never an Error: no stack capture) after an exception entry, caught by run(). */
export class MipsTrap {
  private constructor() {}
  static readonly INSTANCE = new MipsTrap();
}
export const TRAP = MipsTrap.INSTANCE;

/** An execution engine: how instructions get executed; state lives in the cpu. */
export interface MipsEngine {
  readonly name: 'ref' | 'fast';
  run(cpu: MipsCpu, budget: number): number;
  /** Physical page ppn is about to be written: drop what was derived from its old contents. */
  invalidatePage(ppn: number): void;
  /** The trace sink was replaced: drop anything that captured the old one. */
  sinkChanged(): void;
}

export interface MipsCpuOptions {
  mem: PhysMem;
  /** Which engine run() uses; the other can be selected later with setEngine. */
  engine?: MipsEngine;
}

/**
 * `info` argument of the memory and exception helpers: (k << 1) | ds, where k is the number of
 * instructions of the current translated block that retired before this one (0 in the reference
 * interpreter, which counts itself) and ds is 1 when this instruction is in a branch delay slot.
 */
export class MipsCpu extends MipsMmu {
  /** General registers 0..31, then HI (32) and LO (33). r[0] is always 0. */
  readonly r = new Int32Array(34);
  /** Address of the next instruction to execute. */
  pc = 0;
  /** Address of the instruction after it (the branch destination while pc is a delay slot). */
  npc = 4;
  /** The instruction at pc is in a branch delay slot. */
  delay = false;
  readonly fpu = new Fpu();
  cause = 0;
  epc = 0;
  /** Retired instructions since reset. */
  icount = 0;
  /** Exceptions taken since reset (Random advances on these too, so refills do not collide). */
  excCount = 0;
  /**
   * Where execution continues after the excepting instruction if the kernel skips it: EPC + 4,
   * or the branch's destination when Cause.BD is set. Not an architectural register: a kernel
   * that switches processes before resuming must save it with EPC.
   */
  excNextPC = 0;
  /** Set by anything that may make an interrupt deliverable; engines test it between instructions. */
  irqCheck = false;
  /**
   * How an exception entry leaves the instruction that raised it: with throwTraps (the reference
   * interpreter) raise() throws TRAP; without (translated code), it sets `trapped` and returns, and
   * the generated code returns to the dispatch loop at once — a JS throw through optimised code is
   * far more expensive than a flag test on a slow path.
   */
  throwTraps = true;
  trapped = false;
  /** A guest store just dropped translated code (translated code must not run on past it). */
  codeStale = false;
  readonly bigEndian: boolean;
  /** Ground-truth sink; set it with setSink. */
  sink: TraceSink | null = null;
  engine: MipsEngine;

  constructor(o: MipsCpuOptions) {
    super(o.mem);
    this.bigEndian = o.mem.endian === 'big';
    this.engine = o.engine ?? NULL_ENGINE;
    this.mem.codeWriteHook = (ppn) => this.codeWritten(ppn);
    this.reset();
  }

  /** Reset: kernel mode, interrupts off, bootstrap vectors, PC at the reset vector. */
  reset(): void {
    this.setStatusRaw(SR_BEV);
    this.cause = 0;
    this.setPC(0xbfc00000);
  }

  setEngine(e: MipsEngine): void {
    this.engine = e;
  }

  /** Executes at most `budget` instructions; see the file comment. */
  run(budget: number): number {
    return this.engine.run(this, budget);
  }

  /** Continues at pc (not in a delay slot). */
  setPC(pc: number): void {
    this.pc = pc >>> 0;
    this.npc = (pc + 4) >>> 0;
    this.delay = false;
  }

  /** Installs (or removes, with null) the ground-truth sink. */
  setSink(s: TraceSink | null): void {
    if (s === this.sink) return;
    this.sink = s;
    this.engine.sinkChanged();
  }

  /** Called before physical page ppn is written through PhysMem or a guest store. */
  codeWritten(ppn: number): void {
    this.mem.codePage[ppn] = 0;
    this.codeStale = true;
    this.engine.invalidatePage(ppn);
  }

  /** The kernel rewrote [pa, pa + n) through the raw arrays: drop translations of that code. */
  invalidateCode(pa: number, n: number): void {
    for (let p = pa >>> 12; p <= (pa + n - 1) >>> 12; p++) if (this.mem.codePage[p] !== 0) this.codeWritten(p);
  }

  // ---------------------------------------------------------------- exceptions

  /** Exception code of the last exception (Cause.ExcCode). */
  get excCode(): number {
    return (this.cause & CAUSE_EXC_MASK) >>> CAUSE_EXC_SHIFT;
  }

  /**
   * The architectural exception entry (Kane & Heinrich 6-8): Cause.ExcCode/BD/CE, EPC (the branch
   * when in a delay slot), KU/IE stack push (kernel mode, interrupts off), PC = vector. Then
   * control goes back to run()'s caller (see throwTraps).
   */
  raise(code: number, pc: number, info: number, vector = -1, ce = 0): void {
    this.icount += info >>> 1;
    this.excCount++;
    const ds = (info & 1) !== 0;
    this.excNextPC = ds ? this.npc : (pc + 4) >>> 0;
    this.cause = (this.cause & ~(CAUSE_BD | CAUSE_EXC_MASK | CAUSE_CE_MASK)) | (code << CAUSE_EXC_SHIFT) | (ce << CAUSE_CE_SHIFT) | (ds ? CAUSE_BD : 0);
    this.epc = ds ? (pc - 4) >>> 0 : pc >>> 0;
    const s = this.status;
    this.setStatusRaw((s & ~SR_KUIE_MASK) | ((s << 2) & 0x3c));
    const bev = (s & SR_BEV) !== 0;
    const v = vector === VEC_UTLB ? (bev ? VEC_UTLB_BEV : VEC_UTLB) : bev ? VEC_GENERAL_BEV : VEC_GENERAL;
    this.setPC(v);
    this.trapped = true;
    if (this.throwTraps) throw TRAP;
  }

  /** A fault of translate() (XL_*) on va for access acc. */
  memFault(xl: number, va: number, acc: number, pc: number, info: number): void {
    const store = acc === ACC_STORE;
    switch (xl) {
      case XL_TLB_REFILL:
      case XL_TLB_INVALID:
      case XL_TLB_MOD: {
        this.badVAddr = va | 0;
        this.context = (this.context & CONTEXT_PTEBASE_MASK) | (((va >>> 12) << 2) & CONTEXT_BADVPN_MASK);
        this.entryHi = (va & ENTRYHI_VPN_MASK) | (this.entryHi & ENTRYHI_ASID_MASK);
        const code = xl === XL_TLB_MOD ? EXC_MOD : store ? EXC_TLBS : EXC_TLBL;
        // Only a refill of a kuseg address uses the UTLB vector (Kane & Heinrich 6-10).
        return this.raise(code, pc, info, xl === XL_TLB_REFILL && (va | 0) >= 0 ? VEC_UTLB : -1);
      }
      case XL_ADDR_ERR:
        return this.addrError(va, acc, pc, info);
      default:
        return this.raise(acc === ACC_FETCH ? EXC_IBE : EXC_DBE, pc, info);
    }
  }

  addrError(va: number, acc: number, pc: number, info: number): void {
    this.badVAddr = va | 0;
    return this.raise(acc === ACC_STORE ? EXC_ADES : EXC_ADEL, pc, info);
  }

  /** Coprocessor Unusable for coprocessor z. */
  copUnusable(z: number, pc: number, info: number): void {
    return this.raise(EXC_CPU, pc, info, -1, z);
  }

  /** True when an interrupt is pending, enabled by its IM bit, and Status.IEc is set. */
  interruptPending(): boolean {
    return (this.status & SR_IEC) !== 0 && (this.cause & this.status & 0xff00) !== 0;
  }

  /** Takes the pending interrupt before the instruction at pc. */
  takeInterrupt(): void {
    return this.raise(EXC_INT, this.pc, this.delay ? 1 : 0);
  }

  /** Asserts or clears hardware interrupt line 0..5 (Cause.IP2..IP7). */
  setInterruptLine(line: number, asserted: boolean): void {
    const bit = 1 << (10 + line);
    this.cause = asserted ? this.cause | bit : this.cause & ~bit;
    this.irqCheck = true;
  }

  /** Drives the FPA's interrupt line from FCSR (cause bits meeting the enables). */
  updateFpuLine(): void {
    this.setInterruptLine(FPU_INT_LINE, this.fpu.exceptionPending);
  }

  /**
   * A floating-point operation trapped (its result was not written). The R2010 signals the CPU
   * on its interrupt line; with the interrupt enabled the CPU takes it precisely, EPC at the FP
   * instruction. Masked, execution continues (the instruction retires without a result).
   */
  fpTrap(pc: number, info: number): void {
    this.updateFpuLine();
    if (this.interruptPending()) this.raise(EXC_INT, pc, info);
  }

  // ---------------------------------------------------------------- memory (slow path)

  /** Instruction fetch; after an exception (trapped) the value is meaningless. */
  fetch(pc: number, info: number): number {
    if ((pc & 3) !== 0) {
      this.addrError(pc, ACC_FETCH, pc, info);
      return 0;
    }
    const pa = this.translate(pc, ACC_FETCH);
    if (pa < 0) {
      this.memFault(pa, pc, ACC_FETCH, pc, info);
      return 0;
    }
    return this.mem.u32[pa >>> 2]!;
  }

  /** Physical address of a data access, or -1 after taking its exception. */
  private pa(va: number, acc: number, pc: number, info: number): number {
    const pa = this.translate(va, acc);
    if (pa < 0) {
      this.memFault(pa, va, acc, pc, info);
      return -1;
    }
    if (acc === ACC_STORE && this.mem.codePage[pa >>> 12] !== 0) this.codeWritten(pa >>> 12);
    return pa;
  }

  // Data accesses. Each either completes, or takes its exception and returns 0 (trapped set).
  lw(va: number, pc: number, info: number): number {
    if ((va & 3) !== 0) {
      this.addrError(va, ACC_LOAD, pc, info);
      return 0;
    }
    const pa = this.pa(va, ACC_LOAD, pc, info);
    return pa < 0 ? 0 : this.mem.u32[pa >>> 2]!;
  }
  lh(va: number, pc: number, info: number): number {
    if ((va & 1) !== 0) {
      this.addrError(va, ACC_LOAD, pc, info);
      return 0;
    }
    const pa = this.pa(va, ACC_LOAD, pc, info);
    return pa < 0 ? 0 : (this.mem.u16[(pa ^ this.mem.hx) >>> 1]! << 16) >> 16;
  }
  lhu(va: number, pc: number, info: number): number {
    if ((va & 1) !== 0) {
      this.addrError(va, ACC_LOAD, pc, info);
      return 0;
    }
    const pa = this.pa(va, ACC_LOAD, pc, info);
    return pa < 0 ? 0 : this.mem.u16[(pa ^ this.mem.hx) >>> 1]!;
  }
  lb(va: number, pc: number, info: number): number {
    const pa = this.pa(va, ACC_LOAD, pc, info);
    return pa < 0 ? 0 : (this.mem.u8[pa ^ this.mem.bx]! << 24) >> 24;
  }
  lbu(va: number, pc: number, info: number): number {
    const pa = this.pa(va, ACC_LOAD, pc, info);
    return pa < 0 ? 0 : this.mem.u8[pa ^ this.mem.bx]!;
  }
  /**
   * lwl: merges the bytes from va to the end of its aligned word into the high-order end of rt
   * (Kane & Heinrich A-45). In little-endian mode byte addresses run the other way, so the shift
   * counts use 3 - (va & 3).
   */
  lwl(va: number, rt: number, pc: number, info: number): number {
    const pa = this.pa(va, ACC_LOAD, pc, info);
    if (pa < 0) return 0;
    const w = this.mem.u32[pa >>> 2]!;
    const sh = 8 * (this.bigEndian ? va & 3 : 3 - (va & 3));
    return (w << sh) | (rt & ((1 << sh) - 1));
  }
  /** lwr: the bytes from the start of the aligned word up to va, into the low-order end of rt. */
  lwr(va: number, rt: number, pc: number, info: number): number {
    const pa = this.pa(va, ACC_LOAD, pc, info);
    if (pa < 0) return 0;
    const w = this.mem.u32[pa >>> 2]!;
    const sh = 8 * (this.bigEndian ? 3 - (va & 3) : va & 3);
    return (w >>> sh) | (rt & ~(0xffffffff >>> sh));
  }
  sw(va: number, v: number, pc: number, info: number): void {
    if ((va & 3) !== 0) {
      this.addrError(va, ACC_STORE, pc, info);
      return;
    }
    const pa = this.pa(va, ACC_STORE, pc, info);
    if (pa >= 0) this.mem.u32[pa >>> 2] = v;
  }
  sh(va: number, v: number, pc: number, info: number): void {
    if ((va & 1) !== 0) {
      this.addrError(va, ACC_STORE, pc, info);
      return;
    }
    const pa = this.pa(va, ACC_STORE, pc, info);
    if (pa >= 0) this.mem.u16[(pa ^ this.mem.hx) >>> 1] = v;
  }
  sb(va: number, v: number, pc: number, info: number): void {
    const pa = this.pa(va, ACC_STORE, pc, info);
    if (pa >= 0) this.mem.u8[pa ^ this.mem.bx] = v;
  }
  /** swl: the high-order bytes of rt into va .. end of its aligned word. */
  swl(va: number, v: number, pc: number, info: number): void {
    const pa = this.pa(va, ACC_STORE, pc, info);
    if (pa < 0) return;
    const i = pa >>> 2;
    const sh = 8 * (this.bigEndian ? va & 3 : 3 - (va & 3));
    const u = this.mem.u32;
    u[i] = (u[i]! & ~(0xffffffff >>> sh)) | (v >>> sh);
  }
  /** swr: the low-order bytes of rt into the start of the aligned word .. va. */
  swr(va: number, v: number, pc: number, info: number): void {
    const pa = this.pa(va, ACC_STORE, pc, info);
    if (pa < 0) return;
    const i = pa >>> 2;
    const sh = 8 * (this.bigEndian ? 3 - (va & 3) : va & 3);
    const u = this.mem.u32;
    u[i] = (v << sh) | (u[i]! & ((1 << sh) - 1));
  }

  // ---------------------------------------------------------------- CP0

  /**
   * Random: counts down from 63 to 8, wrapping, once per retired instruction and once per
   * exception taken (the hardware counts cycles; this keeps it deterministic and makes two refills
   * in a row pick different entries).
   */
  get random(): number {
    return this.randomAt(0);
  }

  /** Random as seen by the instruction k places into a translated block (icount lags by k there). */
  randomAt(k: number): number {
    return TLB_ENTRIES - 1 - ((this.icount + k + this.excCount) % (TLB_ENTRIES - TLB_WIRED));
  }

  /** mfc0 semantics; also the kernel's read access. k: see randomAt. */
  readCp0(n: number, k = 0): number {
    switch (n) {
      case C0_INDEX: return this.index;
      case C0_RANDOM: return this.randomAt(k) << 8;
      case C0_ENTRYLO: return this.entryLo;
      case C0_CONTEXT: return this.context;
      case C0_BADVADDR: return this.badVAddr;
      case C0_ENTRYHI: return this.entryHi;
      case C0_STATUS: return this.status;
      case C0_CAUSE: return this.cause;
      case C0_EPC: return this.epc | 0;
      case C0_PRID: return PRID_R2000A;
      default: return 0;
    }
  }

  /**
   * mtc0 semantics; also the kernel's write access. Random, BadVAddr, EPC and PRId are read-only
   * (Kane & Heinrich 6-3); Cause takes only the software interrupt bits; Context only PTEBase.
   */
  writeCp0(n: number, v: number): void {
    switch (n) {
      case C0_INDEX: this.index = (this.index & ~INDEX_MASK) | (v & INDEX_MASK); break;
      case C0_ENTRYLO: this.entryLo = v & ENTRYLO_MASK; break;
      case C0_CONTEXT: this.context = (v & CONTEXT_PTEBASE_MASK) | (this.context & CONTEXT_BADVPN_MASK); break;
      case C0_ENTRYHI: this.setEntryHi(v); break;
      case C0_STATUS: this.setStatus(v); break;
      case C0_CAUSE:
        this.cause = (this.cause & ~CAUSE_SW_MASK) | (v & CAUSE_SW_MASK);
        this.irqCheck = true;
        break;
      default: break;
    }
  }

  /** Writes Status (writable bits; TS is kept) and switches the page map to the new mode. */
  setStatus(v: number): void {
    this.setStatusRaw((v & SR_WRITABLE) | (this.status & SR_TS));
    this.irqCheck = true;
  }

  /** rfe: pops the KU/IE stack (the "old" pair stays). */
  rfe(): void {
    const s = this.status;
    this.setStatusRaw((s & ~0xf) | ((s >>> 2) & 0xf));
    this.irqCheck = true;
  }

  /** tlbwr; k: see randomAt. */
  tlbWriteRandom(k = 0): void {
    this.tlbWriteRandomAt(this.randomAt(k));
  }

  /** The architectural return path (`jr k0` with `rfe` in its delay slot): rfe, then continue at pc. */
  returnFromException(pc: number): void {
    this.rfe();
    this.setPC(pc);
  }

  /** Kernel convenience: write TLB entry i directly (sets EntryHi/EntryLo/Index as tlbwi needs). */
  tlbSet(i: number, entryHi: number, entryLo: number): void {
    this.index = (i << 8) & INDEX_MASK;
    this.setEntryHi(entryHi);
    this.entryLo = entryLo & ENTRYLO_MASK;
    this.tlbWriteIndexed();
  }
}

/** Placeholder until an engine is chosen: refuses to run. */
const NULL_ENGINE: MipsEngine = {
  name: 'ref',
  run(): number {
    throw new Error('MipsCpu: no execution engine selected (pass engine: or call setEngine)');
  },
  invalidatePage(): void {},
  sinkChanged(): void {},
};

export { ACC_FETCH, ACC_LOAD, ACC_STORE, EXC_INT };
