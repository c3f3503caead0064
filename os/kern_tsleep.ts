/**
 * tsleep (4.4BSD kern_synch.c): a process's sleep on a wait channel, which a signal may end.
 * It consults the signal code (CURSIG, os/kern_sig.ts), and the signal code posts to sleeping
 * processes through the sleep and run queues (os/kern_synch.ts): so the sleep that checks for
 * signals sits above both, where 4.4BSD kept it in one C file with wakeup.
 */
import { EINTR, ERESTART, EWOULDBLOCK } from './errno.js';
import { CURSIG } from './kern_sig.js';
import { setrunnable, unsleep } from './kern_synch.js';
import type { Kernel } from './kernel.js';
import { PCATCH, PRIMASK } from './param.js';
import { type KGen, P_SINTR, P_TIMEOUT, type Proc, SRUN, SSLEEP } from './proc.js';
import { sigmask } from './signal.js';

/** The timeout of a tsleep (4.4BSD endtsleep). */
function endtsleep(k: Kernel, p: Proc): void {
  p.p_sleepto = null;
  if (p.p_wchan !== null) {
    if (p.p_stat === SSLEEP) setrunnable(k, p);
    else unsleep(k, p);
    p.p_flag |= P_TIMEOUT;
  }
}

/**
 * tsleep (4.4BSD): sleeps on `chan` at priority pri until wakeup(chan). With PCATCH a signal
 * ends the sleep: EINTR, or ERESTART when the handler asked for SA_RESTART. timo > 0 ends it
 * after that many ticks with EWOULDBLOCK. Must be called from curproc's kernel thread
 * (`yield* tsleep(...)`).
 */
export function* tsleep(k: Kernel, chan: object, pri: number, wmesg: string, timo: number): KGen<number> {
  const p = k.curproc!;
  const catchsig = (pri & PCATCH) !== 0;
  let sig = 0;
  p.p_wchan = chan;
  p.p_wmesg = wmesg;
  p.p_slptime = 0;
  p.p_priority = pri & PRIMASK;
  let q = k.sleepq.get(chan);
  if (!q) k.sleepq.set(chan, (q = []));
  q.push(p);
  if (timo) p.p_sleepto = k.clock.timeout(() => endtsleep(k, p), timo);
  let slept = false;
  if (catchsig) {
    p.p_flag |= P_SINTR;
    sig = yield* CURSIG(k, p);
    if (sig) {
      if (p.p_wchan !== null) unsleep(k, p);
      p.p_stat = SRUN;
    } else if (p.p_wchan === null) {
      // Woken while checking for signals (a stop and continue).
    } else {
      slept = true;
    }
  } else {
    slept = true;
  }
  if (slept) {
    p.p_stat = SSLEEP;
    p.p_ru.nvcsw++;
    yield;
  }
  p.p_flag &= ~P_SINTR;
  if (p.p_flag & P_TIMEOUT) {
    p.p_flag &= ~P_TIMEOUT;
    if (sig === 0) return EWOULDBLOCK;
  } else if (timo && p.p_sleepto) {
    k.clock.untimeout(p.p_sleepto as never);
    p.p_sleepto = null;
  }
  if (catchsig && (sig !== 0 || (sig = yield* CURSIG(k, p)) !== 0)) {
    if (p.p_sigacts.ps_sigintr & sigmask(sig)) return EINTR;
    return ERESTART;
  }
  return 0;
}
