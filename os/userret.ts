/**
 * The return to user mode (4.4BSD trap.c's userret), in its own file below trap(): a system call
 * that slept (os/syscall.ts) and a new child's first return (os/kern_fork.ts) end in it too, and
 * trap() reaches fork through the system-call table, so neither may import trap.ts.
 */
import { CURSIG } from './kern_sig.js';
import { postsig } from './kern_postsig.js';
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
