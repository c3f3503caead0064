/**
 * Identity calls (4.4BSD kern_prot.c): pids, process groups, and the user and group ids — every
 * process runs as root (uid 0, gid 0).
 */
import { EINVAL, EPERM, ESRCH } from './errno.js';
import type { Kernel } from './kernel.js';
import { type Proc, SZOMB } from './proc.js';

/** getpid: the pid, and (4.4BSD's compatibility second value) the parent's pid. */
export function sys_getpid(_k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  rv[0] = p.p_pid;
  rv[1] = p.p_pptr?.p_pid ?? 0;
  return 0;
}

export function sys_getppid(_k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  rv[0] = p.p_pptr?.p_pid ?? 0;
  return 0;
}

export function sys_getuid(_k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  rv[0] = p.p_uid;
  rv[1] = p.p_uid;
  return 0;
}

export const sys_geteuid = sys_getuid;

export function sys_getgid(_k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  rv[0] = p.p_gid;
  rv[1] = p.p_gid;
  return 0;
}

export const sys_getegid = sys_getgid;

export function sys_getpgrp(_k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  rv[0] = p.p_pgid;
  return 0;
}

/** setpgid(pid, pgid): the caller or one of its children, into a group of the same session. */
export function sys_setpgid(k: Kernel, p: Proc, a: Int32Array): number {
  let pid = a[0]!;
  let pgid = a[1]!;
  if (pgid < 0) return EINVAL;
  if (pid === 0) pid = p.p_pid;
  const t = k.procs.pfind(pid);
  if (!t || t.p_stat === SZOMB) return ESRCH;
  if (t !== p && t.p_pptr !== p) return ESRCH;
  if (pgid === 0) pgid = t.p_pid;
  if (pgid !== t.p_pid && !k.procs.all.some((q) => q.p_pgid === pgid && q.p_stat !== SZOMB)) return EPERM;
  t.p_pgid = pgid;
  return 0;
}
