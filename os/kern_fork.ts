/**
 * fork1 (4.4BSD kern_fork.c): a new process that is a copy of curproc — copy-on-write address
 * space, shared open files (a copy of the descriptor table), copied signal actions and mask.
 */
import { COST } from './cost.js';
import { EAGAIN, EFAULT, ENOMEM } from './errno.js';
import { fdfree } from './kern_descrip.js';
import { setrunqueue } from './kern_synch.js';
import type { Kernel } from './kernel.js';
import { type KThread, Proc, SRUN } from './proc.js';
import { userret } from './userret.js';

/** The child's first kernel thread: straight back to user mode (4.4BSD child_return). */
function* child_return(k: Kernel, p: Proc): KThread {
  yield* userret(k, p);
}

/** Creates a child of p1; returns an errno, or 0 with rv = (child pid, 0). */
export function fork1(k: Kernel, p1: Proc, rv: Int32Array): number {
  if (k.procs.nprocs >= k.procs.maxproc) {
    k.log.debug({ pid: p1.p_pid, nprocs: k.procs.nprocs }, 'fork: process table full');
    return EAGAIN;
  }
  const pid = k.procs.allocPid();
  const p2 = new Proc(pid, p1.p_sigacts.copy(), p1.p_fd.copy(), k.md.pcbNew());
  // The machine state first: SPARC writes the parent's windows to its stack, which the child
  // must find there once the address space is shared copy-on-write.
  if (!k.md.cpu_fork(p1, p2, p1.p_pid, 1)) {
    fdfree(k, p2);
    return EFAULT;
  }
  const vs = p1.p_vmspace!.fork();
  if (!vs) {
    fdfree(k, p2);
    return ENOMEM;
  }
  p2.p_pgid = p1.p_pgid;
  p2.p_sigmask = p1.p_sigmask;
  p2.p_sigignore = p1.p_sigignore;
  p2.p_sigcatch = p1.p_sigcatch;
  p2.p_nice = p1.p_nice;
  p2.p_estcpu = p1.p_estcpu;
  p2.p_priority = p1.p_priority;
  p2.p_usrpri = p1.p_usrpri;
  p2.p_comm = p1.p_comm;
  p2.p_path = p1.p_path;
  p2.p_uid = p1.p_uid;
  p2.p_gid = p1.p_gid;
  p2.p_umask = p1.p_umask;
  p2.p_vmspace = vs;
  p2.p_pptr = p1;
  p1.p_children.push(p2);
  p2.stats.start = k.clock.now;
  k.procs.insert(p2);
  k.history.push(p2);
  p2.p_kthread = child_return(k, p2);
  p2.p_stat = SRUN;
  k.charge(COST.fork + vs.entries.length * 100);
  for (const h of k.hooks) h.fork?.(p1, p2);
  k.truth?.fork(p1.p_pid, p2.p_pid);
  k.log.debug({ pid: p1.p_pid, child: pid }, 'fork');
  setrunqueue(k, p2);
  rv[0] = pid;
  rv[1] = 0;
  return 0;
}

export function sys_fork(k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  return fork1(k, p, rv);
}
