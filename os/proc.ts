/**
 * struct proc and the process table (4.4BSD sys/proc.h, kern/kern_proc.c).
 */
import type { FileDesc } from './kern_descrip.js';
import type { VmSpace } from './vm/vm_map.js';
import { NSIG } from './signal.js';
import { PID_MAX } from './param.js';

/** p_stat */
export const SIDL = 1; // being created by fork
export const SRUN = 2; // runnable (on a run queue, or curproc)
export const SSLEEP = 3; // sleeping on p_wchan
export const SSTOP = 4; // stopped by a signal
export const SZOMB = 5; // exited, waiting for the parent's wait4
export const STAT_NAMES = ['', 'IDL', 'RUN', 'SLEEP', 'STOP', 'ZOMB'];

/** p_flag */
export const P_ADVLOCK = 0x00001; // has held a record lock (close releases them)
export const P_CONTROLT = 0x00002;
export const P_INMEM = 0x00004;
export const P_PPWAIT = 0x00010;
export const P_SELECT = 0x00040;
export const P_SINTR = 0x00080; // sleep is interruptible
export const P_SUGID = 0x00100;
export const P_SYSTEM = 0x00200;
export const P_TIMEOUT = 0x00400; // the tsleep timed out
export const P_TRACED = 0x00800;
export const P_WAITED = 0x01000;
export const P_WEXIT = 0x02000; // working on exiting
export const P_EXEC = 0x04000; // has exec'ed since fork

/** Signal actions of a process (4.4BSD struct sigacts). */
export class SigActs {
  /** Handler address per signal: SIG_DFL (0), SIG_IGN (1) or a user function. */
  readonly ps_sigact = new Uint32Array(NSIG);
  /** Mask added while the handler runs. */
  readonly ps_catchmask = new Uint32Array(NSIG);
  /** Trampoline given with the last sigaction that set a handler (docs/abi.md "Signals"). */
  readonly ps_trampoline = new Uint32Array(NSIG);
  /** Signals whose handler interrupts a system call with restart (SA_RESTART). */
  ps_sigintr = 0; // bit set: interrupt (no SA_RESTART)
  ps_sigonstack = 0;
  ps_nodefer = 0;
  /** Signals whose handler is reset to SIG_DFL when delivered. */
  ps_sigreset = 0;
  /** Pending "code" argument for the next delivery of a trap signal. */
  ps_code = 0;
  ps_sig = 0;
  /** SA_NOCLDSTOP on SIGCHLD. */
  ps_nocldstop = false;

  copy(): SigActs {
    const s = new SigActs();
    s.ps_sigact.set(this.ps_sigact);
    s.ps_catchmask.set(this.ps_catchmask);
    s.ps_trampoline.set(this.ps_trampoline);
    s.ps_sigintr = this.ps_sigintr;
    s.ps_sigonstack = this.ps_sigonstack;
    s.ps_nodefer = this.ps_nodefer;
    s.ps_sigreset = this.ps_sigreset;
    s.ps_nocldstop = this.ps_nocldstop;
    return s;
  }
}

/** Resource usage (the fields of struct rusage the kernel keeps; times are virtual). */
export class RUsage {
  /** User and system cycles. */
  utime = 0;
  stime = 0;
  minflt = 0;
  majflt = 0;
  nsignals = 0;
  nvcsw = 0;
  nivcsw = 0;
  inblock = 0;
  oublock = 0;
  maxrss = 0;
  add(o: RUsage): void {
    this.utime += o.utime;
    this.stime += o.stime;
    this.minflt += o.minflt;
    this.majflt += o.majflt;
    this.nsignals += o.nsignals;
    this.nvcsw += o.nvcsw;
    this.nivcsw += o.nivcsw;
    this.inblock += o.inblock;
    this.oublock += o.oublock;
    this.maxrss = Math.max(this.maxrss, o.maxrss);
  }
}

/** Per-process counters for `--stats` (docs/kernel.md section 11). */
export class ProcStats {
  insns = 0;
  syscalls = 0;
  faults = 0;
  tlbMisses = 0;
  spills = 0;
  fills = 0;
  /** Context switches into this process. */
  switches = 0;
  /** Cycles on the CPU, user and kernel. */
  cycles = 0;
  /** Virtual time of creation and exit, in cycles. */
  start = 0;
  end = 0;
}

/** The kernel thread of a process: a generator running its trap or system call (docs/kernel.md section 2). */
export type KThread = Generator<void, void, void>;
/** A kernel routine that may sleep, returning T. */
export type KGen<T> = Generator<void, T, void>;

export class Proc {
  p_pid: number;
  p_pptr: Proc | null = null;
  /** Children in creation order (4.4BSD p_children list). */
  readonly p_children: Proc[] = [];
  p_pgid: number;
  p_stat = SIDL;
  p_flag = 0;
  /** Current priority (kernel sleep priority while in the kernel) and user-mode priority. */
  p_priority = 50;
  p_usrpri = 50;
  p_nice = 0;
  p_estcpu = 0;
  /** Ticks of CPU in the current second, and the decayed %cpu (fixed-point as 4.4BSD: FSCALE). */
  p_cpticks = 0;
  p_pctcpu = 0;
  /** Seconds asleep or stopped (for schedcpu), and seconds since swapped in (unused, kept for shape). */
  p_slptime = 0;
  p_wchan: unknown = null;
  p_wmesg = '';
  /** Callout of the current timed sleep. */
  p_sleepto: unknown = null;
  /** Pending, blocked, ignored and caught signals. */
  p_siglist = 0;
  p_sigmask = 0;
  p_sigignore = 0;
  p_sigcatch = 0;
  /** Mask to restore after a sigsuspend's handler ran (4.4BSD P_OLDMASK / ps_oldmask). */
  p_oldmask = 0;
  p_hasoldmask = false;
  p_sigacts: SigActs;
  p_fd: FileDesc;
  p_vmspace: VmSpace | null = null;
  /** Exit status / stop signal for wait4. */
  p_xstat = 0;
  p_ru = new RUsage();
  /** Accumulated usage of waited-for children (4.4BSD p_stats->p_cru). */
  p_cru = new RUsage();
  p_comm = '';
  /** The executable's path (for the stats and tracing's exec marker). */
  p_path = '';
  p_uid = 0;
  p_gid = 0;
  p_umask = 0o022;
  /** The record lock this process sleeps for in F_SETLKW (deadlock detection), or null. */
  p_lockwait: unknown = null;
  /**
   * Interval timers (4.4BSD p_realtimer and p_stats->p_timer): ITIMER_REAL as a clock event at a
   * cycle deadline; ITIMER_VIRTUAL and ITIMER_PROF as microseconds left, counted down by
   * hardclock. Intervals in microseconds. Not inherited by fork; kept across exec.
   */
  p_itreal: unknown = null;
  p_itreal_interval = 0;
  readonly p_itvalue = [0, 0, 0];
  readonly p_itinterval = [0, 0, 0];
  /** Tracing state (issue 7: PRTRC_TRC, PRTRC_ANA, PRTRC_WAK); zeroed on creation. */
  p_trace_stat = 0;
  /**
   * Cycles the next user-mode run may take even past the next clock deadline: /dev/trbuf's
   * progress guarantee after an interrupt rolled an instrumentation sequence back (0: none).
   */
  p_minrun = 0;
  /** The kernel thread in progress, or null in user mode. */
  p_kthread: KThread | null = null;
  /** Arguments and return values of the system call in progress (4.4BSD: on the kernel stack). */
  readonly p_args = new Int32Array(8);
  readonly p_rv = new Int32Array(2);
  /** Machine-dependent PCB (os/mips, os/sparc). */
  p_md: object;
  /** Run-queue links are positions in the kernel's queues; this is the queue index or -1. */
  p_rqindex = -1;
  readonly stats = new ProcStats();

  constructor(pid: number, sigacts: SigActs, fd: FileDesc, md: object) {
    this.p_pid = pid;
    this.p_pgid = pid;
    this.p_sigacts = sigacts;
    this.p_fd = fd;
    this.p_md = md;
  }
}

/** The process table: pid allocation (4.4BSD: next pid, wrap at PID_MAX, skip pids in use). */
export class ProcTable {
  readonly byPid = new Map<number, Proc>();
  /** Every live or zombie process, in creation order (allproc + zombproc). */
  readonly all: Proc[] = [];
  private nextpid = 1;

  constructor(readonly maxproc: number) {}

  get nprocs(): number {
    return this.all.length;
  }

  allocPid(): number {
    for (;;) {
      const pid = this.nextpid++;
      if (this.nextpid >= PID_MAX) this.nextpid = 100;
      if (!this.byPid.has(pid) && !this.all.some((p) => p.p_pgid === pid)) return pid;
    }
  }

  insert(p: Proc): void {
    this.byPid.set(p.p_pid, p);
    this.all.push(p);
  }

  remove(p: Proc): void {
    this.byPid.delete(p.p_pid);
    const i = this.all.indexOf(p);
    if (i >= 0) this.all.splice(i, 1);
  }

  pfind(pid: number): Proc | undefined {
    return this.byPid.get(pid);
  }
}
