/**
 * The SPARC v8 machine-dependent layer (4.4BSD arch/sparc: locore's trap glue and window
 * handlers, trap.c, machdep.c's setregs/sendsig/sigreturn, vm_machdep.c's cpu_fork) on top of
 * cpu/sparc.
 *
 * Views of the CPU: while a process owns the CPU outside run(), the CPU is in that process's
 * user window (ET = 1, S = 0): system-call arguments are its %o registers, results go there, PC
 * and nPC are the resume point. After a trap this layer returns from it at once
 * (returnFromTrap(%l1, %l2): the trapping instruction is about to execute again); a system call
 * is completed by skipping the `ta` (PC = nPC). Window overflow, underflow and ST_FLUSH_WINDOWS
 * are handled in the trap window, as the v8 handlers do, without reaching trap(). At a context
 * switch the outgoing process's windows are all written to its stack (kernel references, not
 * ground-truth events) and the CPU stays in a trap window until the next process is restored:
 * its globals, outs, PC/nPC, Y, icc and FPU from the PCB, its current window filled from its
 * stack, WIM = {U + 1}.
 */
import { RUN_BUDGET, RUN_ERROR, SparcCpu, type SparcRefSink } from '../../cpu/sparc/index.js';
import { FT_ACCESS_BUS } from '../../cpu/sparc/mmu.js';
import { ICC_C } from '../../cpu/sparc/state.js';
import {
  TT_DATA_ACCESS_ERROR, TT_DATA_ACCESS_EXCEPTION, TT_DIVISION_BY_ZERO, TT_FP_DISABLED, TT_FP_EXCEPTION,
  TT_ILLEGAL_INSTRUCTION, TT_INSTRUCTION_ACCESS_ERROR, TT_INSTRUCTION_ACCESS_EXCEPTION, TT_INTERRUPT_LEVEL,
  TT_MEM_ADDRESS_NOT_ALIGNED, TT_PRIVILEGED_INSTRUCTION, TT_TAG_OVERFLOW, TT_TRAP_INSTRUCTION, TT_WIN_OVF, TT_WIN_UNF,
} from '../../cpu/sparc/traps.js';
import {
  flushAllUserWindows, flushWindows, restoreUserWindow, type WindowFault, windowOverflow, windowUnderflow,
} from '../../cpu/sparc/windows.js';
import type { PhysMem } from '../../cpu/physmem.js';
import { COST } from '../cost.js';
import { EFAULT, EINVAL, EJUSTRETURN, ERESTART } from '../errno.js';
import type { Kernel } from '../kernel.js';
import {
  type ExecStackInfo, type MachDep, type Pmap, T_INTR, T_PAGEFLT, T_SIGNAL, T_SYSCALL, type TrapInfo, type TrapKind,
  type TruthSink, VM_PROT_EXECUTE, VM_PROT_READ, VM_PROT_WRITE,
} from '../machdep.js';
import { SPARC_LAYOUT } from '../param.js';
import type { Proc } from '../proc.js';
import { SIGBUS, SIGEMT, SIGFPE, SIGILL, SIGSEGV, SIGTRAP } from '../signal.js';
import { copyin, copyout, fuword } from '../vm/copyio.js';
import { KERN_SUCCESS, vm_fault } from '../vm/vm_fault.js';
import { SparcPmap, SparcPmapModule } from './pmap.js';

/** Software trap numbers (4.4BSD sparc/include/trap.h ST_*). */
const ST_SYSCALL = 0;
const ST_BREAKPOINT = 1;
const ST_DIV0 = 2;
const ST_FLUSHWIN = 3;
const ST_CLEAN_WINDOWS = 4;
const ST_INTOF = 7;
export const SIGCONTEXT_SIZE = 224;
/** Bytes of the minimum stack frame (16-word window save area, hidden argument, 6 argument words). */
export const MINFRAME = 96;

class SparcPcb {
  /** %g1..%g7 (index 0 unused). */
  readonly g = new Int32Array(8);
  /** %o0..%o7 of the user's window. */
  readonly o = new Int32Array(8);
  pc = 0;
  npc = 4;
  y = 0;
  icc = 0;
  readonly fr = new Int32Array(32);
  fsr = 0;
  /** Never ran: no window to fill from a stack. */
  fresh = true;
}

export class SparcMachDep implements MachDep {
  readonly arch = 'sparc' as const;
  readonly layout = SPARC_LAYOUT;
  readonly stackBias = 64;
  readonly cpu: SparcCpu;
  private pmaps!: SparcPmapModule;
  private k!: Kernel;
  /** True while the CPU sits in a trap window (between processes). */
  private inTrap = true;

  constructor(readonly mem: PhysMem, engine: 'interp' | 'fast' = 'fast') {
    this.cpu = new SparcCpu(mem, { engine });
  }

  attach(k: Kernel): void {
    this.k = k;
    // The frames the kernel reserved for this layer hold the page tables.
    this.pmaps = new SparcPmapModule(this.cpu, k.pages, k.pages.npages - k.pages.commitLimit);
    // Zero-filled, copied and exec-filled frames may have held translated code: drop it.
    k.pages.onAlloc = (pa) => {
      if (this.cpu.mmu.codePages[pa >>> 12]) this.cpu.translator.invalidatePage(pa >>> 12);
    };
  }

  pcbNew(): object {
    return new SparcPcb();
  }

  private pcb(p: Proc): SparcPcb {
    return p.p_md as SparcPcb;
  }

  /** Enters a trap window from the user window (what a trap does). */
  private enterTrap(): void {
    if (this.inTrap) return;
    this.cpu.trap(TT_INTERRUPT_LEVEL + 15);
    this.inTrap = true;
  }

  /** Back to the user window at (pc, npc). */
  private leaveTrap(pc: number, npc: number): void {
    if (!this.cpu.returnFromTrap(pc, npc)) throw new Error(`SPARC: return from trap to 0x${(pc >>> 0).toString(16)} failed (error mode)`);
    this.inTrap = false;
  }

  /**
   * Runs a window operation in the trap window, faulting the pages it touches in as the user's
   * own access would. False when the memory cannot be made accessible (a bad %sp).
   */
  private windowOp(p: Proc, op: () => WindowFault | undefined): boolean {
    const vs = p.p_vmspace;
    for (let tries = 0; tries < 4; tries++) {
      const f = op();
      if (!f) return true;
      if (!vs || f.tt === TT_MEM_ADDRESS_NOT_ALIGNED) return false;
      const cnt = this.k.faultCounters;
      const z = cnt.zeroFill;
      if (vm_fault(vs, f.va, f.write ? VM_PROT_WRITE : VM_PROT_READ, cnt) !== KERN_SUCCESS) return false;
      p.stats.faults++;
      this.k.charge(COST.fault + (cnt.zeroFill - z) * COST.pageZero);
    }
    return false;
  }

  // ---- user state ----

  cpu_save(p: Proc): boolean {
    const cpu = this.cpu;
    this.enterTrap();
    const ok = this.windowOp(p, () => flushAllUserWindows(cpu));
    const b = this.pcb(p);
    for (let i = 1; i < 8; i++) b.g[i] = cpu.getReg(i);
    for (let i = 0; i < 8; i++) b.o[i] = cpu.getReg(24 + i); // the trap window's ins are the user's outs
    b.pc = cpu.trapPc;
    b.npc = cpu.trapNpc;
    b.y = cpu.y;
    b.icc = cpu.icc;
    b.fr.set(cpu.fpu.fr);
    b.fsr = cpu.fpu.fsr;
    b.fresh = false;
    return ok;
  }

  cpu_restore(p: Proc): void {
    const cpu = this.cpu;
    this.enterTrap();
    const b = this.pcb(p);
    if (p.p_vmspace) this.pmaps.activate(p.p_vmspace.pmap as SparcPmap);
    for (let i = 1; i < 8; i++) cpu.setReg(i, b.g[i]!);
    for (let i = 0; i < 8; i++) cpu.setReg(24 + i, b.o[i]!);
    cpu.y = b.y;
    cpu.icc = b.icc;
    cpu.fpu.fr.set(b.fr);
    cpu.fpu.fsr = b.fsr;
    cpu.ef = 1;
    const n = cpu.nwindows;
    const u = (cpu.cwp + 1) % n;
    if (b.fresh || !p.p_vmspace || !this.windowOp(p, () => restoreUserWindow(cpu))) {
      if (!b.fresh && p.p_vmspace) {
        this.k.log.debug({ pid: p.p_pid }, 'window fill from a bad stack at context switch: killing');
        p.p_siglist |= 1 << (9 - 1); // SIGKILL
      }
      cpu.setWim(1 << ((u + 1) % n));
    }
    this.leaveTrap(b.pc, b.npc);
  }

  cpu_exit(_p: Proc): void {
    this.enterTrap();
  }

  cpu_fork(parent: Proc, child: Proc, rv0: number, rv1: number): boolean {
    const cpu = this.cpu;
    // The parent's windows go to its stack first, so the child (which shares the stack pages
    // copy-on-write from here on) finds its callers' frames there.
    this.enterTrap();
    const ok = this.windowOp(parent, () => flushAllUserWindows(cpu));
    const l1 = cpu.trapPc;
    const l2 = cpu.trapNpc;
    const b = this.pcb(child);
    for (let i = 1; i < 8; i++) b.g[i] = cpu.getReg(i);
    for (let i = 0; i < 8; i++) b.o[i] = cpu.getReg(24 + i);
    b.o[0] = rv0;
    b.o[1] = rv1;
    b.pc = l2; // past the ta
    b.npc = (l2 + 4) | 0;
    b.y = cpu.y;
    b.icc = cpu.icc & ~ICC_C;
    b.fr.set(cpu.fpu.fr);
    b.fsr = cpu.fpu.fsr;
    b.fresh = false;
    this.leaveTrap(l1, l2);
    return ok;
  }

  setregs(_p: Proc, entry: number, stack: ExecStackInfo): void {
    const cpu = this.cpu;
    const n = cpu.nwindows;
    cpu.rf.fill(0);
    cpu.setWim(1 << ((cpu.cwp + 1) % n));
    cpu.setReg(14, stack.sp);
    cpu.icc = 0;
    cpu.y = 0;
    cpu.fpu.reset();
    cpu.ef = 1;
    cpu.pc = entry | 0;
    cpu.npc = (entry + 4) | 0;
  }

  getpc(_p: Proc): number {
    return this.cpu.pc >>> 0;
  }

  setpc(_p: Proc, pc: number): void {
    this.cpu.pc = pc | 0;
    this.cpu.npc = (pc + 4) | 0;
  }

  getnpc(_p: Proc): number {
    return this.cpu.npc >>> 0;
  }

  getreg(_p: Proc, n: number): number {
    return this.cpu.getReg(n);
  }

  setreg(_p: Proc, n: number, v: number): void {
    this.cpu.setReg(n, v);
  }

  // ---- running and traps ----

  run(p: Proc, budget: number, ti: TrapInfo): TrapKind {
    const cpu = this.cpu;
    let cycles = 0;
    let insns = 0;
    const misses0 = cpu.mmu.tlbMisses;
    const done = (kind: TrapKind): TrapKind => {
      ti.cycles = cycles;
      ti.insns = insns;
      ti.tlbMisses += cpu.mmu.tlbMisses - misses0;
      return kind;
    };
    for (;;) {
      const stop = cpu.run(budget - cycles);
      const n = cpu.lastRetired;
      insns += n;
      cycles += n;
      if (stop === RUN_BUDGET) return done(T_INTR);
      if (stop === RUN_ERROR) throw new Error(`SPARC CPU in error mode at pc 0x${(cpu.pc >>> 0).toString(16)} (tt 0x${cpu.tt.toString(16)}): kernel bug`);
      this.inTrap = true;
      const tt = cpu.tt;
      const l1 = cpu.trapPc;
      const l2 = cpu.trapNpc;
      if (tt === TT_WIN_OVF || tt === TT_WIN_UNF) {
        const ovf = tt === TT_WIN_OVF;
        const ok = this.windowOp(p, () => (ovf ? windowOverflow(cpu) : windowUnderflow(cpu)));
        this.leaveTrap(l1, l2);
        if (!ok) return done(this.signal(ti, SIGSEGV, tt, 0));
        if (ovf) ti.spills++;
        else ti.fills++;
        cycles += COST.windowTrap;
        if (cycles >= budget) return done(T_INTR);
        continue;
      }
      if (tt === TT_TRAP_INSTRUCTION + ST_FLUSHWIN || tt === TT_TRAP_INSTRUCTION + ST_CLEAN_WINDOWS) {
        const ok = tt === TT_TRAP_INSTRUCTION + ST_CLEAN_WINDOWS || this.windowOp(p, () => flushWindows(cpu));
        this.leaveTrap(l2, (l2 + 4) | 0);
        if (!ok) return done(this.signal(ti, SIGSEGV, tt, 0));
        cycles += COST.windowTrap;
        if (cycles >= budget) return done(T_INTR);
        continue;
      }
      if (tt === TT_FP_DISABLED) {
        // User processes run with the FPU enabled; a disabled FPU is switched on and the
        // instruction retried.
        this.leaveTrap(l1, l2);
        cpu.ef = 1;
        continue;
      }
      const mmu = cpu.mmu;
      const sfsr = mmu.sfsr;
      const sfar = mmu.sfar >>> 0;
      this.leaveTrap(l1, l2);
      done(T_INTR); // the counts; the kind is decided below
      switch (tt) {
        case TT_TRAP_INSTRUCTION + ST_SYSCALL:
          return T_SYSCALL;
        case TT_DATA_ACCESS_EXCEPTION:
        case TT_INSTRUCTION_ACCESS_EXCEPTION: {
          const ft = (sfsr >>> 2) & 7;
          const ifetch = tt === TT_INSTRUCTION_ACCESS_EXCEPTION;
          const va = ifetch ? l1 >>> 0 : sfar;
          if (ft === FT_ACCESS_BUS) return this.signal(ti, SIGBUS, tt, va);
          const at = (sfsr >>> 5) & 7;
          ti.va = va;
          ti.ftype = ifetch ? VM_PROT_EXECUTE : at >= 4 ? VM_PROT_WRITE : VM_PROT_READ;
          ti.code = tt;
          return T_PAGEFLT;
        }
        case TT_MEM_ADDRESS_NOT_ALIGNED:
          return this.signal(ti, SIGBUS, tt, sfar);
        case TT_DATA_ACCESS_ERROR:
        case TT_INSTRUCTION_ACCESS_ERROR:
          return this.signal(ti, SIGBUS, tt, sfar);
        case TT_DIVISION_BY_ZERO:
        case TT_TRAP_INSTRUCTION + ST_DIV0:
        case TT_TRAP_INSTRUCTION + ST_INTOF:
          return this.signal(ti, SIGFPE, tt, 0);
        case TT_FP_EXCEPTION:
          // The trapped FPop stays in the queue until the kernel takes it (4.4BSD fpu_cleanup).
          this.fpTrapFsr = cpu.fpu.fsr;
          cpu.fpu.takeQueue();
          return this.signal(ti, SIGFPE, tt, 0);
        case TT_TAG_OVERFLOW:
          return this.signal(ti, SIGEMT, tt, 0);
        case TT_TRAP_INSTRUCTION + ST_BREAKPOINT:
          return this.signal(ti, SIGTRAP, tt, 0);
        case TT_ILLEGAL_INSTRUCTION:
        case TT_PRIVILEGED_INSTRUCTION:
        default:
          return this.signal(ti, SIGILL, tt, 0);
      }
    }
  }

  /** FSR when an FP exception trapped (saved in the next sigcontext). */
  private fpTrapFsr = -1;

  private signal(ti: TrapInfo, sig: number, code: number, va: number): TrapKind {
    ti.sig = sig;
    ti.code = code;
    ti.va = va;
    return T_SIGNAL;
  }

  // ---- system calls ----

  syscallCode(_p: Proc): number {
    return this.cpu.getReg(1);
  }

  syscallArgs(p: Proc, nargs: number, out: Int32Array): number {
    const cpu = this.cpu;
    for (let i = 0; i < nargs && i < 6; i++) out[i] = cpu.getReg(8 + i);
    for (let i = 6; i < nargs; i++) {
      const w = fuword(p.p_vmspace!, (cpu.getReg(14) + 92 + 4 * (i - 6)) >>> 0);
      if (w === undefined) return EFAULT;
      out[i] = w;
    }
    return 0;
  }

  syscallReturn(_p: Proc, error: number, rv0: number, rv1: number): void {
    if (error === ERESTART || error === EJUSTRETURN) return;
    const cpu = this.cpu;
    const npc = cpu.npc;
    cpu.pc = npc;
    cpu.npc = (npc + 4) | 0;
    if (error) {
      cpu.setReg(8, error);
      cpu.icc = cpu.icc | ICC_C;
    } else {
      cpu.setReg(8, rv0);
      cpu.setReg(9, rv1);
      cpu.icc = cpu.icc & ~ICC_C;
    }
  }

  // ---- pmap ----

  pmap_create(): Pmap {
    return this.pmaps.create();
  }
  pmap_destroy(pm: Pmap): void {
    this.pmaps.destroy(pm as SparcPmap);
  }
  pmap_enter(pm: Pmap, va: number, pa: number, prot: number): void {
    this.pmaps.enter(pm as SparcPmap, va, pa, prot);
  }
  pmap_remove(pm: Pmap, sva: number, eva: number): void {
    this.pmaps.remove(pm as SparcPmap, sva, eva);
  }
  pmap_protect(pm: Pmap, sva: number, eva: number, prot: number): void {
    this.pmaps.protect(pm as SparcPmap, sva, eva, prot);
  }
  pmap_activate(p: Proc): void {
    this.pmaps.activate(p.p_vmspace!.pmap as SparcPmap);
  }

  // ---- signals (docs/abi.md "Signals") ----

  sendsig(p: Proc, catcher: number, sig: number, mask: number, code: number, tramp: number): boolean {
    if (tramp === 0) return false;
    const cpu = this.cpu;
    this.enterTrap();
    const ok = this.windowOp(p, () => flushAllUserWindows(cpu));
    this.leaveTrap(cpu.trapPc, cpu.trapNpc);
    if (!ok) return false;
    const sp = cpu.getReg(14) >>> 0;
    const frame = ((sp - MINFRAME - SIGCONTEXT_SIZE) & ~7) >>> 0;
    const scp = frame + MINFRAME;
    const b = new Uint8Array(SIGCONTEXT_SIZE);
    const dv = new DataView(b.buffer);
    dv.setInt32(4, mask);
    dv.setInt32(8, cpu.pc);
    dv.setInt32(12, cpu.npc);
    dv.setInt32(16, cpu.psr);
    dv.setInt32(20, cpu.y);
    for (let i = 1; i < 8; i++) dv.setInt32(24 + 4 * i, cpu.getReg(i));
    for (let i = 0; i < 8; i++) dv.setInt32(56 + 4 * i, cpu.getReg(8 + i));
    dv.setInt32(88, code === TT_FP_EXCEPTION && this.fpTrapFsr >= 0 ? this.fpTrapFsr : cpu.fpu.fsr);
    dv.setInt32(92, code);
    // sc_f[n] is %fn (docs/abi.md); the FPU's storage keeps pairs swapped (fpu.ts), so go by getS.
    for (let i = 0; i < 32; i++) dv.setInt32(96 + 4 * i, cpu.fpu.getS(i));
    this.fpTrapFsr = -1;
    if (copyout(p.p_vmspace!, b, scp)) return false;
    cpu.setReg(8, sig);
    cpu.setReg(9, code);
    cpu.setReg(10, scp);
    cpu.setReg(11, catcher);
    cpu.setReg(14, frame);
    cpu.pc = tramp | 0;
    cpu.npc = (tramp + 4) | 0;
    return true;
  }

  sigreturn(p: Proc, scp: number): number {
    const b = copyin(p.p_vmspace!, scp, SIGCONTEXT_SIZE);
    if (typeof b === 'number') return -EFAULT;
    const dv = new DataView(b.buffer);
    const pc = dv.getInt32(8);
    const npc = dv.getInt32(12);
    if ((pc | npc) & 3) return -EINVAL;
    const cpu = this.cpu;
    cpu.icc = (dv.getUint32(16) >>> 20) & 15;
    cpu.y = dv.getInt32(20);
    for (let i = 1; i < 8; i++) cpu.setReg(i, dv.getInt32(24 + 4 * i));
    for (let i = 0; i < 8; i++) cpu.setReg(8 + i, dv.getInt32(56 + 4 * i));
    cpu.fpu.fsr = dv.getUint32(88);
    for (let i = 0; i < 32; i++) cpu.fpu.setS(i, dv.getInt32(96 + 4 * i));
    cpu.pc = pc;
    cpu.npc = npc;
    return dv.getUint32(4) & 0x7fffffff;
  }

  setTruth(sink: TruthSink | null): void {
    if (!sink) {
      this.cpu.sink = undefined;
      return;
    }
    // Window spills and fills are kernel references, not user events (docs/kernel.md section 10).
    const s: SparcRefSink = {
      ifetch: (va) => sink.ifetch(va),
      load: (va, size) => sink.load(va, size),
      store: (va, size) => sink.store(va, size),
      kload: () => {},
      kstore: () => {},
    };
    this.cpu.sink = s;
  }
}
