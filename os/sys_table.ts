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
import { sys_sigsuspend } from './kern_postsig.js';
import { sys_kill, sys_sigaction, sys_sigpending, sys_sigprocmask, sys_sigreturn } from './kern_sig.js';
import {
  sys_getitimer, sys_getrusage, sys_gettimeofday, sys_nanosleep, sys_sched_yield, sys_setitimer,
} from './kern_time.js';
import {
  sys_close, sys_dup, sys_dup2, sys_fcntl, sys_flock, sys_fstat, sys_ioctl, sys_pread, sys_pwrite, sys_read, sys_readv,
  sys_write, sys_writev,
} from './sys_generic.js';
import { sys_pipe } from './sys_pipe.js';
import { sys_trbufmap } from './sys_trbuf.js';
import { sys_poll, sys_select } from './sys_select.js';
import {
  sys_access, sys_chdir, sys_chmod, sys_chown, sys_fchdir, sys_fchmod, sys_fchown, sys_fsync, sys_ftruncate,
  sys_getdirentries, sys_link, sys_lseek, sys_lstat, sys_mkdir, sys_open, sys_readlink, sys_rename, sys_rmdir, sys_stat,
  sys_symlink, sys_truncate, sys_umask, sys_unlink, sys_utimes,
} from './vfs_syscalls.js';
import { sys_break, sys_mmap, sys_mprotect, sys_munmap } from './vm/vm_mmap.js';

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
  link: sys_link,
  unlink: sys_unlink,
  chdir: sys_chdir,
  fchdir: sys_fchdir,
  chmod: sys_chmod,
  chown: sys_chown,
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
  symlink: sys_symlink,
  readlink: sys_readlink,
  execve: sys_execve,
  umask: sys_umask,
  munmap: sys_munmap,
  mprotect: sys_mprotect,
  getpgrp: sys_getpgrp,
  setpgid: sys_setpgid,
  setitimer: sys_setitimer,
  getitimer: sys_getitimer,
  dup2: sys_dup2,
  fcntl: sys_fcntl,
  select: sys_select,
  fsync: sys_fsync,
  sigreturn: sys_sigreturn,
  sigsuspend: sys_sigsuspend,
  gettimeofday: sys_gettimeofday,
  getrusage: sys_getrusage,
  readv: sys_readv,
  writev: sys_writev,
  fchown: sys_fchown,
  fchmod: sys_fchmod,
  rename: sys_rename,
  flock: sys_flock,
  mkdir: sys_mkdir,
  rmdir: sys_rmdir,
  utimes: sys_utimes,
  pread: sys_pread,
  pwrite: sys_pwrite,
  stat: sys_stat,
  fstat: sys_fstat,
  lstat: sys_lstat,
  getdirentries: sys_getdirentries,
  mmap: sys_mmap,
  lseek: sys_lseek,
  truncate: sys_truncate,
  ftruncate: sys_ftruncate,
  poll: sys_poll,
  trbufmap: sys_trbufmap,
  nanosleep: sys_nanosleep,
  sched_yield: sys_sched_yield,
};
