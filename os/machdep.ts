/**
 * The machine-dependent interface: what the machine-independent kernel needs from each
 * architecture (docs/kernel.md section 3). os/mips/ and os/sparc/ implement it on top of the CPU
 * emulators; test/os/ has a scripted implementation for unit tests of the MI kernel.
 *
 * Contract: the CPU always holds curproc's user registers. Every method that touches registers
 * (syscall arguments and results, setregs, sendsig, sigreturn, getpc/setpc) acts on curproc
 * through the CPU; cpu_save/cpu_restore move user state between the CPU and a process's PCB at
 * context switch, and cpu_fork builds a child's PCB from the parent's (current) state.
 */
import type { PhysMem } from '../cpu/physmem.js';
import type { AddressLayout } from './param.js';
import type { Proc } from './proc.js';
import type { Kernel } from './kernel.js';

/** Trap kinds that reach the machine-independent trap() (os/trap.ts). */
export const T_INTR = 0; // the cycle budget ran out: an interrupt point between two instructions
export const T_SYSCALL = 1; // a system-call trap (MIPS syscall, SPARC ta 0)
export const T_PAGEFLT = 2; // a translation or protection fault on a user address: ti.va, ti.ftype
export const T_SIGNAL = 3; // an exception that becomes a signal: ti.sig, ti.code, ti.va
export type TrapKind = typeof T_INTR | typeof T_SYSCALL | typeof T_PAGEFLT | typeof T_SIGNAL;

export const TRAP_NAMES = ['intr', 'syscall', 'pagefault', 'signal'] as const;

/** Access types of a fault, and protections (4.4BSD vm_prot_t). */
export const VM_PROT_NONE = 0;
export const VM_PROT_READ = 1;
export const VM_PROT_WRITE = 2;
export const VM_PROT_EXECUTE = 4;
export const VM_PROT_ALL = 7;

/** What the MD layer reports about the trap that ended a run (one reused object, no allocation). */
export class TrapInfo {
  /** Cycles the last run used: retired instructions plus the modelled cost of MD-internal traps. */
  cycles = 0;
  /** User instructions retired by the last run. */
  insns = 0;
  /** T_PAGEFLT / T_SIGNAL: faulting virtual address. */
  va = 0;
  /** T_PAGEFLT: VM_PROT_READ, VM_PROT_WRITE or VM_PROT_EXECUTE. */
  ftype = 0;
  /** T_SIGNAL: signal number and machine-dependent code. */
  sig = 0;
  code = 0;
  /** MD-internal events of the last run, for the statistics. */
  tlbMisses = 0;
  spills = 0;
  fills = 0;
}

/** A pmap: one address space's machine translation structures (opaque to the MI kernel). */
export interface Pmap {
  readonly id: number;
}

/** Ground-truth sink: user-mode memory references as the CPU executes them (format/truth.ts). */
export interface TruthSink {
  ifetch(pc: number): void;
  load(addr: number, size: number): void;
  store(addr: number, size: number): void;
}

/** The frame exec builds on the new stack, as crt0 expects it (docs/abi.md "Process start"). */
export interface ExecStackInfo {
  /** Stack pointer at entry. */
  sp: number;
  argc: number;
  argv: number;
  envp: number;
}

export interface MachDep {
  readonly arch: 'mips' | 'sparc';
  readonly mem: PhysMem;
  readonly layout: AddressLayout;
  /**
   * Bytes exec leaves below argc on the new stack: SPARC's 16-word register-window save area
   * (crt0 reads argc at %sp+64); 0 on MIPS (argc at 0(sp)).
   */
  readonly stackBias: number;
  /** Called once at boot. */
  attach(k: Kernel): void;

  /** A fresh PCB for a new process. */
  pcbNew(): object;
  /**
   * fork: the child's PCB = curproc's user state, returning (rv0, rv1) with success. Called
   * before the address space is copied (SPARC first writes the parent's windows to its stack).
   * False when the parent's state cannot be captured (a bad SPARC %sp): fork fails with EFAULT.
   */
  cpu_fork(parent: Proc, child: Proc, rv0: number, rv1: number): boolean;
  /** exec: initial user registers of curproc (every register cleared, PC = entry, SP). */
  setregs(p: Proc, entry: number, stack: ExecStackInfo): void;
  /**
   * Context switch out of p (curproc): user state into p's PCB. SPARC flushes the user's
   * windows to its stack first; returns false when that was impossible (bad %sp): the caller
   * kills the process.
   */
  cpu_save(p: Proc): boolean;
  /** Context switch into p: user state from p's PCB into the CPU, p's address space active. */
  cpu_restore(p: Proc): void;
  /** Forget any CPU state of a process that exits (ASID, context, cached windows). */
  cpu_exit(p: Proc): void;

  /** Runs curproc in user mode for at most `budget` cycles; fills ti and returns the trap kind. */
  run(p: Proc, budget: number, ti: TrapInfo): TrapKind;
  /** User PC of curproc (the instruction user mode resumes at), and its change (rollback). */
  getpc(p: Proc): number;
  setpc(p: Proc, pc: number): void;
  /**
   * The address executed after the one at getpc: PC + 4, or a branch's destination when getpc is
   * a delay slot (MIPS: an interrupt point between a branch and its delay slot; SPARC: nPC).
   */
  getnpc(p: Proc): number;
  /**
   * curproc's user register n as the architecture numbers it (MIPS: $0-$31; SPARC: r0-r31 of
   * the current window: %g0-%g7, %o0-%o7, %l0-%l7, %i0-%i7), for the tracing work (k0, %g6).
   */
  getreg(p: Proc, n: number): number;
  setreg(p: Proc, n: number, v: number): void;

  /** Syscall number of the trap being handled. */
  syscallCode(p: Proc): number;
  /** Fetches nargs argument words into out; returns 0 or EFAULT. */
  syscallArgs(p: Proc, nargs: number, out: Int32Array): number;
  /**
   * Completes the system call: error 0 → rv0/rv1 returned with success; ERESTART → the trap
   * instruction re-executes; EJUSTRETURN → registers untouched; otherwise → error returned.
   */
  syscallReturn(p: Proc, error: number, rv0: number, rv1: number): void;

  pmap_create(): Pmap;
  pmap_destroy(pm: Pmap): void;
  /** Maps page va → frame pa with prot (VM_PROT_*), replacing any previous mapping. */
  pmap_enter(pm: Pmap, va: number, pa: number, prot: number): void;
  pmap_remove(pm: Pmap, sva: number, eva: number): void;
  /** Makes curproc's (new) address space the one the CPU translates with (after exec). */
  pmap_activate(p: Proc): void;
  /** Lowers the protection of [sva, eva) to prot (removing write for copy-on-write). */
  pmap_protect(pm: Pmap, sva: number, eva: number, prot: number): void;

  /**
   * Builds the signal frame on curproc's user stack (docs/abi.md "Signals") and redirects it to
   * the trampoline `tramp`, which calls `catcher`. Returns false when the frame cannot be
   * written (the caller kills the process with SIGILL as 4.4BSD does).
   */
  sendsig(p: Proc, catcher: number, sig: number, mask: number, code: number, tramp: number): boolean;
  /** Restores curproc's user state from the sigcontext at scp; returns the mask to set, or -errno. */
  sigreturn(p: Proc, scp: number): number;

  /** Attaches (or with null detaches) the ground-truth sink of the CPU. */
  setTruth(sink: TruthSink | null): void;
}
