/**
 * select (4.4BSD sys_generic.c) and poll (FreeBSD): readiness of descriptors through each kind
 * of open file's `poll` operation, waiting on virtual time for readiness, a signal or the
 * timeout. Files and devices are always ready (their reads and writes never wait for input);
 * pipes are ready as their buffer and ends allow, and wake the waiters when that changes
 * (selwakeup).
 */
import { EBADF, EFAULT, EINTR, EINVAL, ERESTART } from './errno.js';
import { wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { NOFILE, PCATCH, PSOCK } from './param.js';
import type { KGen, Proc } from './proc.js';
import { copyin, copyout } from './vm/copyio.js';

/** poll events (<poll.h>, FreeBSD values). */
export const POLLIN = 0x0001;
export const POLLPRI = 0x0002;
export const POLLOUT = 0x0004;
export const POLLERR = 0x0008;
export const POLLHUP = 0x0010;
export const POLLNVAL = 0x0020;
export const POLLRDNORM = 0x0040;
export const POLLWRNORM = POLLOUT;
export const POLLRDBAND = 0x0080;
export const POLLWRBAND = 0x0100;

/** Most pollfd entries one poll takes. */
const POLL_MAX = 1024;

/** Wakes every process waiting in select or poll (4.4BSD selwakeup). */
export function selwakeup(k: Kernel): void {
  wakeup(k, k.selwait);
}

/**
 * Waits until scan() reports something ready (or -errno), a signal arrives (EINTR: neither call
 * is restarted, as in 4.4BSD) or `cycles` of virtual time have passed (-1: no limit). Returns
 * the errno, 0 when the last scan found something or the time ran out.
 */
function* selwait(k: Kernel, cycles: number, scan: () => number): KGen<number> {
  let n = scan();
  if (n !== 0 || cycles === 0) return n < 0 ? -n : 0;
  let expired = false;
  const ev = cycles > 0 ? k.clock.schedule(k.clock.now + cycles, () => {
    expired = true;
    wakeup(k, k.selwait);
  }, true) : null;
  for (;;) {
    const e = yield* tsleep(k, k.selwait, PSOCK | PCATCH, 'select', 0);
    if (e) {
      if (ev) k.clock.cancel(ev);
      return e === ERESTART ? EINTR : e;
    }
    n = scan();
    if (n !== 0 || expired) break;
  }
  if (ev) k.clock.cancel(ev);
  return n < 0 ? -n : 0;
}

/**
 * select(nd, in, ou, ex, tv): fd_sets of howmany(nd, 32) 32-bit words in the guest's byte
 * order (bit fd % 32 of word fd / 32); the ready descriptors replace each given set, and the
 * call returns their count. tv NULL waits for ever, a zero tv polls. nd is cut to NOFILE.
 */
export function* sys_select(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  let nd = a[0]!;
  if (nd < 0) return EINVAL;
  if (nd > NOFILE) nd = NOFILE;
  const words = Math.ceil(nd / 32);
  const le = k.littleEndian;
  const vs = p.p_vmspace!;
  const sets: (DataView | null)[] = [];
  for (let i = 1; i <= 3; i++) {
    const ua = a[i]! >>> 0;
    if (!ua || words === 0) {
      sets.push(null);
      continue;
    }
    const b = copyin(vs, ua, 4 * words);
    if (typeof b === 'number') return b;
    sets.push(new DataView(b.buffer));
  }
  let cycles = -1;
  const tv = a[4]! >>> 0;
  if (tv) {
    const b = copyin(vs, tv, 8);
    if (typeof b === 'number') return b;
    const dv = new DataView(b.buffer);
    const sec = dv.getInt32(0, le);
    const usec = dv.getInt32(4, le);
    if (sec < 0 || usec < 0 || usec >= 1e6) return EINVAL;
    cycles = Math.ceil(((sec * 1e6 + usec) * k.cpuHz) / 1e6);
  }
  const out = sets.map((s) => (s ? new Uint8Array(4 * words) : null));
  const want = [POLLIN | POLLRDNORM, POLLOUT | POLLWRNORM, POLLPRI | POLLRDBAND];
  const ready = [POLLIN | POLLRDNORM | POLLHUP, POLLOUT | POLLWRNORM | POLLHUP, POLLPRI | POLLRDBAND];
  let count = 0;
  const scan = (): number => {
    count = 0;
    for (let i = 0; i < 3; i++) {
      const s = sets[i];
      if (!s) continue;
      const o = new DataView(out[i]!.buffer);
      for (let w = 0; w < words; w++) {
        const bits = s.getUint32(4 * w, le);
        let res = 0;
        for (let j = 0; j < 32 && bits >>> j; j++) {
          if ((bits & (1 << j)) === 0) continue;
          const fp = p.p_fd.get(32 * w + j);
          if (!fp) return -EBADF;
          if (fp.f_ops.poll(k, p, fp, want[i]!) & ready[i]!) {
            res |= 1 << j;
            count++;
          }
        }
        o.setUint32(4 * w, res >>> 0, le);
      }
    }
    return count;
  };
  const e = yield* selwait(k, cycles, scan);
  if (e) return e;
  for (let i = 0; i < 3; i++) {
    if (out[i] && copyout(vs, out[i]!, a[i + 1]! >>> 0)) return EFAULT;
  }
  rv[0] = count;
  return 0;
}

/**
 * poll(fds, nfds, timeout): struct pollfd {int fd; short events; short revents;} (8 bytes). A
 * negative fd is skipped, a closed one reports POLLNVAL; POLLERR, POLLHUP and POLLNVAL are
 * reported whether asked for or not. timeout in milliseconds, -1 (any negative) for ever.
 */
export function* sys_poll(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  const nfds = a[1]! >>> 0;
  if (nfds > POLL_MAX) return EINVAL;
  const ua = a[0]! >>> 0;
  const vs = p.p_vmspace!;
  const b = copyin(vs, ua, 8 * nfds);
  if (typeof b === 'number') return b;
  const dv = new DataView(b.buffer);
  const le = k.littleEndian;
  const timeout = a[2]!;
  const cycles = timeout < 0 ? -1 : Math.ceil((timeout * k.cpuHz) / 1000);
  const scan = (): number => {
    let n = 0;
    for (let i = 0; i < nfds; i++) {
      const fd = dv.getInt32(8 * i, le);
      const events = dv.getUint16(8 * i + 4, le);
      let rev = 0;
      if (fd >= 0) {
        const fp = p.p_fd.get(fd);
        rev = fp ? fp.f_ops.poll(k, p, fp, events) & (events | POLLERR | POLLHUP) : POLLNVAL;
      }
      dv.setUint16(8 * i + 6, rev, le);
      if (rev) n++;
    }
    return n;
  };
  let n = 0;
  const e = yield* selwait(k, cycles, () => (n = scan()));
  if (e) return e;
  if (copyout(vs, b, ua)) return EFAULT;
  rv[0] = n;
  return 0;
}
