/*
 * Linux MIPS o32 system-call numbers the Linux flavour uses (4000 + n; values from the Linux
 * UAPI unistd_o32.h, checked by test/images/linux_abi.test.ts against the installed headers).
 */
#ifndef _LINUX_NR_H_
#define _LINUX_NR_H_

#define LNR_fork		4002
#define LNR_read		4003
#define LNR_write		4004
#define LNR_open		4005
#define LNR_close		4006
#define LNR_link		4009
#define LNR_unlink		4010
#define LNR_execve		4011
#define LNR_chdir		4012
#define LNR_chmod		4015
#define LNR_getpid		4020
#define LNR_getuid		4024
#define LNR_access		4033
#define LNR_kill		4037
#define LNR_rename		4038
#define LNR_mkdir		4039
#define LNR_rmdir		4040
#define LNR_dup			4041
#define LNR_brk			4045
#define LNR_getgid		4047
#define LNR_geteuid		4049
#define LNR_getegid		4050
#define LNR_ioctl		4054
#define LNR_fcntl		4055
#define LNR_setpgid		4057
#define LNR_umask		4060
#define LNR_dup2		4063
#define LNR_getppid		4064
#define LNR_getpgrp		4065
#define LNR_getrusage		4077
#define LNR_gettimeofday	4078
#define LNR_symlink		4083
#define LNR_readlink		4085
#define LNR_munmap		4091
#define LNR_fchmod		4094
#define LNR_fchown		4095
#define LNR_setitimer		4104
#define LNR_getitimer		4105
#define LNR_wait4		4114
#define LNR_fsync		4118
#define LNR_mprotect		4125
#define LNR_fchdir		4133
#define LNR_llseek		4140
#define LNR__newselect		4142
#define LNR_flock		4143
#define LNR_readv		4145
#define LNR_writev		4146
#define LNR_sched_yield		4162
#define LNR_nanosleep		4166
#define LNR_poll		4188
#define LNR_rt_sigreturn	4193
#define LNR_rt_sigaction	4194
#define LNR_rt_sigprocmask	4195
#define LNR_rt_sigpending	4196
#define LNR_rt_sigsuspend	4199
#define LNR_pread64		4200
#define LNR_pwrite64		4201
#define LNR_chown		4202
#define LNR_getcwd		4203
#define LNR_mmap2		4210
#define LNR_truncate64		4211
#define LNR_ftruncate64		4212
#define LNR_stat64		4213
#define LNR_lstat64		4214
#define LNR_fstat64		4215
#define LNR_getdents64		4219
#define LNR_fcntl64		4220
#define LNR_exit_group		4246
#define LNR_utimes		4267
#define LNR_pipe2		4328

/*
 * o32 passes a 64-bit system-call argument in an even/odd register pair (or an 8-byte aligned
 * stack slot): the calls that take one (pread64, pwrite64, truncate64, ftruncate64) have a pad
 * word before it.
 */
#define LSYS_PAD64		1

#endif /* !_LINUX_NR_H_ */
