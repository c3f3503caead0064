/**
 * Process exit and reaping (4.4BSD kern_exit.c): exit1 releases a process's resources and makes
 * it a zombie for its parent; wait4 reaps zombies (and reports stopped children) with the BSD
 * status encoding; children of an exiting process go to init.
 */
import { ECHILD, EFAULT, EINVAL } from './errno.js';
import { fdfree } from './kern_descrip.js';
import { psignal } from './kern_sig.js';
import { itimer_cancel, rusageBytes } from './kern_time.js';
import { unsleep, wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { PCATCH, PWAIT } from './param.js';
import { type KGen, P_TRACED, P_WAITED, P_WEXIT, type Proc, RUsage, SSTOP, SZOMB } from './proc.js';
import { SIGCHLD, W_EXITCODE, W_STOPCODE, WNOHANG, WUNTRACED } from './signal.js';
import { copyout, suword } from './vm/copyio.js';

/**
 * exit1: curproc exits with wait status `rv`. Never returns: the process becomes a zombie and
 * its kernel thread is abandoned at the final yield.
 */
export function* exit1(k: Kernel, p: Proc, rv: number): KGen<never> {
  k.log.debug({ pid: p.p_pid, status: rv, comm: p.p_comm }, 'exit');
  p.p_flag |= P_WEXIT;
  p.p_sigignore = ~0 >>> 0;
  p.p_siglist = 0;
  if (p.p_sleepto) {
    k.clock.untimeout(p.p_sleepto as never);
    p.p_sleepto = null;
  }
  if (p.p_wchan !== null) unsleep(k, p);
  itimer_cancel(k, p);
  fdfree(k, p);
  p.p_xstat = rv;
  for (const h of k.hooks) h.exit?.(p);
  if (k.cpuOwner === p) {
    k.md.cpu_exit(p);
    k.cpuOwner = null;
  }
  if (p.p_vmspace) {
    p.p_vmspace.destroy();
    p.p_vmspace = null;
  }
  p.stats.end = k.clock.now;
  k.truth?.exit(p.p_pid, rv);
  // Children go to init; a zombie among them is init's to reap now.
  const init = k.initproc;
  for (const q of p.p_children) {
    q.p_pptr = init;
    if (init && init !== p) {
      init.p_children.push(q);
      if (q.p_stat === SZOMB) wakeup(k, init);
    }
  }
  p.p_children.length = 0;
  p.p_stat = SZOMB;
  if (p === k.initproc) {
    k.halt(rv, 'init exited');
  } else if (p.p_pptr) {
    psignal(k, p.p_pptr, SIGCHLD);
    wakeup(k, p.p_pptr);
  }
  for (;;) yield; // never resumed: the machine loop drops a zombie's thread
}

/** Frees a reaped zombie (4.4BSD: the last of wait4's work). */
function reap(k: Kernel, parent: Proc, q: Proc): void {
  const i = parent.p_children.indexOf(q);
  if (i >= 0) parent.p_children.splice(i, 1);
  parent.p_cru.add(q.p_ru);
  parent.p_cru.add(q.p_cru);
  k.procs.remove(q);
}

/** wait4(pid, status, options, rusage): 4.4BSD semantics and status encoding. */
export function* sys_wait4(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  const pid = a[0]!;
  const statusp = a[1]! >>> 0;
  const options = a[2]!;
  const rusagep = a[3]! >>> 0;
  if (options & ~(WNOHANG | WUNTRACED)) return EINVAL;
  const wantpid = pid === 0 ? -p.p_pgid : pid;
  for (;;) {
    let nfound = 0;
    for (const q of p.p_children) {
      if (wantpid !== -1 && q.p_pid !== wantpid && (wantpid >= -1 || q.p_pgid !== -wantpid)) continue;
      nfound++;
      if (q.p_stat === SZOMB) {
        rv[0] = q.p_pid;
        if (statusp && suword(p.p_vmspace!, statusp, q.p_xstat)) return EFAULT;
        if (rusagep) {
          const ru = new RUsage();
          ru.add(q.p_ru);
          ru.add(q.p_cru);
          if (copyout(p.p_vmspace!, rusageBytes(k, ru), rusagep)) return EFAULT;
        }
        reap(k, p, q);
        return 0;
      }
      if (q.p_stat === SSTOP && (q.p_flag & P_WAITED) === 0 && ((q.p_flag & P_TRACED) || (options & WUNTRACED))) {
        q.p_flag |= P_WAITED;
        rv[0] = q.p_pid;
        if (statusp && suword(p.p_vmspace!, statusp, W_STOPCODE(q.p_xstat))) return EFAULT;
        return 0;
      }
    }
    if (nfound === 0) return ECHILD;
    if (options & WNOHANG) {
      rv[0] = 0;
      return 0;
    }
    const error = yield* tsleep(k, p, PWAIT | PCATCH, 'wait', 0);
    if (error) return error;
  }
}

/** exit(status) */
export function* sys_exit(k: Kernel, p: Proc, a: Int32Array): KGen<number> {
  return yield* exit1(k, p, W_EXITCODE(a[0]!, 0));
}
