/**
 * The kernel object and the machine loop (4.4BSD init_main.c, and locore's idle loop and trap
 * glue): boots from a populated filesystem, starts init as pid 1, and runs until init exits
 * (docs/kernel.md section 2).
 */
import type { Logger } from 'pino';
import { Clock } from './kern_clock.js';
import { buildSysent, type Sysent } from './syscall.js';
import { cpu_switch, mi_switch, roundrobin, schedclock, schedcpu, setrunqueue, RunQueues } from './kern_synch.js';
import { T_INTR, TrapInfo, type MachDep } from './machdep.js';
import { MAXPROC_DEFAULT, TRBUF_END, PAGE_SIZE } from './param.js';
import { Prng } from '../format/prng.js';
import { type KThread, Proc, ProcTable, SigActs, SRUN, STAT_NAMES, SZOMB } from './proc.js';
import { trap, type KernelHooks } from './trap.js';
import { siginit } from './kern_sig.js';
import { itimer_tick } from './kern_time.js';
import { VDIR, Vfs, type Vnode } from './vfs.js';
import { FileDesc } from './kern_descrip.js';
import { Vm } from './vm/vm_map.js';
import { VmPages } from './vm/vm_page.js';
import type { FaultCounters } from './vm/vm_fault.js';
import { Devices, type Console } from './dev.js';
import { Disk, type DiskModel } from './disk.js';
import { kern_execve } from './kern_exec.js';
import { userret } from './userret.js';
import type { TrbufMapper } from './sys_trbuf.js';
import type { TruthWriter } from '../format/truth.js';

/** User instructions between two calls of run()'s progress callback, at most (host display, signals). */
const PROGRESS_INSNS = 1 << 20;

export interface KernelConfig {
  md: MachDep;
  /** Timer interrupts per virtual second (4.4BSD hz) and CPU cycles per virtual second. */
  hz: number;
  cpuHz: number;
  /** Round-robin quantum in cycles. */
  quantumCycles: number;
  maxproc?: number;
  /** --seed: randomised clock deadlines and device latencies; null for the regular clock. */
  seed: number | null;
  disk: DiskModel;
  /** Size of the trace buffer region kept free below 0x20000000. */
  trbufSize: number;
  console: Console;
  /** Stop after this many user instructions (Infinity: no limit). */
  maxInstructions: number;
  log: Logger;
  truth: TruthWriter | null;
  /** Frames kept out of commitment for the MD layer (SPARC page tables). */
  reservedPages?: number;
  /**
   * Forced interrupt points, for tests of what an interrupt may hit (the tracer's rollback):
   * machine-wide user instruction counts (the counter `maxInstructions` limits). When the
   * machine has retired exactly N user instructions, N in the list, the process in user mode
   * takes an interrupt (T_INTR) before its next instruction, as if a clock deadline had fallen
   * there — like an R4000 CP0 Compare register matching a count of user instructions. (When the
   * instruction that reached N trapped — a system call, a fault — the interrupt comes at the next
   * user instruction of whichever process runs after that kernel entry.) No clock
   * work runs for it that would not run anyway; each one is logged in Kernel.intrLog. Virtual
   * time only (never the host clock); absent or empty, the machine runs exactly as without.
   */
  intrAt?: readonly number[];
}

/** A forced interrupt as it was taken (KernelConfig.intrAt). */
export interface IntrRecord {
  /** User instructions the machine had retired: the point of the list. */
  insns: number;
  pid: number;
  /** The user PC interrupted: the instruction about to execute. */
  pc: number;
  /** Where user mode resumes after the kernel entry (the sequence start when rollback applied). */
  resume: number;
}

export type HaltReason = 'init exited' | 'instruction limit' | 'deadlock' | 'panic';

/** Seconds since 1970 at boot: 1994-01-01T00:00:00Z, the time of mazieres-smith-1994. */
export const BOOT_EPOCH = 757382400;

export class Kernel {
  readonly md: MachDep;
  readonly log: Logger;
  readonly clock: Clock;
  readonly procs: ProcTable;
  readonly runq = new RunQueues();
  readonly sleepq = new Map<unknown, Proc[]>();
  /** The wait channel of select and poll (4.4BSD selwait). */
  readonly selwait = {};
  readonly vfs = new Vfs();
  readonly vm: Vm;
  readonly pages: VmPages;
  readonly devs: Devices;
  readonly disk: Disk;
  readonly sysent: (Sysent | undefined)[];
  readonly hooks: KernelHooks[] = [];
  readonly ti = new TrapInfo();
  readonly faultCounters: FaultCounters = { zeroFill: 0, cowCopy: 0, pageIn: 0 };
  readonly littleEndian: boolean;
  readonly hz: number;
  readonly cpuHz: number;
  readonly quantumCycles: number;
  readonly trbufSize: number;
  truth: TruthWriter | null;
  /**
   * The exec-image hook, set before boot by a pipeline that needs it (bin/trace_run.ts): called
   * at every exec of a file that is an executable of this machine, with the file's absolute path
   * and bytes. A returned image (an executable of this machine) is what the process runs; the
   * file itself stays as it is. Returning the same array again shares its text pages, as execs
   * of one file do. null: the file runs.
   */
  execImage: ((path: string, file: Uint8Array) => Uint8Array | null) | null = null;
  /** The vnodes substituted images run from (kern_exec.ts), one per image array. */
  readonly execImages = new WeakMap<Uint8Array, Vnode>();
  /** The trace buffer's driver when attached (os/trbuf.ts): trbufmap(2) calls it (os/sys_trbuf.ts). */
  trbuf: TrbufMapper | null = null;

  curproc: Proc | null = null;
  /** The process whose user registers the CPU holds (cpu_switch saves/restores lazily). */
  cpuOwner: Proc | null = null;
  initproc: Proc | null = null;
  want_resched = false;
  /** True while clock events run for an interrupt of user mode (4.4BSD CLKF_USERMODE). */
  clockInUser = false;
  /** One-minute load average in FSCALE fixed point. */
  loadav = 0;
  /** Every process ever created, in creation order (for the statistics). */
  readonly history: Proc[] = [];

  /** Machine totals. */
  insns = 0;
  idleCycles = 0;
  nswitch = 0;
  readonly maxInstructions: number;
  /** The forced interrupt points still ahead (KernelConfig.intrAt), ascending, and the log. */
  private readonly intrAt: number[];
  private intrNext = 0;
  readonly intrLog: IntrRecord[] = [];
  /** The instruction count where the CPU must stop next: the limit or the next forced point. */
  private insnStop: number;

  halted = false;
  haltReason: HaltReason | null = null;
  haltMessage = '';
  /** init's wait status when it exited. */
  exitStatus = 0;

  constructor(cfg: KernelConfig) {
    this.md = cfg.md;
    this.log = cfg.log;
    this.hz = cfg.hz;
    this.cpuHz = cfg.cpuHz;
    this.quantumCycles = cfg.quantumCycles;
    this.trbufSize = cfg.trbufSize;
    this.truth = cfg.truth;
    this.maxInstructions = cfg.maxInstructions;
    this.intrAt = [...(cfg.intrAt ?? [])].sort((a, b) => a - b);
    this.insnStop = Math.min(this.maxInstructions, this.intrAt[0] ?? Infinity);
    this.littleEndian = cfg.md.mem.endian === 'little';
    this.clock = new Clock(cfg.cpuHz, cfg.hz, cfg.seed === null ? null : new Prng(cfg.seed));
    this.procs = new ProcTable(cfg.maxproc ?? MAXPROC_DEFAULT);
    this.pages = new VmPages(cfg.md.mem, cfg.reservedPages ?? 0);
    this.vm = new Vm(this.pages, cfg.md);
    this.devs = new Devices(this, cfg.console);
    this.disk = new Disk(this, cfg.disk);
    this.sysent = buildSysent();
    this.vfs.now = () => this.timespec();
    cfg.md.attach(this);
    if (this.truth) cfg.md.setTruth(this.truth);
  }

  /** Virtual time of day. */
  timespec(): { sec: number; nsec: number } {
    const ns = Math.floor((this.clock.now * 1e9) / this.cpuHz);
    return { sec: BOOT_EPOCH + Math.floor(ns / 1e9), nsec: ns % 1e9 };
  }

  /**
   * A 64-bit argument from two argument words in the C convention's order: memory order of the
   * byte order (MIPS little-endian: low word first; MIPS big-endian and SPARC: high word first).
   */
  get64(w0: number, w1: number): number {
    return this.littleEndian ? w1 * 0x100000000 + (w0 >>> 0) : w0 * 0x100000000 + (w1 >>> 0);
  }

  /** Returns a 64-bit value in rv[0]/rv[1] in the same order. */
  set64(rv: Int32Array, v: number): void {
    const hi = Math.floor(v / 0x100000000) | 0;
    const lo = (v - Math.floor(v / 0x100000000) * 0x100000000) | 0;
    rv[0] = this.littleEndian ? lo : hi;
    rv[1] = this.littleEndian ? hi : lo;
  }

  /** Charges kernel work to the running process (or to idle time). */
  charge(cycles: number): void {
    cycles = Math.ceil(cycles);
    this.clock.now += cycles;
    const p = this.curproc;
    if (p) {
      p.stats.cycles += cycles;
      p.p_ru.stime += cycles;
    }
  }

  addHook(h: KernelHooks): void {
    this.hooks.push(h);
  }

  holdRunnable(p: Proc): boolean {
    for (const h of this.hooks) if (h.holdRunnable?.(p)) return true;
    return false;
  }

  halt(status: number, reason: HaltReason, message = ''): void {
    if (this.halted) return;
    this.halted = true;
    this.exitStatus = status;
    this.haltReason = reason;
    this.haltMessage = message;
    this.log.debug({ status, reason, message }, 'halt');
  }

  /** The address range every address space keeps free for the trace buffer and its guard page. */
  trbufRange(): [number, number] {
    return [TRBUF_END - this.trbufSize, TRBUF_END + PAGE_SIZE];
  }

  /**
   * Boot: the clocks, the console descriptors, and init (pid 1) exec'ing argv[0]. The filesystem
   * must be populated before.
   */
  boot(argv: string[], envp: string[], cwd = '/'): void {
    this.devs.makeNodes();
    // hardclock every tick and roundrobin every quantum, each deadline measured from the last
    // one (no drift), drawn at random around the period under --seed.
    const tick = this.clock.tickCycles;
    let hcWhen = this.clock.interval(tick);
    const hardclock = (): void => {
      this.clock.ticks++;
      if (this.curproc) {
        schedclock(this, this.curproc);
        itimer_tick(this, this.curproc, this.clockInUser);
      }
      if (this.clock.ticks % this.hz === 0) schedcpu(this);
      this.clock.softclock();
      hcWhen += this.clock.interval(tick);
      this.clock.schedule(hcWhen, hardclock);
    };
    this.clock.schedule(hcWhen, hardclock);
    let rrWhen = this.clock.interval(this.quantumCycles);
    const rr = (): void => {
      roundrobin(this);
      rrWhen += this.clock.interval(this.quantumCycles);
      this.clock.schedule(rrWhen, rr);
    };
    this.clock.schedule(rrWhen, rr);

    const wd = this.vfs.namei(this.vfs.root, cwd, 0);
    if (wd.error || wd.vp!.type !== VDIR) throw new Error(`boot: working directory ${cwd} is not a directory`);
    const fd = new FileDesc(wd.vp!);
    wd.vp!.usecount++;
    const p = new Proc(this.procs.allocPid(), new SigActs(), fd, this.md.pcbNew());
    p.p_comm = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1);
    siginit(p);
    this.procs.insert(p);
    this.history.push(p);
    this.initproc = p;
    const err = this.devs.openConsoleFds(p);
    if (err) throw new Error(`boot: cannot open /dev/console (errno ${err})`);
    p.p_kthread = this.initThread(p, argv, envp);
    p.p_stat = SRUN;
    p.stats.start = this.clock.now;
    this.curproc = null;
    setrunqueue(this, p);
  }

  private *initThread(p: Proc, argv: string[], envp: string[]): KThread {
    const err = yield* kern_execve(this, p, argv[0]!, argv, envp);
    if (err) {
      this.halt(127, 'panic', `cannot exec ${argv[0]}: errno ${err}`);
      for (;;) yield;
    }
    yield* userret(this, p);
  }

  /**
   * The machine loop. Returns when init has exited, the instruction limit was reached, or
   * nothing can run any more (deadlock). `progress` is called now and then for a host display;
   * when it returns false the loop returns early, between two steps, and a later run() goes on
   * from there (the host's event loop runs in between: signals), the machine none the wiser.
   */
  run(progress?: () => boolean | void): void {
    const clock = this.clock;
    const md = this.md;
    const ti = this.ti;
    let iter = 0;
    let progressAt = this.insns + PROGRESS_INSNS;
    while (!this.halted) {
      // Host-side progress reporting only: nothing of the machine depends on it. Every 4096 steps
      // or PROGRESS_INSNS user instructions, whichever comes first (a step may be a whole slice).
      if (progress && ((++iter & 0xfff) === 0 || this.insns >= progressAt)) {
        progressAt = this.insns + PROGRESS_INSNS;
        if (progress() === false) return;
      }
      const p = this.curproc;
      if (p === null) {
        this.idle();
        continue;
      }
      if (p.p_kthread !== null) {
        if (clock.now >= clock.nextDeadline()) clock.runDue();
        const r = p.p_kthread.next();
        if (r.done) {
          p.p_kthread = null;
        } else {
          if (p.p_stat === SZOMB) p.p_kthread = null;
          mi_switch(this);
        }
        continue;
      }
      // User mode.
      let budget = clock.nextDeadline() - clock.now;
      if (p.p_minrun > 0) {
        if (budget < p.p_minrun) budget = p.p_minrun;
        p.p_minrun = 0;
      }
      if (budget <= 0) {
        trap(this, p, T_INTR);
        continue;
      }
      const left = this.insnStop - this.insns;
      if (left <= 0) {
        if (this.intrNext < this.intrAt.length) {
          this.forcedIntr(p);
          continue;
        }
        this.halt(124, 'instruction limit', `instruction limit of ${this.maxInstructions} reached`);
        break;
      }
      // Cut short for a forced point (not the limit).
      const forcedCut = budget > left && this.insnStop < this.maxInstructions;
      if (budget > left) budget = left;
      ti.tlbMisses = 0;
      ti.spills = 0;
      ti.fills = 0;
      const kind = md.run(p, budget, ti);
      clock.now += ti.cycles;
      this.insns += ti.insns;
      const st = p.stats;
      st.insns += ti.insns;
      st.cycles += ti.cycles;
      st.tlbMisses += ti.tlbMisses;
      st.spills += ti.spills;
      st.fills += ti.fills;
      p.p_ru.utime += ti.cycles;
      if (forcedCut && kind === T_INTR) {
        // The forced point reached: that kernel entry is the forced interrupt (it runs the clock
        // work due too). Short of it, the MD traps' cycles stopped the CPU: no interrupt unless a
        // deadline is due.
        if (this.insns >= this.insnStop) {
          this.forcedIntr(p);
          continue;
        }
        if (clock.now < clock.nextDeadline()) continue;
      }
      trap(this, p, kind);
    }
  }

  /**
   * The forced interrupt at the point just reached (KernelConfig.intrAt): T_INTR for p, logged
   * with the PC before and after the kernel entry. Points already passed are dropped with it.
   */
  private forcedIntr(p: Proc): void {
    while (this.intrNext < this.intrAt.length && this.intrAt[this.intrNext]! <= this.insns) this.intrNext++;
    this.insnStop = Math.min(this.maxInstructions, this.intrAt[this.intrNext] ?? Infinity);
    const pc = this.md.getpc(p) >>> 0;
    trap(this, p, T_INTR);
    // trap() leaves the CPU with p's registers (a switch happens later, in this loop).
    this.intrLog.push({ insns: this.insns, pid: p.p_pid, pc, resume: this.md.getpc(p) >>> 0 });
  }

  /** The idle loop: jump to the next event; stop when nothing can ever run again. */
  private idle(): void {
    cpu_switch(this);
    if (this.curproc !== null || this.halted) return;
    if (!this.clock.hasWakingWork()) {
      const procs = this.procs.all
        .filter((q) => q.p_stat !== SZOMB)
        .map((q) => `pid ${q.p_pid} (${q.p_comm}) ${STAT_NAMES[q.p_stat]}${q.p_wmesg && q.p_wchan ? ` on ${q.p_wmesg}` : ''}`);
      this.halt(125, 'deadlock', `no process can run and nothing can wake one: ${procs.join('; ')}`);
      return;
    }
    const t = this.clock.nextDeadline();
    if (t > this.clock.now) {
      this.idleCycles += t - this.clock.now;
      this.clock.now = t;
    }
    this.clock.runDue();
  }
}
