/**
 * userret: the way back to user mode (4.4BSD trap.c's userret and the AST), shared by the trap
 * path (os/trap.ts), the system-call path (os/syscall.ts) and a new process's first return
 * (os/kern_fork.ts). Below all three: it calls only signal delivery, the run queues and the
 * tracing hooks.
 */
import { CURSIG, postsig } from './kern_sig.js';
import { setrunqueue } from './kern_synch.js';
import type { Kernel } from './kernel.js';
import type { KGen, Proc } from './proc.js';

/**
 * userret: the way back to user mode (4.4BSD userret + the AST): deliver pending signals, then
 * give up the CPU if a reschedule was requested, then the tracing hooks.
 */
export function* userret(k: Kernel, p: Proc): KGen<void> {
  for (;;) {
    let sig: number;
    while ((sig = yield* CURSIG(k, p)) !== 0) yield* postsig(k, p, sig);
    p.p_priority = p.p_usrpri;
    if (k.want_resched) {
      // Preemption: back on the run queue, and the machine loop switches (4.4BSD mi_switch).
      setrunqueue(k, p);
      p.p_ru.nivcsw++;
      yield;
      while ((sig = yield* CURSIG(k, p)) !== 0) yield* postsig(k, p, sig);
    }
    const g = userRetHooks(k, p);
    if (!g) return;
    yield* g;
  }
}

/** Runs the userRet hooks; the first one that needs the kernel thread returns its generator. */
export function userRetHooks(k: Kernel, p: Proc): KGen<void> | null {
  for (const h of k.hooks) {
    const g = h.userRet?.(p);
    if (g) return g;
  }
  return null;
}

