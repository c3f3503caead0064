/*
 * The interface between the two halves of newlib's system layer (docs/toolchain.md "newlib"):
 *
 *   newlib.c  compiled against newlib's headers: the POSIX-named calls newlib makes (it is built
 *             with MISSING_SYSCALL_NAMES: read, write, open, fstat, sbrk, kill ...), in newlib's
 *             types, flag values and errno numbers;
 *   emu.c     compiled against this project's headers (images/libc/include) and linked with the
 *             project's syscall layer of either flavour (libc/sys/bsd or libc/sys/linux): it
 *             converts between the project's values and the neutral ones declared here.
 *
 * The project's syscall layer is linked with every global symbol renamed `__emu_<name>`, so that
 * its `read` does not clash with newlib.c's. Only fixed-width C types cross this interface; flag
 * bits, signals and errno values cross it as neutral indices into the name lists below, which
 * each half expands with its own headers' values. A name in a list must be defined by both.
 */
#ifndef _NEWLIB_GLUE_H_
#define _NEWLIB_GLUE_H_

/* errno values: index in this list + 1 (0 means "not in the list"). */
#define NL_ERRNOS(X) \
	X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(ENXIO) X(E2BIG) X(ENOEXEC) X(EBADF) \
	X(ECHILD) X(EDEADLK) X(ENOMEM) X(EACCES) X(EFAULT) X(EBUSY) X(EEXIST) X(EXDEV) \
	X(ENODEV) X(ENOTDIR) X(EISDIR) X(EINVAL) X(ENFILE) X(EMFILE) X(ENOTTY) X(ETXTBSY) X(EFBIG) \
	X(ENOSPC) X(ESPIPE) X(EROFS) X(EMLINK) X(EPIPE) X(EDOM) X(ERANGE) X(EAGAIN) X(EINPROGRESS) \
	X(EALREADY) X(ENOTSOCK) X(EDESTADDRREQ) X(EMSGSIZE) X(EPROTOTYPE) X(ENOPROTOOPT) \
	X(EPROTONOSUPPORT) X(EOPNOTSUPP) X(EPFNOSUPPORT) X(EAFNOSUPPORT) \
	X(EADDRINUSE) X(EADDRNOTAVAIL) X(ENETDOWN) X(ENETUNREACH) X(ENETRESET) X(ECONNABORTED) \
	X(ECONNRESET) X(ENOBUFS) X(EISCONN) X(ENOTCONN) X(ETOOMANYREFS) X(ETIMEDOUT) \
	X(ECONNREFUSED) X(ELOOP) X(ENAMETOOLONG) X(EHOSTDOWN) X(EHOSTUNREACH) X(ENOTEMPTY) \
	X(EDQUOT) X(ESTALE) X(ENOLCK) X(ENOSYS) X(EFTYPE) \
	X(EIDRM) X(ENOMSG) X(EOVERFLOW) X(ECANCELED) X(EILSEQ)

/* Signals: index + 1, as for errno. Neutral signal sets have bit (index) set. */
#define NL_SIGNALS(X) \
	X(SIGHUP) X(SIGINT) X(SIGQUIT) X(SIGILL) X(SIGTRAP) X(SIGABRT) X(SIGEMT) X(SIGFPE) \
	X(SIGKILL) X(SIGBUS) X(SIGSEGV) X(SIGSYS) X(SIGPIPE) X(SIGALRM) X(SIGTERM) X(SIGURG) \
	X(SIGSTOP) X(SIGTSTP) X(SIGCONT) X(SIGCHLD) X(SIGTTIN) X(SIGTTOU) X(SIGIO) X(SIGXCPU) \
	X(SIGXFSZ) X(SIGVTALRM) X(SIGPROF) X(SIGWINCH) X(SIGUSR1) X(SIGUSR2)

/* open(2) and F_GETFL/F_SETFL flags other than the access mode: bit (index). */
#define NL_OFLAGS(X) X(O_APPEND) X(O_CREAT) X(O_TRUNC) X(O_EXCL) X(O_NONBLOCK) X(O_NOCTTY)

/* Access modes, fcntl commands and sigprocmask's how: index + 1. */
#define NL_ACCMODES(X)	X(O_RDONLY) X(O_WRONLY) X(O_RDWR)
#define NL_FCNTLS(X)	X(F_DUPFD) X(F_GETFD) X(F_SETFD) X(F_GETFL) X(F_SETFL)
#define NL_HOWS(X)	X(SIG_BLOCK) X(SIG_UNBLOCK) X(SIG_SETMASK)
/* waitpid options: bit (index). */
#define NL_WAITOPTS(X)	X(WNOHANG) X(WUNTRACED)

/*
 * Each half's tables of the lists above, in its own headers' values, and the two lookups:
 * neutral(tab, N(tab), value) gives index + 1 (0 when absent), native(tab, N(tab), index + 1)
 * the value (-1 when out of range).
 */
#define NL_VALUE(name)	name,
#define NL_TABLES \
	static const int errnos[] = { NL_ERRNOS(NL_VALUE) }; \
	static const int signals[] = { NL_SIGNALS(NL_VALUE) }; \
	static const int oflags[] = { NL_OFLAGS(NL_VALUE) }; \
	static const int accmodes[] = { NL_ACCMODES(NL_VALUE) }; \
	static const int fcntls[] = { NL_FCNTLS(NL_VALUE) }; \
	static const int hows[] = { NL_HOWS(NL_VALUE) }; \
	static const int waitopts[] = { NL_WAITOPTS(NL_VALUE) };
#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))

static inline int
neutral(const int *tab, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (tab[i] == v)
			return i + 1;
	return 0;
}

static inline int
native(const int *tab, int n, int idx)
{
	return idx >= 1 && idx <= n ? tab[idx - 1] : -1;
}

/* File status in neutral form (the fields newlib's struct stat has). */
struct __nl_stat {
	unsigned int dev, ino, mode, nlink, uid, gid, rdev, blksize;
	long long size, blocks;
	long long atime, mtime, ctime;
	long atime_ns, mtime_ns, ctime_ns;
};

/*
 * A signal action in neutral form: what happens (NL_SIG_DFL, NL_SIG_IGN, or NL_SIG_CATCH: emu.c
 * calls __nl_deliver with the neutral signal), the neutral set blocked while it runs, and flags.
 */
struct __nl_sigaction {
	int kind;
	unsigned int mask;
	unsigned int flags;
};
#define NL_SIG_DFL	0
#define NL_SIG_IGN	1
#define NL_SIG_CATCH	2
#define NL_SA_NOCLDSTOP	1U	/* no SIGCHLD when a child stops */
#define NL_SA_RESTART	2U	/* interrupted calls restart (signal()'s BSD semantics) */

/* Process times, microseconds. */
struct __nl_times {
	long long utime, stime, cutime, cstime, real;
};

/*
 * emu.c: each returns the project call's result; on failure -1, and __nl_emu_errno() gives the
 * neutral errno (0 when the project's value has no newlib name). Flags, commands, signals and
 * sets are neutral on both sides.
 */
int __nl_emu_errno(void);
int __nl_emu_open(const char *path, int accmode, unsigned int oflags, int mode);
int __nl_emu_fcntl(int fd, int cmd, int arg);
int __nl_emu_fstat(int fd, struct __nl_stat *st);
int __nl_emu_stat(const char *path, struct __nl_stat *st);
int __nl_emu_lstat(const char *path, struct __nl_stat *st);
int __nl_emu_kill(int pid, int sig);
int __nl_emu_sigprocmask(int how, const unsigned int *set, unsigned int *oset);
int __nl_emu_waitpid(int pid, int *status, unsigned int options);
int __nl_emu_gettimeofday(long long *sec, long *usec);
int __nl_emu_times(struct __nl_times *t);
long long __nl_emu_lseek(int fd, long long off, int whence);
int __nl_emu_sigaction(int sig, const struct __nl_sigaction *act, struct __nl_sigaction *oact);

/* newlib.c: runs the handler newlib's program installed for a caught neutral signal. */
void __nl_deliver(int sig);

/*
 * The project's calls whose arguments and results need no conversion (renamed, see above):
 * descriptors, paths, ids, permission bits and access(2) modes mean the same on both sides.
 */
int __emu_read(int fd, void *buf, unsigned long n);
int __emu_write(int fd, const void *buf, unsigned long n);
int __emu_close(int fd);
int __emu_getpid(void);
int __emu_isatty(int fd);
int __emu_unlink(const char *path);
int __emu_mkdir(const char *path, unsigned int mode);
int __emu_fork(void);
int __emu_execve(const char *path, char *const argv[], char *const envp[]);
int __emu_execv(const char *path, char *const argv[]);
int __emu_execvp(const char *file, char *const argv[]);
int __emu_pipe(int fds[2]);
int __emu_dup(int fd);
int __emu_dup2(int fd, int to);
int __emu_chdir(const char *path);
int __emu_rmdir(const char *path);
int __emu_access(const char *path, int mode);
int __emu_chmod(const char *path, unsigned int mode);
unsigned int __emu_umask(unsigned int mask);
int __emu_getppid(void);
unsigned int __emu_getuid(void);
unsigned int __emu_geteuid(void);
unsigned int __emu_getgid(void);
unsigned int __emu_getegid(void);
void *__emu_sbrk(long incr);
void __emu__exit(int status) __attribute__((__noreturn__));

#endif /* !_NEWLIB_GLUE_H_ */
