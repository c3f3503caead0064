/**
 * Time (4.4BSD kern_time.c, kern_resource.c): gettimeofday and nanosleep on virtual time,
 * getrusage, sched_yield. Nothing here reads the host clock.
 */
import { EFAULT, EINTR, EINVAL } from './errno.js';
import { rusageBytes } from './kern_exit.js';
import { setrunqueue, tsleep, wakeup } from './kern_synch.js';
import type { Kernel } from './kernel.js';
import { PCATCH, PPAUSE } from './param.js';
import type { KGen, Proc } from './proc.js';
import { copyin, copyout } from './vm/copyio.js';

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
