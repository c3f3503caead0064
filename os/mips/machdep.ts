/**
 * The MIPS R2000 machine-dependent layer (4.4BSD arch/pmax: locore's exception glue, trap.c,
 * machdep.c's setregs/sendsig/sigreturn, vm_machdep.c's cpu_fork) on top of cpu/mips.
 *
 * Trap frame: the kernel is TypeScript, so the CPU itself holds the user state while the kernel
 * works. After an exception this layer performs the exception return at once (rfe) and leaves the
 * CPU "about to execute" the excepting instruction: PC = EPC, or — when it was in a branch delay
 * slot (Cause.BD) — PC = the delay slot with nPC = the branch's destination, so that resuming does
 * not execute the branch twice. A system call is completed by skipping the syscall instruction
 * (syscallReturn); a restarted one executes it again. The UTLB refill is finished here without
 * reaching the machine-independent trap().
 */
import { MipsCpu, STOP_BUDGET } from '../../cpu/mips/cpu.js';
import {
  CAUSE_BD, EXC_ADEL, EXC_ADES, EXC_BP, EXC_CPU, EXC_DBE, EXC_IBE, EXC_INT, EXC_MOD, EXC_OV, EXC_RI, EXC_SYS,
  EXC_TLBL, EXC_TLBS, SR_CU1, SR_IEC, SR_KUC,
} from '../../cpu/mips/cp0.js';
import { createEngine, type EngineName } from '../../cpu/mips/index.js';
import { FCSR_CAUSE_MASK } from '../../cpu/mips/fpu.js';
import type { PhysMem } from '../../cpu/physmem.js';
import { COST } from '../cost.js';
import { EFAULT, EINVAL, EJUSTRETURN, ERESTART } from '../errno.js';
import type { Kernel } from '../kernel.js';
import {
  type ExecStackInfo, type MachDep, type Pmap, T_INTR, T_PAGEFLT, T_SIGNAL, T_SYSCALL, type TrapInfo, type TrapKind,
  type TruthSink, VM_PROT_READ, VM_PROT_WRITE,
} from '../machdep.js';
import { MIPS_LAYOUT } from '../param.js';
import type { Proc } from '../proc.js';
import { SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP } from '../signal.js';
import { copyin, copyout, fuword } from '../vm/copyio.js';
import { MipsPmap, MipsPmapModule } from './pmap.js';

/** Status in user mode: CP1 usable, the FPA's interrupt line (IP7) enabled, interrupts on. */
const SR_USER = SR_CU1 | 0x8000 | SR_KUC | SR_IEC;
/** break codes gcc and the libc use (4.4BSD mips/include/trap.h). */
const BREAK_OVERFLOW = 6;
const BREAK_DIVZERO = 7;
export const SIGCONTEXT_SIZE = 288;

/** The user state of a process that is not on the CPU. */
class MipsPcb {
  readonly r = new Int32Array(34);
  pc = 0;
  npc = 4;
  delay = false;
  readonly fgr = new Int32Array(32);
  fcsr = 0;
  /** Cause and BadVAddr of the last CPU fault turned into a signal (sigcontext sc_cause/sc_badvaddr). */
  faultCause = 0;
  faultBadVaddr = 0;
}

export class MipsMachDep implements MachDep {
  readonly arch = 'mips' as const;
  readonly layout = MIPS_LAYOUT;
  readonly stackBias = 0;
  readonly cpu: MipsCpu;
  private readonly pmaps: MipsPmapModule;
  private k!: Kernel;
  /** Fault details of the exception being handled (for sigcontext). */
  private lastCause = 0;
  private lastBadVaddr = 0;

  constructor(readonly mem: PhysMem, engine: EngineName = 'fast') {
    this.cpu = new MipsCpu({ mem });
    this.cpu.setEngine(createEngine(engine, this.cpu));
    this.pmaps = new MipsPmapModule(this.cpu);
    this.cpu.setStatus(SR_USER);
  }

  attach(k: Kernel): void {
    this.k = k;
  }

  pcbNew(): object {
    return new MipsPcb();
  }

  private pcb(p: Proc): MipsPcb {
    return p.p_md as MipsPcb;
  }

  // ---- user state ----

  cpu_save(p: Proc): boolean {
    const b = this.pcb(p);
    const cpu = this.cpu;
    b.r.set(cpu.r);
    b.pc = cpu.pc;
    b.npc = cpu.npc;
    b.delay = cpu.delay;
    b.fgr.set(cpu.fpu.fgr);
    b.fcsr = cpu.fpu.fcsr;
    return true;
  }

  cpu_restore(p: Proc): void {
    const b = this.pcb(p);
    const cpu = this.cpu;
    cpu.r.set(b.r);
    cpu.pc = b.pc >>> 0;
    cpu.npc = b.npc >>> 0;
    cpu.delay = b.delay;
    cpu.fpu.fgr.set(b.fgr);
    cpu.fpu.setFcsr(b.fcsr);
    cpu.updateFpuLine();
    if (p.p_vmspace) this.pmaps.activate(p.p_vmspace.pmap as MipsPmap);
  }

  cpu_exit(_p: Proc): void {}

  cpu_fork(_parent: Proc, child: Proc, rv0: number, rv1: number): boolean {
    const b = this.pcb(child);
    const cpu = this.cpu;
    b.r.set(cpu.r);
    b.fgr.set(cpu.fpu.fgr);
    b.fcsr = cpu.fpu.fcsr;
    // The child returns from the fork trap: past the syscall instruction, success.
    const next = cpu.delay ? cpu.npc : (cpu.pc + 4) >>> 0;
    b.pc = next;
    b.npc = (next + 4) >>> 0;
    b.delay = false;
    b.r[2] = rv0;
    b.r[3] = rv1;
    b.r[7] = 0;
    return true;
  }

  setregs(_p: Proc, entry: number, stack: ExecStackInfo): void {
    const cpu = this.cpu;
    cpu.r.fill(0);
    cpu.r[29] = stack.sp;
    cpu.setPC(entry);
    cpu.fpu.fgr.fill(0);
    cpu.fpu.setFcsr(0);
    cpu.updateFpuLine();
  }

  getpc(_p: Proc): number {
    return this.cpu.pc >>> 0;
  }

  setpc(_p: Proc, pc: number): void {
    this.cpu.setPC(pc);
  }

  getnpc(_p: Proc): number {
    return this.cpu.npc >>> 0;
  }

  getreg(_p: Proc, n: number): number {
    return this.cpu.r[n]!;
  }

  setreg(_p: Proc, n: number, v: number): void {
    if (n !== 0) this.cpu.r[n] = v;
  }

  // ---- running and traps ----

  /**
   * The exception return, done at once: rfe, and the CPU about to execute the excepting
   * instruction (the delay slot itself when Cause.BD, with nPC = the branch's destination).
   */
  private exceptionReturn(): void {
    const cpu = this.cpu;
    cpu.rfe();
    if (cpu.cause & CAUSE_BD) {
      cpu.pc = (cpu.epc + 4) >>> 0;
      cpu.npc = cpu.excNextPC >>> 0;
      cpu.delay = true;
    } else {
      cpu.setPC(cpu.epc);
    }
  }

  run(_p: Proc, budget: number, ti: TrapInfo): TrapKind {
    const cpu = this.cpu;
    let cycles = 0;
    let insns = 0;
    for (;;) {
      const before = cpu.icount;
      const stop = cpu.run(budget - cycles);
      const n = cpu.icount - before;
      insns += n;
      cycles += n;
      if (stop === STOP_BUDGET) {
        ti.cycles = cycles;
        ti.insns = insns;
        return T_INTR;
      }
      const code = cpu.excCode;
      const cause = cpu.cause;
      const bad = cpu.badVAddr >>> 0;
      this.exceptionReturn();
      if (code === EXC_TLBL || code === EXC_TLBS) {
        ti.tlbMisses++;
        cycles += COST.tlbRefill;
        if (this.pmaps.refill(bad)) {
          if (cycles < budget) continue;
          ti.cycles = cycles;
          ti.insns = insns;
          return T_INTR;
        }
      }
      ti.cycles = cycles;
      ti.insns = insns;
      this.lastCause = cause;
      this.lastBadVaddr = 0;
      switch (code) {
        case EXC_SYS:
          return T_SYSCALL;
        case EXC_TLBL:
        case EXC_TLBS:
        case EXC_MOD:
          ti.va = bad;
          ti.ftype = code === EXC_TLBL ? VM_PROT_READ : VM_PROT_WRITE;
          ti.code = code;
          this.lastBadVaddr = bad;
          return T_PAGEFLT;
        case EXC_ADEL:
        case EXC_ADES:
          // A kernel-segment address from user mode is a bad address; a misaligned one a bus error.
          this.lastBadVaddr = bad;
          return this.signal(ti, bad >= 0x80000000 ? SIGSEGV : SIGBUS, code, bad);
        case EXC_IBE:
        case EXC_DBE:
          return this.signal(ti, SIGBUS, code, bad);
        case EXC_BP: {
          const w = this.breakCode();
          const sig = w === BREAK_DIVZERO || w === BREAK_OVERFLOW ? SIGFPE : SIGTRAP;
          return this.signal(ti, sig, code, 0);
        }
        case EXC_OV:
          return this.signal(ti, SIGFPE, code, 0);
        case EXC_RI:
        case EXC_CPU:
          return this.signal(ti, SIGILL, code, 0);
        case EXC_INT: {
          // The R2010 raised its interrupt: an enabled IEEE exception. The cause bits go to the
          // sigcontext; clearing them drops the interrupt line.
          const fpu = cpu.fpu;
          const sig = this.signal(ti, SIGFPE, code, 0);
          this.pendingFcsr = fpu.fcsr;
          fpu.setFcsr(fpu.fcsr & ~FCSR_CAUSE_MASK);
          cpu.updateFpuLine();
          return sig;
        }
        default:
          return this.signal(ti, SIGILL, code, 0);
      }
    }
  }

  /** FCSR at an FP exception, before its cause bits were cleared (saved in the next sigcontext). */
  private pendingFcsr = -1;

  private signal(ti: TrapInfo, sig: number, code: number, va: number): TrapKind {
    ti.sig = sig;
    ti.code = code;
    ti.va = va;
    return T_SIGNAL;
  }

  /** The code field of the break instruction at EPC (bits 16..25, as 4.4BSD reads it). */
  private breakCode(): number {
    const vs = this.k.curproc?.p_vmspace;
    if (!vs) return 0;
    const w = fuword(vs, this.cpu.epc >>> 0);
    return w === undefined ? 0 : (w >>> 16) & 0x3ff;
  }

  // ---- system calls ----

  syscallCode(_p: Proc): number {
    return this.cpu.r[2]!;
  }

  syscallArgs(p: Proc, nargs: number, out: Int32Array): number {
    const r = this.cpu.r;
    for (let i = 0; i < nargs && i < 4; i++) out[i] = r[4 + i]!;
    for (let i = 4; i < nargs; i++) {
      const w = fuword(p.p_vmspace!, (r[29]! + 16 + 4 * (i - 4)) >>> 0);
      if (w === undefined) return EFAULT;
      out[i] = w;
    }
    return 0;
  }

  syscallReturn(_p: Proc, error: number, rv0: number, rv1: number): void {
    if (error === ERESTART || error === EJUSTRETURN) return;
    const cpu = this.cpu;
    cpu.setPC(cpu.delay ? cpu.npc : (cpu.pc + 4) >>> 0);
    const r = cpu.r;
    if (error) {
      r[2] = error;
      r[7] = 1;
    } else {
      r[2] = rv0;
      r[3] = rv1;
      r[7] = 0;
    }
  }

  // ---- pmap ----

  pmap_create(): Pmap {
    return this.pmaps.create();
  }
  pmap_destroy(pm: Pmap): void {
    this.pmaps.destroy(pm as MipsPmap);
  }
  pmap_enter(pm: Pmap, va: number, pa: number, prot: number): void {
    this.pmaps.enter(pm as MipsPmap, va, pa, prot);
  }
  pmap_remove(pm: Pmap, sva: number, eva: number): void {
    this.pmaps.remove(pm as MipsPmap, sva, eva);
  }
  pmap_protect(pm: Pmap, sva: number, eva: number, prot: number): void {
    this.pmaps.protect(pm as MipsPmap, sva, eva, prot);
  }
  pmap_activate(p: Proc): void {
    this.pmaps.activate(p.p_vmspace!.pmap as MipsPmap);
  }

  // ---- signals (docs/abi.md "Signals") ----

  sendsig(p: Proc, catcher: number, sig: number, mask: number, code: number, tramp: number): boolean {
    if (tramp === 0) return false;
    const cpu = this.cpu;
    const r = cpu.r;
    const sp = r[29]! >>> 0;
    const frame = ((sp - 16 - SIGCONTEXT_SIZE) & ~7) >>> 0;
    const scp = frame + 16;
    const b = new Uint8Array(SIGCONTEXT_SIZE);
    const dv = new DataView(b.buffer);
    const le = this.k.littleEndian;
    dv.setInt32(4, mask, le);
    // Interrupted between a branch and its delay slot: resume at the branch (EPC semantics).
    dv.setInt32(8, cpu.delay ? cpu.pc - 4 : cpu.pc, le);
    for (let i = 1; i < 32; i++) dv.setInt32(12 + 4 * i, r[i]!, le);
    dv.setInt32(140, r[33]!, le);
    dv.setInt32(144, r[32]!, le);
    for (let i = 0; i < 32; i++) dv.setInt32(148 + 4 * i, cpu.fpu.fgr[i]!, le);
    dv.setInt32(276, this.pendingFcsr >= 0 && code === EXC_INT ? this.pendingFcsr : cpu.fpu.fcsr, le);
    if (code !== 0) {
      dv.setInt32(280, this.lastCause, le);
      dv.setInt32(284, this.lastBadVaddr, le);
    }
    this.pendingFcsr = -1;
    if (copyout(p.p_vmspace!, b, scp)) return false;
    r[4] = sig;
    r[5] = code;
    r[6] = scp;
    r[7] = catcher;
    r[29] = frame;
    cpu.setPC(tramp);
    return true;
  }

  sigreturn(p: Proc, scp: number): number {
    const b = copyin(p.p_vmspace!, scp, SIGCONTEXT_SIZE);
    if (typeof b === 'number') return -EFAULT;
    const dv = new DataView(b.buffer);
    const le = this.k.littleEndian;
    const pc = dv.getInt32(8, le);
    if (pc & 3) return -EINVAL;
    const cpu = this.cpu;
    const r = cpu.r;
    for (let i = 1; i < 32; i++) r[i] = dv.getInt32(12 + 4 * i, le);
    r[33] = dv.getInt32(140, le);
    r[32] = dv.getInt32(144, le);
    for (let i = 0; i < 32; i++) cpu.fpu.fgr[i] = dv.getInt32(148 + 4 * i, le);
    cpu.fpu.setFcsr(dv.getInt32(276, le));
    cpu.updateFpuLine();
    cpu.setPC(pc);
    return dv.getUint32(4, le) & 0x7fffffff;
  }

  setTruth(sink: TruthSink | null): void {
    this.cpu.setSink(sink);
  }
}
