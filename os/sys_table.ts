/**
 * The kernel's system-call implementations by name: os/syscall.ts builds `sysent` from
 * os/syscalls.master and this table. A generator implementation may sleep; a plain one may not.
 */
import type { Kernel } from './kernel.js';
import type { KGen, Proc } from './proc.js';
import { sys_execve } from './kern_exec.js';
import { sys_exit, sys_wait4 } from './kern_exit.js';
import { sys_fork } from './kern_fork.js';
import { sys_getegid, sys_geteuid, sys_getgid, sys_getpgrp, sys_getpid, sys_getppid, sys_getuid, sys_setpgid } from './kern_prot.js';
import { sys_kill, sys_sigaction, sys_sigpending, sys_sigprocmask, sys_sigreturn, sys_sigsuspend } from './kern_sig.js';
import { sys_getrusage, sys_gettimeofday, sys_nanosleep, sys_sched_yield } from './kern_time.js';
import { sys_close, sys_dup, sys_dup2, sys_fcntl, sys_fstat, sys_ioctl, sys_read, sys_write } from './sys_generic.js';
import { sys_pipe } from './sys_pipe.js';
import {
  sys_access, sys_chdir, sys_chmod, sys_getdirentries, sys_lseek, sys_lstat, sys_mkdir, sys_open, sys_rename,
  sys_rmdir, sys_stat, sys_umask, sys_unlink,
} from './vfs_syscalls.js';
import { sys_break } from './vm/vm_mmap.js';

/** An implementation: args are the fetched argument words, rv the two return values. */
export type SyscallImpl = (k: Kernel, p: Proc, args: Int32Array, rv: Int32Array) => number | KGen<number>;

export const SYSCALL_IMPLS: Readonly<Record<string, SyscallImpl>> = {
  exit: sys_exit,
  fork: sys_fork,
  read: sys_read,
  write: sys_write,
  open: sys_open,
  close: sys_close,
  wait4: sys_wait4,
  unlink: sys_unlink,
  chdir: sys_chdir,
  chmod: sys_chmod,
  break: sys_break,
  getpid: sys_getpid,
  getuid: sys_getuid,
  geteuid: sys_geteuid,
  access: sys_access,
  kill: sys_kill,
  getppid: sys_getppid,
  dup: sys_dup,
  pipe: sys_pipe,
  getegid: sys_getegid,
  sigaction: sys_sigaction,
  getgid: sys_getgid,
  sigprocmask: sys_sigprocmask,
  sigpending: sys_sigpending,
  ioctl: sys_ioctl,
  execve: sys_execve,
  umask: sys_umask,
  getpgrp: sys_getpgrp,
  setpgid: sys_setpgid,
  dup2: sys_dup2,
  fcntl: sys_fcntl,
  sigreturn: sys_sigreturn,
  sigsuspend: sys_sigsuspend,
  gettimeofday: sys_gettimeofday,
  getrusage: sys_getrusage,
  rename: sys_rename,
  mkdir: sys_mkdir,
  rmdir: sys_rmdir,
  stat: sys_stat,
  fstat: sys_fstat,
  lstat: sys_lstat,
  getdirentries: sys_getdirentries,
  lseek: sys_lseek,
  nanosleep: sys_nanosleep,
  sched_yield: sys_sched_yield,
};
