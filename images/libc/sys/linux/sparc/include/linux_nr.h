/*
 * Linux sparc32 system-call numbers the Linux flavour uses (values from the Linux UAPI
 * unistd_32.h of sparc, checked by test/images/linux_abi.test.ts against the installed headers).
 */
#ifndef _LINUX_NR_H_
#define _LINUX_NR_H_

#define LNR_fork		2
#define LNR_read		3
#define LNR_write		4
#define LNR_open		5
#define LNR_close		6
#define LNR_wait4		7
#define LNR_link		9
#define LNR_unlink		10
#define LNR_chdir		12
#define LNR_chmod		15
#define LNR_brk			17
#define LNR_getpid		20
#define LNR_getuid		24
#define LNR_fchown32		32
#define LNR_access		33
#define LNR_chown32		35
#define LNR_kill		37
#define LNR_dup			41
#define LNR_getgid		47
#define LNR_geteuid		49
#define LNR_getegid		50
#define LNR_ioctl		54
#define LNR_mmap2		56
#define LNR_symlink		57
#define LNR_readlink		58
#define LNR_execve		59
#define LNR_umask		60
#define LNR_fstat64		63
#define LNR_pread64		67
#define LNR_pwrite64		68
#define LNR_munmap		73
#define LNR_mprotect		74
#define LNR_truncate64		77
#define LNR_getpgrp		81
#define LNR_setitimer		83
#define LNR_ftruncate64		84
#define LNR_getitimer		86
#define LNR_dup2		90
#define LNR_fcntl		92
#define LNR_fsync		95
#define LNR_rt_sigreturn	101
#define LNR_rt_sigaction	102
#define LNR_rt_sigprocmask	103
#define LNR_rt_sigpending	104
#define LNR_rt_sigsuspend	107
#define LNR_gettimeofday	116
#define LNR_getrusage		117
#define LNR_getcwd		119
#define LNR_readv		120
#define LNR_writev		121
#define LNR_fchmod		124
#define LNR_rename		128
#define LNR_flock		131
#define LNR_lstat64		132
#define LNR_mkdir		136
#define LNR_rmdir		137
#define LNR_utimes		138
#define LNR_stat64		139
#define LNR_poll		153
#define LNR_getdents64		154
#define LNR_fcntl64		155
#define LNR_fchdir		176
#define LNR_setpgid		185
#define LNR_exit_group		188
#define LNR_getppid		197
#define LNR_sigreturn		216
#define LNR__newselect		230
#define LNR_llseek		236
#define LNR_sched_yield		245
#define LNR_nanosleep		249
#define LNR_pipe2		321

/* sparc32 passes a 64-bit system-call argument in the next two words, with no pad. */
#define LSYS_PAD64		0

#endif /* !_LINUX_NR_H_ */
