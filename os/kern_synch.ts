/**
 * Waking and switching (4.4BSD kern_synch.c and the MI half of locore's swtch): run queues by
 * priority, the sleep queues of wait channels (wakeup, unsleep, setrunnable), roundrobin,
 * schedcpu with the load-average decay filter, resetpriority, mi_switch and cpu_switch — the one
 * place where a process switch happens (docs/kernel.md sections 2 and 5). tsleep, which checks
 * for signals, is in os/kern_tsleep.ts above the signal code; this file is below it.
 */
import { COST } from './cost.js';
import type { Kernel } from './kernel.js';
import { ESTCPU_MAX, MAXPRI, NICE_WEIGHT, NQS, NZERO, PUSER } from './param.js';
import { type Proc, SRUN, SSLEEP, SSTOP, SZOMB } from './proc.js';
import { SIGKILL, sigmask } from './signal.js';

/** Fixed-point scale of p_pctcpu and the load average (4.4BSD FSHIFT/FSCALE). */
export const FSHIFT = 11;
export const FSCALE = 1 << FSHIFT;
/** exp(-1/20) in FSCALE: decay of p_pctcpu per second (4.4BSD ccpu). */
const CCPU = Math.round(0.95122942450071400909 * FSCALE);
/** exp(-1/60) in FSCALE: one-minute load average sampled every second. */
const CEXP1 = Math.round(Math.exp(-1 / 60) * FSCALE);

export class RunQueues {
  readonly qs: Proc[][] = Array.from({ length: NQS }, () => []);
  whichqs = 0;

  get empty(): boolean {
    return this.whichqs === 0;
  }

  count(): number {
    let n = 0;
    for (const q of this.qs) n += q.length;
    return n;
  }
}

/** Puts a runnable process at the end of its priority's queue (4.4BSD setrunqueue). */
export function setrunqueue(k: Kernel, p: Proc): void {
  if (p.p_rqindex >= 0) throw new Error(`setrunqueue: pid ${p.p_pid} already on run queue ${p.p_rqindex}`);
  const i = p.p_priority >> 2;
  k.runq.qs[i]!.push(p);
  k.runq.whichqs |= 1 << i;
  p.p_rqindex = i;
}

/** Takes a process off its run queue (4.4BSD remrq). */
export function remrq(k: Kernel, p: Proc): void {
  const i = p.p_rqindex;
  if (i < 0) return;
  const q = k.runq.qs[i]!;
  const j = q.indexOf(p);
  if (j >= 0) q.splice(j, 1);
  if (q.length === 0) k.runq.whichqs &= ~(1 << i);
  p.p_rqindex = -1;
}

/** The highest-priority runnable process, taken off its queue, or null. */
function chooseproc(k: Kernel): Proc | null {
  const w = k.runq.whichqs;
  if (w === 0) return null;
  const i = 31 - Math.clz32(w & -w);
  const q = k.runq.qs[i]!;
  const p = q.shift()!;
  if (q.length === 0) k.runq.whichqs &= ~(1 << i);
  p.p_rqindex = -1;
  return p;
}

/** Requests a reschedule at the next return to user mode (4.4BSD need_resched → AST). */
export function need_resched(k: Kernel): void {
  k.want_resched = true;
}

/** Recomputes the user-mode priority from p_estcpu and p_nice (4.4BSD resetpriority). */
export function resetpriority(k: Kernel, p: Proc): void {
  const newpriority = Math.min(PUSER + (p.p_estcpu >> 2) + NICE_WEIGHT * (p.p_nice - NZERO), MAXPRI);
  p.p_usrpri = newpriority;
  if (k.curproc && newpriority < k.curproc.p_priority) need_resched(k);
}

/** The decay of p_estcpu per second for a load average (4.4BSD decay_cpu): (2·load)/(2·load + 1). */
function decay_cpu(loadfac: number, cpu: number): number {
  return Math.floor((loadfac * cpu) / (loadfac + FSCALE));
}

/** Recomputes the priority of a process that slept more than a second (4.4BSD updatepri). */
function updatepri(k: Kernel, p: Proc): void {
  let newcpu = p.p_estcpu;
  const loadfac = 2 * k.loadav;
  if (p.p_slptime > 5 * loadfac / FSCALE) {
    p.p_estcpu = 0;
  } else {
    p.p_slptime--; // the first time was done in schedcpu
    while (newcpu && --p.p_slptime) newcpu = decay_cpu(loadfac, newcpu);
    p.p_estcpu = Math.min(newcpu, ESTCPU_MAX);
  }
  resetpriority(k, p);
}

/**
 * schedcpu, once a second: decays every process's %cpu and p_estcpu by the load-average filter,
 * counts sleep time, and requeues runnable processes whose priority changed.
 */
export function schedcpu(k: Kernel): void {
  // The one-minute load average: runnable processes, sampled once a second.
  const nrun = k.runq.count() + (k.curproc ? 1 : 0);
  k.loadav = Math.floor((CEXP1 * k.loadav + nrun * FSCALE * (FSCALE - CEXP1)) >> FSHIFT);
  const loadfac = 2 * k.loadav;
  for (const p of k.procs.all) {
    if (p.p_stat === SSLEEP || p.p_stat === SSTOP) p.p_slptime++;
    p.p_pctcpu = (p.p_pctcpu * CCPU) >> FSHIFT;
    if (p.p_slptime > 1) continue;
    p.p_pctcpu += Math.floor((p.p_cpticks * FSCALE) / k.hz);
    p.p_cpticks = 0;
    p.p_estcpu = Math.min(decay_cpu(loadfac, p.p_estcpu), ESTCPU_MAX);
    resetpriority(k, p);
    if (p.p_priority >= PUSER) {
      if (p.p_rqindex >= 0 && p !== k.curproc && p.p_stat === SRUN && (p.p_usrpri >> 2) !== (p.p_priority >> 2)) {
        remrq(k, p);
        p.p_priority = p.p_usrpri;
        setrunqueue(k, p);
      } else {
        p.p_priority = p.p_usrpri;
      }
    }
  }
}

/** roundrobin, every quantum: the running process yields at its next return to user mode. */
export function roundrobin(k: Kernel): void {
  need_resched(k);
}

/** statclock's scheduling part, once per tick for the running process (4.4BSD schedclock). */
export function schedclock(k: Kernel, p: Proc): void {
  p.p_cpticks++;
  if (p.p_estcpu < ESTCPU_MAX) p.p_estcpu++;
  if ((p.p_estcpu & 3) === 0) {
    resetpriority(k, p);
    if (p.p_priority >= PUSER) p.p_priority = p.p_usrpri;
  }
}

/**
 * Makes a process runnable (4.4BSD setrunnable): from sleep, stop or a new fork. A process with
 * a better priority than the running one asks for a reschedule.
 */
export function setrunnable(k: Kernel, p: Proc): void {
  if (p.p_stat === SZOMB) throw new Error(`setrunnable: pid ${p.p_pid} is a zombie`);
  // A sleeping process, or one stopped while asleep, leaves its sleep queue (4.4BSD).
  if (p.p_stat === SSLEEP || p.p_stat === SSTOP) unsleep(k, p);
  p.p_stat = SRUN;
  if (p.p_slptime > 1) updatepri(k, p);
  p.p_slptime = 0;
  if (p.p_rqindex < 0 && p !== k.curproc) {
    if (k.holdRunnable(p)) return;
    setrunqueue(k, p);
  }
  if (k.curproc && p.p_priority < k.curproc.p_priority) need_resched(k);
}

/** Removes a process from its sleep queue (4.4BSD unsleep). */
export function unsleep(k: Kernel, p: Proc): void {
  const chan = p.p_wchan;
  if (chan === null) return;
  const q = k.sleepq.get(chan);
  if (q) {
    const i = q.indexOf(p);
    if (i >= 0) q.splice(i, 1);
    if (q.length === 0) k.sleepq.delete(chan);
  }
  p.p_wchan = null;
}

/** Wakes every process sleeping on chan, in the order they went to sleep (4.4BSD wakeup). */
export function wakeup(k: Kernel, chan: object): void {
  const q = k.sleepq.get(chan);
  if (!q) return;
  k.sleepq.delete(chan);
  for (const p of q) {
    p.p_wchan = null;
    if (p.p_stat === SSLEEP) {
      if (p.p_slptime > 1) updatepri(k, p);
      p.p_slptime = 0;
      p.p_stat = SRUN;
      if (k.holdRunnable(p)) continue;
      if (p !== k.curproc) setrunqueue(k, p);
      if (k.curproc && p.p_priority < k.curproc.p_priority) need_resched(k);
    }
    // A stopped process stays stopped; its wait channel is gone so SIGCONT makes it runnable.
  }
}

/**
 * cpu_switch: picks the highest-priority runnable process and makes it curproc, moving user state
 * between the CPU and the PCBs only when the CPU's owner changes. With nothing runnable curproc
 * becomes null and the idle loop advances time. The one place a process switch happens.
 */
export function cpu_switch(k: Kernel): void {
  const next = chooseproc(k);
  k.want_resched = false;
  if (!next) {
    k.curproc = null;
    return;
  }
  const owner = k.cpuOwner;
  if (owner !== next) {
    if (owner !== null && owner.p_stat !== SZOMB) {
      if (!k.md.cpu_save(owner)) {
        // The user's windows could not be written to its stack: the process cannot continue.
        k.log.debug({ pid: owner.p_pid }, 'cpu_save failed (bad user stack): killing');
        owner.p_siglist |= sigmask(SIGKILL);
      }
    }
    k.md.cpu_restore(next);
    k.cpuOwner = next;
    next.stats.switches++;
    k.nswitch++;
    k.curproc = next;
    k.charge(COST.contextSwitch);
    k.truth?.switchTo(next.p_pid, k.clock.now);
  }
  k.curproc = next;
  for (const h of k.hooks) h.switched?.(owner, next);
}

/** mi_switch: curproc gives up the CPU (it slept, was preempted, stopped or exited). */
export function mi_switch(k: Kernel): void {
  k.curproc = null;
  cpu_switch(k);
}
