/*
 * The project's half of newlib's system layer (glue.h): compiled against images/libc/include and
 * linked, renamed, with the project's syscall layer of the program's flavour. Converts the
 * project's flag values, signal numbers, errno values and structures to and from the neutral
 * forms of glue.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "glue.h"

NL_TABLES

static int
einval(void)
{
	errno = EINVAL;
	return -1;
}

int
__nl_emu_errno(void)
{
	return neutral(errnos, N(errnos), errno);
}

static int
flags_from_neutral(int accmode, unsigned int nflags)
{
	int f = native(accmodes, N(accmodes), accmode);

	for (int i = 0; i < N(oflags); i++)
		if (nflags & (1U << i))
			f |= oflags[i];
	return f;
}

static void
flags_to_neutral(int f, int *accmode, unsigned int *nflags)
{
	*accmode = neutral(accmodes, N(accmodes), f & O_ACCMODE);
	*nflags = 0;
	for (int i = 0; i < N(oflags); i++)
		if (f & oflags[i])
			*nflags |= 1U << i;
}

int
__nl_emu_open(const char *path, int accmode, unsigned int nflags, int mode)
{
	if (native(accmodes, N(accmodes), accmode) < 0)
		return einval();
	return open(path, flags_from_neutral(accmode, nflags), mode);
}

/*
 * fcntl: the descriptor-flag and status-flag commands. F_GETFL's result and F_SETFL's argument
 * are neutral as for open: the access mode (index + 1) in bits 0-1, the flags from bit 2 up.
 */
int
__nl_emu_fcntl(int fd, int cmd, int arg)
{
	int c = native(fcntls, N(fcntls), cmd);
	int r, acc;
	unsigned int nf;

	if (c < 0)
		return einval();
	if (c == F_SETFL)
		arg = flags_from_neutral(1, (unsigned int)arg >> 2);
	r = fcntl(fd, c, arg);
	if (c == F_GETFL && r >= 0) {
		flags_to_neutral(r, &acc, &nf);
		r = acc | (int)(nf << 2);
	}
	return r;
}

static void
stat_to_neutral(const struct stat *s, struct __nl_stat *n)
{
	n->dev = (unsigned int)s->st_dev;
	n->ino = s->st_ino;
	n->mode = s->st_mode;
	n->nlink = s->st_nlink;
	n->uid = s->st_uid;
	n->gid = s->st_gid;
	n->rdev = (unsigned int)s->st_rdev;
	n->blksize = s->st_blksize;
	n->size = s->st_size;
	n->blocks = s->st_blocks;
	n->atime = s->st_atimespec.tv_sec;
	n->mtime = s->st_mtimespec.tv_sec;
	n->ctime = s->st_ctimespec.tv_sec;
	n->atime_ns = s->st_atimespec.tv_nsec;
	n->mtime_ns = s->st_mtimespec.tv_nsec;
	n->ctime_ns = s->st_ctimespec.tv_nsec;
}

int
__nl_emu_fstat(int fd, struct __nl_stat *n)
{
	struct stat s;

	if (fstat(fd, &s) < 0)
		return -1;
	stat_to_neutral(&s, n);
	return 0;
}

static int
path_stat(int (*f)(const char *, struct stat *), const char *path, struct __nl_stat *n)
{
	struct stat s;

	if (f(path, &s) < 0)
		return -1;
	stat_to_neutral(&s, n);
	return 0;
}

int
__nl_emu_stat(const char *path, struct __nl_stat *n)
{
	return path_stat(stat, path, n);
}

int
__nl_emu_lstat(const char *path, struct __nl_stat *n)
{
	return path_stat(lstat, path, n);
}

int
__nl_emu_kill(int pid, int sig)
{
	/* Signal 0 only checks that the process exists. */
	int s = sig == 0 ? 0 : native(signals, N(signals), sig);

	return s < 0 ? einval() : kill(pid, s);
}

static unsigned int
set_to_neutral(sigset_t set)
{
	unsigned int n = 0;

	for (int i = 0; i < N(signals); i++)
		if (set & sigmask(signals[i]))
			n |= 1U << i;
	return n;
}

static sigset_t
set_from_neutral(unsigned int n)
{
	sigset_t set = 0;

	for (int i = 0; i < N(signals); i++)
		if (n & (1U << i))
			set |= sigmask(signals[i]);
	return set;
}

int
__nl_emu_sigprocmask(int how, const unsigned int *nset, unsigned int *noset)
{
	sigset_t set = 0, oset;
	int h = native(hows, N(hows), how);

	if (nset && h < 0)
		return einval();
	if (nset)
		set = set_from_neutral(*nset);
	if (sigprocmask(nset ? h : SIG_BLOCK, nset ? &set : 0, &oset) < 0)
		return -1;
	if (noset)
		*noset = set_to_neutral(oset);
	return 0;
}

/* The handler the kernel calls for every caught signal (with the project's number). */
static void
catch(int sig)
{
	__nl_deliver(neutral(signals, N(signals), sig));
}

int
__nl_emu_sigaction(int nsig, const struct __nl_sigaction *na, struct __nl_sigaction *ona)
{
	struct sigaction sa, osa;
	int sig = native(signals, N(signals), nsig);

	if (sig < 0)
		return einval();
	if (na) {
		sa.sa_handler = na->kind == NL_SIG_DFL ? SIG_DFL : na->kind == NL_SIG_IGN ? SIG_IGN : catch;
		sa.sa_mask = set_from_neutral(na->mask);
		sa.sa_flags = (na->flags & NL_SA_NOCLDSTOP ? SA_NOCLDSTOP : 0) | (na->flags & NL_SA_RESTART ? SA_RESTART : 0);
	}
	if (sigaction(sig, na ? &sa : 0, &osa) < 0)
		return -1;
	if (ona) {
		ona->kind = osa.sa_handler == SIG_DFL ? NL_SIG_DFL : osa.sa_handler == SIG_IGN ? NL_SIG_IGN : NL_SIG_CATCH;
		ona->mask = set_to_neutral(osa.sa_mask);
		ona->flags = (osa.sa_flags & SA_NOCLDSTOP ? NL_SA_NOCLDSTOP : 0) | (osa.sa_flags & SA_RESTART ? NL_SA_RESTART : 0);
	}
	return 0;
}

/* waitpid: the terminating or stopping signal in the status word becomes neutral. */
int
__nl_emu_waitpid(int pid, int *status, unsigned int nopts)
{
	int st, opts = 0;

	for (int i = 0; i < N(waitopts); i++)
		if (nopts & (1U << i))
			opts |= waitopts[i];
	pid = wait4(pid, &st, opts, 0);
	if (pid <= 0)
		return pid;
	if (status) {
		if (WIFSIGNALED(st))
			st = (st & ~0x7f) | neutral(signals, N(signals), WTERMSIG(st));
		else if (WIFSTOPPED(st))
			st = (st & 0xff) | (neutral(signals, N(signals), WSTOPSIG(st)) << 8);
		*status = st;
	}
	return pid;
}

int
__nl_emu_gettimeofday(long long *sec, long *usec)
{
	struct timeval tv;

	if (gettimeofday(&tv, 0) < 0)
		return -1;
	*sec = tv.tv_sec;
	*usec = tv.tv_usec;
	return 0;
}

static long long
usecs(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000 + tv->tv_usec;
}

/* times(2) from getrusage of the process and of its waited-for children, and the time of day. */
int
__nl_emu_times(struct __nl_times *t)
{
	struct rusage self, children;
	struct timeval now;

	if (getrusage(RUSAGE_SELF, &self) < 0 || getrusage(RUSAGE_CHILDREN, &children) < 0 ||
	    gettimeofday(&now, 0) < 0)
		return -1;
	t->utime = usecs(&self.ru_utime);
	t->stime = usecs(&self.ru_stime);
	t->cutime = usecs(&children.ru_utime);
	t->cstime = usecs(&children.ru_stime);
	t->real = usecs(&now);
	return 0;
}

long long
__nl_emu_lseek(int fd, long long off, int whence)
{
	return lseek(fd, off, whence);
}
