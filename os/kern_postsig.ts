/**
 * Acting on signals (4.4BSD kern_sig.c's postsig and sigexit) and sigsuspend, the call that
 * sleeps until a signal is taken: the part of kern_sig.c above exit1 and tsleep. Posting and
 * picking signals (os/kern_sig.ts) sits below both, since exit1 signals the parent and tsleep
 * checks for signals.
 */
import { EINTR } from './errno.js';
import { exit1 } from './kern_exit.js';
import { deliver } from './kern_sig.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { PCATCH, PPAUSE } from './param.js';
import type { KGen, Proc } from './proc.js';
import { SA_CORE, SIG_DFL, SIGILL, SIGNAMES, W_EXITCODE, WCOREFLAG, sigcantmask, sigmask, sigprop } from './signal.js';

/** Takes the action for sig (4.4BSD postsig): a handler frame, or the default (termination). */
export function* postsig(k: Kernel, p: Proc, sig: number): KGen<void> {
  const ps = p.p_sigacts;
  const mask = sigmask(sig);
  p.p_siglist &= ~mask;
  const action = ps.ps_sigact[sig]!;
  if (action === SIG_DFL) {
    yield* sigexit(k, p, sig);
    return;
  }
  const code = ps.ps_sig === sig ? ps.ps_code : 0;
  ps.ps_sig = 0;
  ps.ps_code = 0;
  if (!deliver(k, p, sig, code)) yield* sigexit(k, p, SIGILL); // the frame could not be written
}

/** Terminates curproc because of sig (4.4BSD sigexit); "core" is reported, no file written. */
export function* sigexit(k: Kernel, p: Proc, sig: number): KGen<never> {
  let status = W_EXITCODE(0, sig);
  if (sigprop[sig]! & SA_CORE) status |= WCOREFLAG;
  k.log.debug({ pid: p.p_pid, sig: SIGNAMES[sig] }, 'killed by signal');
  return yield* exit1(k, p, status);
}

// --- system calls ---

/** sigsuspend(mask): waits for a signal with mask installed; returns EINTR after the handler. */
export function* sys_sigsuspend(k: Kernel, p: Proc, a: Int32Array): KGen<number> {
  p.p_oldmask = p.p_sigmask;
  p.p_hasoldmask = true;
  p.p_sigmask = (a[0]! >>> 0) & ~sigcantmask;
  const chan = p.p_sigacts;
  while ((yield* tsleep(k, chan, PPAUSE | PCATCH, 'pause', 0)) === 0);
  return EINTR;
}
