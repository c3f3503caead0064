/**
 * The machine-independent half of trap handling (4.4BSD trap.c's common part): dispatch of the
 * trap kinds the MD layer reports, the choice between the direct return to user mode and the
 * slow one (os/userret.ts: signal delivery and rescheduling), and the hook points of the tracing
 * work (docs/kernel.md section 7).
 */
import { COST } from './cost.js';
import { SIGSEGV } from './signal.js';
import { trapsignal } from './kern_sig.js';
import type { Kernel } from './kernel.js';
import { T_INTR, T_PAGEFLT, T_SIGNAL, T_SYSCALL, type TrapKind } from './machdep.js';
import type { KGen, KThread, Proc } from './proc.js';
import { syscall } from './syscall.js';
import { userret, userRetHooks } from './userret.js';
import { KERN_SUCCESS, vm_fault } from './vm/vm_fault.js';

/**
 * Hooks the tracing work (issue 7, DESIGN.md section 4) installs; every one is optional. The
 * kernel calls them at exactly these points, and only these.
 */
export interface KernelHooks {
  /** Every kernel entry from user mode: syscalls, faults, and interrupt points (T_INTR). */
  kernEnter?(p: Proc, kind: TrapKind): void;
  /**
   * Every return to user mode, after signal delivery and rescheduling. Returning a generator
   * runs it first as the process's kernel thread (it may sleep: the schedule buffer's T_SBOF),
   * then the return path starts over (signals, reschedule, hooks).
   */
  userRet?(p: Proc): KGen<void> | void;
  /**
   * A page fault, before vm_fault. Returning a generator takes the fault over: it runs as the
   * process's kernel thread (it may sleep), then the faulting instruction re-executes.
   */
  fault?(p: Proc, va: number, ftype: number): KGen<void> | null;
  /** End of cpu_switch: `next` is about to run (prev: the previous owner of the CPU, or null). */
  switched?(prev: Proc | null, next: Proc): void;
  fork?(parent: Proc, child: Proc): void;
  /** After a successful exec, before the new image runs. */
  exec?(p: Proc, path: string): void;
  exit?(p: Proc): void;
  /** A signal handler is about to be entered (before the frame is built): the interrupted PC. */
  signal?(p: Proc, sig: number, handler: number, pc: number): void;
  /** The user address that delivery enters for trampoline `tramp` (a traced process: its translation). */
  trampoline?(p: Proc, tramp: number): number;
  /** Consulted when a process becomes runnable: true keeps it off the run queues (trbuf_block). */
  holdRunnable?(p: Proc): boolean;
}

/** True when returning to user mode needs the slow path (a signal or a reschedule). */
function needsUserret(k: Kernel, p: Proc): boolean {
  return k.want_resched || (p.p_siglist & ~p.p_sigmask) !== 0;
}

function* userretThread(k: Kernel, p: Proc): KThread {
  yield* userret(k, p);
}

/** Finishes a trap: the direct return to user mode, or a kernel thread for the slow path. */
export function trapReturn(k: Kernel, p: Proc): void {
  if (p.p_kthread) return;
  if (needsUserret(k, p)) {
    p.p_kthread = userretThread(k, p);
    return;
  }
  const g = userRetHooks(k, p);
  if (g) p.p_kthread = hookThread(k, p, g);
}

function* hookThread(k: Kernel, p: Proc, g: KGen<void>): KThread {
  yield* g;
  yield* userret(k, p);
}

function* faultThread(k: Kernel, p: Proc, g: KGen<void>): KThread {
  yield* g;
  yield* userret(k, p);
}

/** A page fault of curproc at va. */
function pagefault(k: Kernel, p: Proc, va: number, ftype: number): void {
  for (const h of k.hooks) {
    const g = h.fault?.(p, va, ftype);
    if (g) {
      p.p_kthread = faultThread(k, p, g);
      return;
    }
  }
  p.stats.faults++;
  k.charge(COST.fault);
  const cnt = k.faultCounters;
  const z = cnt.zeroFill;
  const c = cnt.cowCopy;
  const i = cnt.pageIn;
  const rv = vm_fault(p.p_vmspace!, va, ftype, cnt);
  if (rv === KERN_SUCCESS) {
    k.charge((cnt.zeroFill - z) * COST.pageZero + (cnt.cowCopy - c) * COST.pageCopy + (cnt.pageIn - i) * COST.pageIn);
    if (cnt.pageIn !== i) p.p_ru.majflt++;
    else p.p_ru.minflt++;
    return;
  }
  k.log.debug({ pid: p.p_pid, va: va.toString(16), ftype, rv }, 'page fault: SIGSEGV');
  trapsignal(k, p, SIGSEGV, k.ti.code);
}

/** trap(): the MI handling of a trap the MD layer reported for curproc. */
export function trap(k: Kernel, p: Proc, kind: TrapKind): void {
  for (const h of k.hooks) h.kernEnter?.(p, kind);
  switch (kind) {
    case T_INTR:
      break;
    case T_SYSCALL:
      k.charge(COST.trap + COST.syscall);
      syscall(k, p);
      break;
    case T_PAGEFLT:
      k.charge(COST.trap);
      pagefault(k, p, k.ti.va >>> 0, k.ti.ftype);
      break;
    case T_SIGNAL:
      k.charge(COST.trap);
      k.log.debug({ pid: p.p_pid, sig: k.ti.sig, code: k.ti.code, va: (k.ti.va >>> 0).toString(16) }, 'fault signal');
      trapsignal(k, p, k.ti.sig, k.ti.code);
      break;
  }
  k.clockInUser = kind === T_INTR;
  k.clock.runDue();
  k.clockInUser = false;
  trapReturn(k, p);
}
