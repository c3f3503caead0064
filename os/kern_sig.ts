/**
 * Signals (4.4BSD kern_sig.c): psignal posts, issignal picks the next signal to act on (stopping
 * the process for a default stop), deliver builds a handler's frame (sendsig), trapsignal for CPU
 * faults, and the system calls sigaction, sigprocmask, sigpending, kill, sigreturn. Acting on a
 * signal by default ends in exit1, and sigsuspend sleeps: postsig, sigexit and sigsuspend are in
 * os/kern_postsig.ts, above exit1 and tsleep, which both call down into this file.
 */
import { COST } from './cost.js';
import { EFAULT, EINVAL, EJUSTRETURN, ESRCH } from './errno.js';
import { setrunnable, unsleep, wakeup } from './kern_synch.js';
import type { Kernel } from './kernel.js';
import { PUSER } from './param.js';
import { type KGen, P_PPWAIT, P_SINTR, P_TRACED, P_WAITED, P_WEXIT, type Proc, SSLEEP, SSTOP, SZOMB } from './proc.js';
import {
  NSIG, SA_CONT, SA_IGNORE, SA_NOCLDSTOP, SA_NODEFER, SA_RESETHAND, SA_RESTART, SA_STOP, SIG_BLOCK, SIG_DFL,
  SIG_IGN, SIG_SETMASK, SIG_UNBLOCK, SIGCHLD, SIGCONT, SIGILL, SIGKILL, SIGSTOP, SIGNAMES, contsigmask, sigcantmask,
  sigmask, sigprop, stopsigmask,
} from './signal.js';
import { copyin, copyout } from './vm/copyio.js';

const SIG_CATCH = 2;
const SIG_HOLD = 3;

function ffs(x: number): number {
  return 31 - Math.clz32(x & -x) + 1;
}

/**
 * The signals a new process (init) ignores: those whose default action is to ignore them,
 * except SIGCONT (4.4BSD siginit), so that posting them wakes nobody.
 */
export function siginit(p: Proc): void {
  for (let sig = 1; sig < NSIG; sig++) {
    if ((sigprop[sig]! & SA_IGNORE) && sig !== SIGCONT) p.p_sigignore |= sigmask(sig);
  }
  p.p_sigignore >>>= 0;
}

/**
 * exec resets caught signals to their default action (4.4BSD execsigs); a default of ignoring
 * makes them ignored. Ignored signals stay ignored; the mask is kept.
 */
export function execsigs(p: Proc): void {
  const ps = p.p_sigacts;
  for (let sig = 1; sig < NSIG; sig++) {
    const mask = sigmask(sig);
    if ((p.p_sigcatch & mask) === 0) continue;
    ps.ps_sigact[sig] = SIG_DFL;
    ps.ps_trampoline[sig] = 0;
    if ((sigprop[sig]! & SA_IGNORE) && sig !== SIGCONT) {
      p.p_sigignore |= mask;
      p.p_siglist &= ~mask;
    }
  }
  p.p_sigcatch = 0;
  p.p_sigignore >>>= 0;
  ps.ps_sigreset = 0;
  ps.ps_nodefer = 0;
  ps.ps_sigintr = 0;
}

/** Stops a process for a signal (4.4BSD stop): the parent's wait4 sees it. */
function stop(k: Kernel, p: Proc): void {
  p.p_stat = SSTOP;
  p.p_flag &= ~P_WAITED;
  if (p.p_pptr) wakeup(k, p.p_pptr);
}

/** Posts signal sig to process p (4.4BSD psignal). */
export function psignal(k: Kernel, p: Proc, sig: number): void {
  if (sig <= 0 || sig >= NSIG) throw new Error(`psignal: bad signal ${sig}`);
  if (p.p_stat === SZOMB || (p.p_flag & P_WEXIT)) return;
  const prop = sigprop[sig]!;
  const mask = sigmask(sig);
  let action: number;
  if (p.p_sigignore & mask) return;
  if (p.p_sigmask & mask) action = SIG_HOLD;
  else if (p.p_sigcatch & mask) action = SIG_CATCH;
  else action = SIG_DFL;
  k.log.debug({ pid: p.p_pid, sig: SIGNAMES[sig] }, 'psignal');
  if (prop & SA_CONT) p.p_siglist &= ~stopsigmask;
  if (prop & SA_STOP) p.p_siglist &= ~contsigmask;
  p.p_siglist |= mask;
  if (action === SIG_HOLD && ((prop & SA_CONT) === 0 || p.p_stat !== SSTOP)) return;

  const runfast = (): void => {
    if (p.p_priority > PUSER) p.p_priority = PUSER;
    setrunnable(k, p);
  };
  switch (p.p_stat) {
    case SSLEEP:
      if ((p.p_flag & P_SINTR) === 0) return; // uninterruptible: seen when it wakes
      if ((prop & SA_CONT) && action === SIG_DFL) {
        p.p_siglist &= ~mask;
        return;
      }
      if (prop & SA_STOP) {
        if (action !== SIG_DFL) return runfast();
        if (p.p_flag & P_PPWAIT) return;
        p.p_siglist &= ~mask;
        p.p_xstat = sig;
        if (p.p_pptr && !p.p_pptr.p_sigacts.ps_nocldstop) psignal(k, p.p_pptr, SIGCHLD);
        stop(k, p);
        return;
      }
      return runfast();
    case SSTOP:
      if (p.p_flag & P_TRACED) return;
      if (sig === SIGKILL) return runfast();
      if (prop & SA_CONT) {
        if (action === SIG_DFL) p.p_siglist &= ~mask;
        if (action === SIG_CATCH) return runfast();
        if (p.p_wchan === null) {
          setrunnable(k, p);
          return;
        }
        p.p_stat = SSLEEP;
        return;
      }
      if (prop & SA_STOP) {
        p.p_siglist &= ~mask;
        return;
      }
      if (p.p_wchan !== null && (p.p_flag & P_SINTR)) unsleep(k, p);
      return;
    default:
      // Running or runnable: seen at its next return to user mode (userret checks p_siglist).
      return;
  }
}

/**
 * issignal: the next signal curproc must act on, or 0. Discards ignored signals; a default
 * stop stops the process here (it switches away until SIGCONT).
 */
export function* issignal(k: Kernel, p: Proc): KGen<number> {
  for (;;) {
    let mask = p.p_siglist & ~p.p_sigmask;
    if (p.p_flag & P_PPWAIT) mask &= ~stopsigmask;
    if (mask === 0) return 0;
    const signum = ffs(mask);
    mask = sigmask(signum);
    const prop = sigprop[signum]!;
    if (mask & p.p_sigignore) {
      p.p_siglist &= ~mask;
      continue;
    }
    const act = p.p_sigacts.ps_sigact[signum]!;
    if (act === SIG_DFL) {
      if (prop & SA_STOP) {
        p.p_xstat = signum;
        p.p_siglist &= ~mask;
        if (p.p_pptr && !p.p_pptr.p_sigacts.ps_nocldstop) psignal(k, p.p_pptr, SIGCHLD);
        stop(k, p);
        yield; // switched away until SIGCONT makes it runnable
        continue;
      } else if (prop & SA_IGNORE) {
        p.p_siglist &= ~mask;
        continue;
      }
      return signum;
    } else if (act === SIG_IGN) {
      p.p_siglist &= ~mask;
      continue;
    }
    return signum;
  }
}

/** CURSIG: a pending, unblocked signal of curproc (0 when none). */
export function* CURSIG(k: Kernel, p: Proc): KGen<number> {
  if ((p.p_siglist & ~p.p_sigmask) === 0) return 0;
  return yield* issignal(k, p);
}

/** Delivers sig to a handler (the common part of postsig and trapsignal). */
export function deliver(k: Kernel, p: Proc, sig: number, code: number): boolean {
  const ps = p.p_sigacts;
  const mask = sigmask(sig);
  const catcher = ps.ps_sigact[sig]!;
  p.p_ru.nsignals++;
  let returnmask: number;
  if (p.p_hasoldmask) {
    returnmask = p.p_oldmask;
    p.p_hasoldmask = false;
  } else {
    returnmask = p.p_sigmask;
  }
  for (const h of k.hooks) h.signal?.(p, sig, catcher, k.md.getpc(p));
  k.charge(COST.sendsig);
  let tramp = ps.ps_trampoline[sig]!;
  for (const h of k.hooks) if (h.trampoline) tramp = h.trampoline(p, tramp);
  if (!k.md.sendsig(p, catcher, sig, returnmask, code, tramp)) return false;
  p.p_sigmask = (p.p_sigmask | ps.ps_catchmask[sig]! | ((ps.ps_nodefer & mask) ? 0 : mask)) & ~sigcantmask;
  if (ps.ps_sigreset & mask) {
    ps.ps_sigact[sig] = SIG_DFL;
    p.p_sigcatch &= ~mask;
    ps.ps_sigreset &= ~mask;
  }
  return true;
}

/**
 * A signal caused by a CPU fault of curproc (4.4BSD trapsignal). A caught, unblocked signal is
 * delivered at once; otherwise it is posted. A fault signal that is blocked or ignored gets its
 * default action (the faulting instruction would only fault again), as FreeBSD does.
 */
export function trapsignal(k: Kernel, p: Proc, sig: number, code: number): void {
  const ps = p.p_sigacts;
  const mask = sigmask(sig);
  if ((p.p_sigcatch & mask) && (p.p_sigmask & mask) === 0) {
    if (deliver(k, p, sig, code)) return;
    sig = SIGILL; // no room for the frame
  }
  if ((p.p_sigmask & mask) || (p.p_sigignore & mask)) {
    p.p_sigmask &= ~mask;
    p.p_sigignore &= ~mask;
    p.p_sigcatch &= ~mask;
    ps.ps_sigact[sig] = SIG_DFL;
  }
  ps.ps_code = code;
  ps.ps_sig = sig;
  psignal(k, p, sig);
}

// --- system calls ---

/** sigaction(sig, act, oact, tramp); struct sigaction {handler, mask, flags} (docs/abi.md). */
export function sys_sigaction(k: Kernel, p: Proc, a: Int32Array): number {
  const sig = a[0]!;
  const act = a[1]! >>> 0;
  const oact = a[2]! >>> 0;
  const tramp = a[3]! >>> 0;
  if (sig <= 0 || sig >= NSIG) return EINVAL;
  const ps = p.p_sigacts;
  const vs = p.p_vmspace!;
  const mask = sigmask(sig);
  if (oact) {
    const b = new Uint8Array(12);
    const dv = new DataView(b.buffer);
    const le = k.littleEndian;
    let flags = 0;
    if ((ps.ps_sigintr & mask) === 0) flags |= SA_RESTART;
    if (ps.ps_sigreset & mask) flags |= SA_RESETHAND;
    if (ps.ps_nodefer & mask) flags |= SA_NODEFER;
    if (sig === SIGCHLD && ps.ps_nocldstop) flags |= SA_NOCLDSTOP;
    dv.setUint32(0, ps.ps_sigact[sig]!, le);
    dv.setUint32(4, ps.ps_catchmask[sig]!, le);
    dv.setInt32(8, flags, le);
    if (copyout(vs, b, oact)) return EFAULT;
  }
  if (act) {
    const b = copyin(vs, act, 12);
    if (typeof b === 'number') return b;
    const dv = new DataView(b.buffer);
    const le = k.littleEndian;
    const handler = dv.getUint32(0, le);
    const smask = dv.getUint32(4, le);
    const flags = dv.getInt32(8, le);
    if ((sig === SIGKILL || sig === SIGSTOP) && handler !== SIG_DFL) return EINVAL;
    ps.ps_sigact[sig] = handler;
    ps.ps_catchmask[sig] = smask & ~sigcantmask;
    ps.ps_trampoline[sig] = tramp;
    if (flags & SA_RESTART) ps.ps_sigintr &= ~mask;
    else ps.ps_sigintr |= mask;
    if (flags & SA_RESETHAND) ps.ps_sigreset |= mask;
    else ps.ps_sigreset &= ~mask;
    if (flags & SA_NODEFER) ps.ps_nodefer |= mask;
    else ps.ps_nodefer &= ~mask;
    if (sig === SIGCHLD) ps.ps_nocldstop = (flags & SA_NOCLDSTOP) !== 0;
    // Ignoring a signal discards it; so does the default action of a signal ignored by default.
    if (handler === SIG_IGN || (sigprop[sig]! & SA_IGNORE && handler === SIG_DFL)) {
      p.p_siglist &= ~mask;
      if (sig !== SIGCONT) p.p_sigignore |= mask;
      p.p_sigcatch &= ~mask;
    } else {
      p.p_sigignore &= ~mask;
      if (handler === SIG_DFL) p.p_sigcatch &= ~mask;
      else p.p_sigcatch |= mask;
    }
  }
  return 0;
}

/** sigprocmask(how, mask): returns the old mask (4.4BSD's calling convention). */
export function sys_sigprocmask(_k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  const how = a[0]!;
  const mask = (a[1]! >>> 0) & ~sigcantmask;
  rv[0] = p.p_sigmask;
  switch (how) {
    case SIG_BLOCK:
      p.p_sigmask |= mask;
      break;
    case SIG_UNBLOCK:
      p.p_sigmask &= ~mask;
      break;
    case SIG_SETMASK:
      p.p_sigmask = mask;
      break;
    default:
      return EINVAL;
  }
  p.p_sigmask >>>= 0;
  return 0;
}

export function sys_sigpending(_k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  rv[0] = p.p_siglist;
  return 0;
}

/** kill(pid, sig): pid > 0 one process, 0 the caller's group, -1 everyone else, < -1 a group. */
export function sys_kill(k: Kernel, p: Proc, a: Int32Array): number {
  const pid = a[0]!;
  const sig = a[1]!;
  if (sig < 0 || sig >= NSIG) return EINVAL;
  if (pid > 0) {
    // A zombie is still there until it is reaped (POSIX; 4.4BSD's pfind missed zombies).
    const q = k.procs.pfind(pid);
    if (!q) return ESRCH;
    if (sig && q.p_stat !== SZOMB) psignal(k, q, sig);
    return 0;
  }
  let n = 0;
  const pgid = pid === 0 ? p.p_pgid : -pid;
  for (const q of [...k.procs.all]) {
    if (pid === -1) {
      if (q.p_pid <= 1 || q === p) continue;
    } else if (q.p_pgid !== pgid) {
      continue;
    }
    if (q.p_stat === SZOMB) continue;
    if (sig) psignal(k, q, sig);
    n++;
  }
  return n ? 0 : ESRCH;
}

/** sigreturn(scp): restores the state the signal frame saved; does not return on success. */
export function sys_sigreturn(k: Kernel, p: Proc, a: Int32Array): number {
  const r = k.md.sigreturn(p, a[0]! >>> 0);
  if (r < 0) return -r;
  p.p_sigmask = (r >>> 0) & ~sigcantmask;
  k.charge(COST.sendsig);
  return EJUSTRETURN;
}

/** Signals of a process that a wait in the kernel should notice now (used by pipe and wait code). */
export function sigpending(p: Proc): boolean {
  return (p.p_siglist & ~p.p_sigmask) !== 0;
}
