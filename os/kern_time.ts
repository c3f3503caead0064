/**
 * Time (4.4BSD kern_time.c, kern_resource.c): gettimeofday, nanosleep, setitimer and getitimer
 * on virtual time, getrusage, sched_yield. Nothing here reads the host clock.
 */
import type { ClockEvent } from './kern_clock.js';
import { EFAULT, EINTR, EINVAL } from './errno.js';
import { psignal } from './kern_sig.js';
import { setrunqueue, wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { PCATCH, PPAUSE } from './param.js';
import type { KGen, Proc, RUsage } from './proc.js';
import { SIGALRM, SIGPROF, SIGVTALRM } from './signal.js';
import { copyin, copyout } from './vm/copyio.js';

export const ITIMER_REAL = 0;
export const ITIMER_VIRTUAL = 1;
export const ITIMER_PROF = 2;

export function sys_gettimeofday(k: Kernel, p: Proc, a: Int32Array): number {
  const tp = a[0]! >>> 0;
  const tzp = a[1]! >>> 0;
  const le = k.littleEndian;
  if (tp) {
    const t = k.timespec();
    const b = new Uint8Array(8);
    const dv = new DataView(b.buffer);
    dv.setInt32(0, t.sec, le);
    dv.setInt32(4, Math.floor(t.nsec / 1000), le);
    if (copyout(p.p_vmspace!, b, tp)) return EFAULT;
  }
  if (tzp && copyout(p.p_vmspace!, new Uint8Array(8), tzp)) return EFAULT;
  return 0;
}

/**
 * nanosleep(rqtp, rmtp): sleeps until the cycle counter has advanced by the requested time
 * (a clock event, not hardclock ticks: under --seed the ticks are irregular, and the sleep must
 * never be shorter than asked). Interrupted by a signal: EINTR with the unslept time in *rmtp.
 */
export function* sys_nanosleep(k: Kernel, p: Proc, a: Int32Array): KGen<number> {
  const rq = copyin(p.p_vmspace!, a[0]! >>> 0, 8);
  if (typeof rq === 'number') return rq;
  const le = k.littleEndian;
  const dv = new DataView(rq.buffer);
  const sec = dv.getInt32(0, le);
  const nsec = dv.getInt32(4, le);
  if (sec < 0 || nsec < 0 || nsec >= 1e9) return EINVAL;
  const ns = sec * 1e9 + nsec;
  if (ns === 0) return 0;
  const start = k.clock.now;
  const chan = {};
  let done = false;
  const ev = k.clock.schedule(start + Math.ceil((ns * k.cpuHz) / 1e9), () => {
    done = true;
    wakeup(k, chan);
  }, true);
  let e = 0;
  while (!done && e === 0) e = yield* tsleep(k, chan, PPAUSE | PCATCH, 'nanosleep', 0);
  if (done) return 0;
  k.clock.cancel(ev);
  const rmtp = a[1]! >>> 0;
  if (rmtp) {
    const slept = Math.floor(((k.clock.now - start) * 1e9) / k.cpuHz);
    const left = Math.max(0, ns - slept);
    const b = new Uint8Array(8);
    const ov = new DataView(b.buffer);
    ov.setInt32(0, Math.floor(left / 1e9), le);
    ov.setInt32(4, left % 1e9, le);
    if (copyout(p.p_vmspace!, b, rmtp)) return EFAULT;
  }
  return EINTR; // also with SA_RESTART: nanosleep is never restarted (FreeBSD)
}

/** Writes a struct rusage (docs/abi.md; times from virtual cycles). */
export function rusageBytes(k: Kernel, ru: RUsage): Uint8Array {
  const b = new Uint8Array(72);
  const dv = new DataView(b.buffer);
  const le = k.littleEndian;
  const tv = (off: number, cycles: number): void => {
    const us = Math.floor((cycles * 1e6) / k.cpuHz);
    dv.setInt32(off, Math.floor(us / 1e6), le);
    dv.setInt32(off + 4, us % 1e6, le);
  };
  tv(0, ru.utime);
  tv(8, ru.stime);
  const longs = [ru.maxrss, 0, 0, 0, ru.minflt, ru.majflt, 0, ru.inblock, ru.oublock, 0, 0, ru.nsignals, ru.nvcsw, ru.nivcsw];
  longs.forEach((v, i) => dv.setInt32(16 + 4 * i, v, le));
  return b;
}

export function sys_getrusage(k: Kernel, p: Proc, a: Int32Array): number {
  const who = a[0]!;
  let ru;
  if (who === 0) ru = p.p_ru;
  else if (who === -1) ru = p.p_cru;
  else return EINVAL;
  return copyout(p.p_vmspace!, rusageBytes(k, ru), a[1]! >>> 0) ? EFAULT : 0;
}

/** sched_yield: back to the end of the run queue at the user priority. */
export function* sys_sched_yield(k: Kernel, p: Proc): KGen<number> {
  p.p_priority = p.p_usrpri;
  setrunqueue(k, p);
  p.p_ru.nvcsw++;
  yield;
  return 0;
}

// --- interval timers ---

/** Microseconds of virtual time per hardclock tick (4.4BSD `tick`). */
function tickUsec(k: Kernel): number {
  return Math.floor(1e6 / k.hz);
}

function usecToCycles(k: Kernel, us: number): number {
  return Math.ceil((us * k.cpuHz) / 1e6);
}

/** struct itimerval {it_interval, it_value}, two struct timeval: 16 bytes. */
function itimervalBytes(k: Kernel, interval: number, value: number): Uint8Array {
  const b = new Uint8Array(16);
  const dv = new DataView(b.buffer);
  const le = k.littleEndian;
  dv.setInt32(0, Math.floor(interval / 1e6), le);
  dv.setInt32(4, interval % 1e6, le);
  dv.setInt32(8, Math.floor(value / 1e6), le);
  dv.setInt32(12, value % 1e6, le);
  return b;
}

/** The microseconds left on p's timer `which` (ITIMER_REAL: until its clock event). */
function itimerValue(k: Kernel, p: Proc, which: number): number {
  if (which !== ITIMER_REAL) return p.p_itvalue[which]!;
  const ev = p.p_itreal as ClockEvent | null;
  if (!ev) return 0;
  return Math.max(0, Math.ceil(((ev.when - k.clock.now) * 1e6) / k.cpuHz));
}

/** Cancels p's real-time timer (setitimer, exit). */
export function itimer_cancel(k: Kernel, p: Proc): void {
  const ev = p.p_itreal as ClockEvent | null;
  if (ev) k.clock.cancel(ev);
  p.p_itreal = null;
}

/**
 * Arms ITIMER_REAL to fire `when` (a cycle deadline): SIGALRM, then again every interval
 * microseconds measured from the previous deadline (4.4BSD realitexpire), so it never drifts.
 */
function realtimer(k: Kernel, p: Proc, when: number): void {
  p.p_itreal = k.clock.schedule(when, () => {
    p.p_itreal = null;
    psignal(k, p, SIGALRM);
    if (p.p_itreal_interval > 0) realtimer(k, p, Math.max(when + usecToCycles(k, p.p_itreal_interval), k.clock.now + 1));
  }, true);
}

export function sys_getitimer(k: Kernel, p: Proc, a: Int32Array): number {
  const which = a[0]!;
  if (which < ITIMER_REAL || which > ITIMER_PROF) return EINVAL;
  const interval = which === ITIMER_REAL ? p.p_itreal_interval : p.p_itinterval[which]!;
  return copyout(p.p_vmspace!, itimervalBytes(k, interval, itimerValue(k, p, which)), a[1]! >>> 0) ? EFAULT : 0;
}

/**
 * setitimer(which, itv, oitv): the old setting to *oitv, then the new one from *itv (none: only
 * the old one is reported). A nonzero time below a tick is raised to a tick (4.4BSD itimerfix).
 * ITIMER_REAL counts virtual time of day (SIGALRM), ITIMER_VIRTUAL the process's user time
 * (SIGVTALRM), ITIMER_PROF its user and system time (SIGPROF); the last two are charged a tick
 * at a time by hardclock, as in 4.4BSD.
 */
export function sys_setitimer(k: Kernel, p: Proc, a: Int32Array): number {
  const which = a[0]!;
  if (which < ITIMER_REAL || which > ITIMER_PROF) return EINVAL;
  const itv = a[1]! >>> 0;
  const oitv = a[2]! >>> 0;
  let next: [number, number] | null = null;
  if (itv) {
    const b = copyin(p.p_vmspace!, itv, 16);
    if (typeof b === 'number') return b;
    const dv = new DataView(b.buffer);
    const le = k.littleEndian;
    const fix = (off: number): number => {
      const sec = dv.getInt32(off, le);
      const usec = dv.getInt32(off + 4, le);
      if (sec < 0 || sec > 100000000 || usec < 0 || usec >= 1e6) return -1;
      const us = sec * 1e6 + usec;
      return us > 0 && us < tickUsec(k) ? tickUsec(k) : us;
    };
    const interval = fix(0);
    const value = fix(8);
    if (interval < 0 || value < 0) return EINVAL;
    next = [interval, value];
  }
  if (oitv) {
    const e = sys_getitimer(k, p, Int32Array.of(which, oitv));
    if (e) return e;
  }
  if (!next) return 0;
  const [interval, value] = next;
  if (which === ITIMER_REAL) {
    itimer_cancel(k, p);
    p.p_itreal_interval = value > 0 ? interval : 0;
    if (value > 0) realtimer(k, p, k.clock.now + usecToCycles(k, value));
  } else {
    p.p_itvalue[which] = value;
    p.p_itinterval[which] = value > 0 ? interval : 0;
  }
  return 0;
}

/**
 * hardclock's share of the interval timers (4.4BSD hardclock and itimerdecr): a tick of the
 * running process's virtual time when the tick interrupted user mode, and of its profiling
 * time in any case; a timer that runs out posts its signal and restarts from its interval.
 */
export function itimer_tick(k: Kernel, p: Proc, user: boolean): void {
  const decr = (which: number, sig: number): void => {
    const v = p.p_itvalue[which]!;
    if (v === 0) return;
    const left = v - tickUsec(k);
    if (left > 0) {
      p.p_itvalue[which] = left;
      return;
    }
    const iv = p.p_itinterval[which]!;
    p.p_itvalue[which] = iv > 0 ? Math.max(iv + left, 1) : 0;
    psignal(k, p, sig);
  };
  if (user) decr(ITIMER_VIRTUAL, SIGVTALRM);
  decr(ITIMER_PROF, SIGPROF);
}
