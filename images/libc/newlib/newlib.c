/*
 * newlib's half of its system layer (glue.h): the calls newlib makes by their POSIX names (it is
 * configured with MISSING_SYSCALL_NAMES), compiled against newlib's headers. Each forwards to the
 * project's syscall layer, directly or through emu.c, and converts newlib's values.
 *
 * errno: newlib's reentrant wrappers (libc/reent/readr.c ...) clear the global `errno`, make the
 * call, and copy a nonzero global errno into the thread's errno (_REENT->_errno) on failure; a
 * program calling read() itself reads _REENT->_errno. A failing call here sets both, in newlib's
 * numbering. The project's syscall layer stores its own numbering in the same global first.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "glue.h"

/* The global errno newlib's reentrant wrappers read (defined in newlib's libc/reent/reent.c). */
#undef errno
extern int errno;

NL_TABLES

static int
set_errno(int e)
{
	errno = e;
	*__errno() = e;
	return -1;
}

/* The failure exit of every call: the project's errno in newlib's numbering (EIO if it has none). */
static int
fail(void)
{
	int e = native(errnos, N(errnos), __nl_emu_errno());

	return set_errno(e < 0 ? EIO : e);
}

static int
result(int r)
{
	return r < 0 ? fail() : r;
}

ssize_t
read(int fd, void *buf, size_t n)
{
	return result(__emu_read(fd, buf, n));
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	return result(__emu_write(fd, buf, n));
}

int
open(const char *path, int flags, ...)
{
	va_list ap;
	int mode = 0, acc = neutral(accmodes, N(accmodes), flags & O_ACCMODE);
	unsigned int nf = 0;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	if (acc == 0)
		return set_errno(EINVAL);
	for (int i = 0; i < N(oflags); i++) {
		if (flags & oflags[i]) {
			nf |= 1U << i;
			flags &= ~oflags[i];
		}
	}
	/* A flag the project's open has no equivalent for is refused, not dropped. */
	if (flags & ~O_ACCMODE)
		return set_errno(EINVAL);
	return result(__nl_emu_open(path, acc, nf, mode));
}

int
close(int fd)
{
	return result(__emu_close(fd));
}

off_t
lseek(int fd, off_t off, int whence)
{
	long long r = __nl_emu_lseek(fd, off, whence);

	if (r < 0)
		return fail();
	if (r != (off_t)r)
		return set_errno(EOVERFLOW);
	return (off_t)r;
}

int
fcntl(int fd, int cmd, ...)
{
	va_list ap;
	int arg, c = neutral(fcntls, N(fcntls), cmd), r, acc, f;
	unsigned int nf = 0;

	va_start(ap, cmd);
	arg = va_arg(ap, int);
	va_end(ap);
	if (c == 0)
		return set_errno(EINVAL);
	if (cmd == F_SETFL) {
		for (int i = 0; i < N(oflags); i++)
			if (arg & oflags[i])
				nf |= 1U << i;
		arg = (int)(nf << 2);
	}
	r = __nl_emu_fcntl(fd, c, arg);
	if (r < 0)
		return fail();
	if (cmd == F_GETFL) {
		acc = native(accmodes, N(accmodes), r & 3);
		f = acc < 0 ? 0 : acc;
		for (int i = 0; i < N(oflags); i++)
			if ((unsigned int)r >> 2 & (1U << i))
				f |= oflags[i];
		r = f;
	}
	return r;
}

static void
stat_from_neutral(const struct __nl_stat *n, struct stat *s)
{
	s->st_dev = n->dev;
	s->st_ino = n->ino;
	s->st_mode = n->mode;
	s->st_nlink = n->nlink;
	s->st_uid = n->uid;
	s->st_gid = n->gid;
	s->st_rdev = n->rdev;
	s->st_size = n->size;
	s->st_atim.tv_sec = n->atime;
	s->st_atim.tv_nsec = n->atime_ns;
	s->st_mtim.tv_sec = n->mtime;
	s->st_mtim.tv_nsec = n->mtime_ns;
	s->st_ctim.tv_sec = n->ctime;
	s->st_ctim.tv_nsec = n->ctime_ns;
	s->st_blksize = n->blksize;
	s->st_blocks = n->blocks;
}

int
fstat(int fd, struct stat *s)
{
	struct __nl_stat n;

	if (__nl_emu_fstat(fd, &n) < 0)
		return fail();
	stat_from_neutral(&n, s);
	return 0;
}

static int
path_stat(int (*f)(const char *, struct __nl_stat *), const char *path, struct stat *s)
{
	struct __nl_stat n;

	if (f(path, &n) < 0)
		return fail();
	stat_from_neutral(&n, s);
	return 0;
}

int
stat(const char *path, struct stat *s)
{
	return path_stat(__nl_emu_stat, path, s);
}

int
lstat(const char *path, struct stat *s)
{
	return path_stat(__nl_emu_lstat, path, s);
}

int
isatty(int fd)
{
	/* The project's isatty answers 0 or 1; a descriptor that is not a terminal is ENOTTY. */
	if (__emu_isatty(fd))
		return 1;
	set_errno(ENOTTY);
	return 0;
}

int
unlink(const char *path)
{
	return result(__emu_unlink(path));
}

int
mkdir(const char *path, mode_t mode)
{
	return result(__emu_mkdir(path, mode & 07777));
}

pid_t
getpid(void)
{
	return __emu_getpid();
}

int
kill(pid_t pid, int sig)
{
	int s = sig == 0 ? 0 : neutral(signals, N(signals), sig);

	if (sig != 0 && s == 0)
		return set_errno(EINVAL);
	return result(__nl_emu_kill(pid, s));
}

static unsigned int
set_to_neutral(const sigset_t *set)
{
	unsigned int n = 0;

	for (int i = 0; i < N(signals); i++)
		if (sigismember(set, signals[i]) == 1)
			n |= 1U << i;
	return n;
}

static void
set_from_neutral(unsigned int n, sigset_t *set)
{
	sigemptyset(set);
	for (int i = 0; i < N(signals); i++)
		if (n & (1U << i))
			sigaddset(set, signals[i]);
}

int
sigprocmask(int how, const sigset_t *set, sigset_t *oset)
{
	unsigned int nset = 0, noset;
	int h = neutral(hows, N(hows), how);

	if (set) {
		if (h == 0)
			return set_errno(EINVAL);
		nset = set_to_neutral(set);
	}
	if (__nl_emu_sigprocmask(h, set ? &nset : 0, &noset) < 0)
		return fail();
	if (oset)
		set_from_neutral(noset, oset);
	return 0;
}

/*
 * Signals are the kernel's (newlib is built with SIGNAL_PROVIDED: its raise is kill(getpid(),
 * sig), and signal and sigaction are these). The handlers of newlib's program live here, by
 * newlib signal number; the kernel runs emu.c's catcher, which comes back to __nl_deliver.
 * Only one-argument handlers exist here: SA_SIGINFO is refused.
 */
static _sig_func_ptr handlers[NSIG];

void
__nl_deliver(int nsig)
{
	int sig = native(signals, N(signals), nsig);

	if (sig > 0 && sig < NSIG && handlers[sig] != SIG_DFL && handlers[sig] != SIG_IGN)
		handlers[sig](sig);
}

static int
install(int sig, _sig_func_ptr func, const sigset_t *mask, unsigned int flags, _sig_func_ptr *ofunc, sigset_t *omask, unsigned int *oflags)
{
	struct __nl_sigaction na, ona;
	int n = neutral(signals, N(signals), sig);
	_sig_func_ptr old;

	if (n == 0 || sig >= NSIG)
		return set_errno(EINVAL);
	old = handlers[sig];
	if (func != SIG_ERR) {
		na.kind = func == SIG_DFL ? NL_SIG_DFL : func == SIG_IGN ? NL_SIG_IGN : NL_SIG_CATCH;
		na.mask = mask ? set_to_neutral(mask) : 0;
		na.flags = flags;
		handlers[sig] = func;
	}
	if (__nl_emu_sigaction(n, func != SIG_ERR ? &na : 0, &ona) < 0) {
		handlers[sig] = old;
		return fail();
	}
	if (ofunc)
		*ofunc = ona.kind == NL_SIG_DFL ? SIG_DFL : ona.kind == NL_SIG_IGN ? SIG_IGN : old;
	if (omask)
		set_from_neutral(ona.mask, omask);
	if (oflags)
		*oflags = ona.flags;
	return 0;
}

int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	_sig_func_ptr ofunc;
	sigset_t omask;
	unsigned int oflags;

	if (act && (act->sa_flags & ~SA_NOCLDSTOP))
		return set_errno(EINVAL);
	if (install(sig, act ? act->sa_handler : SIG_ERR, act ? &act->sa_mask : 0,
	    act && (act->sa_flags & SA_NOCLDSTOP) ? NL_SA_NOCLDSTOP : 0, &ofunc, &omask, &oflags) < 0)
		return -1;
	if (oact) {
		oact->sa_handler = ofunc;
		oact->sa_mask = omask;
		oact->sa_flags = oflags & NL_SA_NOCLDSTOP ? SA_NOCLDSTOP : 0;
	}
	return 0;
}

/* BSD semantics, as the project's signal(): the handler stays, interrupted calls restart. */
_sig_func_ptr
signal(int sig, _sig_func_ptr func)
{
	_sig_func_ptr old;

	if (func == SIG_ERR)
		return set_errno(EINVAL), SIG_ERR;
	if (install(sig, func, 0, NL_SA_RESTART, &old, 0, 0) < 0)
		return SIG_ERR;
	return old;
}

pid_t
fork(void)
{
	return result(__emu_fork());
}

int
execve(const char *path, char *const argv[], char *const envp[])
{
	return result(__emu_execve(path, argv, envp));
}

/* The project's execv and execvp (libc/src/gen/exec.c; newlib has no exec family here). */
int
execv(const char *path, char *const argv[])
{
	return result(__emu_execv(path, argv));
}

int
execvp(const char *file, char *const argv[])
{
	return result(__emu_execvp(file, argv));
}

int
pipe(int fds[2])
{
	return result(__emu_pipe(fds));
}

int
dup(int fd)
{
	return result(__emu_dup(fd));
}

int
dup2(int fd, int to)
{
	return result(__emu_dup2(fd, to));
}

int
chdir(const char *path)
{
	return result(__emu_chdir(path));
}

int
rmdir(const char *path)
{
	return result(__emu_rmdir(path));
}

int
access(const char *path, int mode)
{
	return result(__emu_access(path, mode));
}

int
chmod(const char *path, mode_t mode)
{
	return result(__emu_chmod(path, mode & 07777));
}

mode_t
umask(mode_t mask)
{
	return __emu_umask(mask & 0777);
}

pid_t
getppid(void)
{
	return __emu_getppid();
}

uid_t
getuid(void)
{
	return __emu_getuid();
}

uid_t
geteuid(void)
{
	return __emu_geteuid();
}

gid_t
getgid(void)
{
	return __emu_getgid();
}

gid_t
getegid(void)
{
	return __emu_getegid();
}

/* A status word from emu.c (neutral signal numbers) in newlib's numbering. */
static int
status_from_neutral(int st)
{
	int sig;

	if ((st & 0x7f) != 0 && (st & 0x7f) != 0x7f) {
		sig = native(signals, N(signals), st & 0x7f);
		st = (st & ~0x7f) | (sig < 0 ? 0x7f & st : sig);
	} else if ((st & 0xff) == 0x7f) {
		sig = native(signals, N(signals), st >> 8 & 0xff);
		st = (st & ~0xff00) | (sig < 0 ? st & 0xff00 : sig << 8);
	}
	return st;
}

pid_t
waitpid(pid_t pid, int *status, int options)
{
	unsigned int nopts = 0;
	int st;

	for (int i = 0; i < N(waitopts); i++) {
		if (options & waitopts[i]) {
			nopts |= 1U << i;
			options &= ~waitopts[i];
		}
	}
	if (options)
		return set_errno(EINVAL);
	pid = __nl_emu_waitpid(pid, status ? &st : 0, nopts);
	if (pid < 0)
		return fail();
	if (pid > 0 && status)
		*status = status_from_neutral(st);
	return pid;
}

pid_t
wait(int *status)
{
	return waitpid(-1, status, 0);
}

int
gettimeofday(struct timeval *tv, void *tz)
{
	long long sec;
	long usec;

	(void)tz;
	if (__nl_emu_gettimeofday(&sec, &usec) < 0)
		return fail();
	if (tv) {
		tv->tv_sec = sec;
		tv->tv_usec = usec;
	}
	return 0;
}

/* Microseconds to clock ticks: newlib's clock() adds the tms fields, in CLOCKS_PER_SEC units. */
static clock_t
ticks(long long us)
{
	return (clock_t)(us / (1000000 / CLOCKS_PER_SEC));
}

clock_t
times(struct tms *t)
{
	struct __nl_times n;

	if (__nl_emu_times(&n) < 0)
		return (clock_t)fail();
	t->tms_utime = ticks(n.utime);
	t->tms_stime = ticks(n.stime);
	t->tms_cutime = ticks(n.cutime);
	t->tms_cstime = ticks(n.cstime);
	return ticks(n.real);
}

void *
sbrk(ptrdiff_t incr)
{
	void *p = __emu_sbrk(incr);

	if (p == (void *)-1)
		fail();
	return p;
}

void
_exit(int status)
{
	__emu__exit(status);
}
