/*
 * fcntl for the Linux flavour, and the translation of the file status flags (O_*), which differ
 * between 4.4BSD and Linux MIPS (Linux SPARC shares most of 4.4BSD's values, not O_NONBLOCK).
 * F_DUPFD, F_GETFD, F_SETFD and FD_CLOEXEC have the same values everywhere; record locks go
 * through fcntl64 with struct flock64, whose lock types differ per architecture.
 */
#include <errno.h>
#include <fcntl.h>
#include <lsys.h>
#include <stdarg.h>
#include <linux_fcntl.h>
#include <linux_struct.h>

int __oflags_to_linux(int flags);
int __oflags_from_linux(int lflags);

static const struct {
	int bsd, lnx;
} oflags[] = {
	{ O_NONBLOCK,	LINUX_O_NONBLOCK },
	{ O_APPEND,	LINUX_O_APPEND },
	{ O_CREAT,	LINUX_O_CREAT },
	{ O_TRUNC,	LINUX_O_TRUNC },
	{ O_EXCL,	LINUX_O_EXCL },
	{ O_NOCTTY,	LINUX_O_NOCTTY },
};

#define NOFLAGS	(int)(sizeof oflags / sizeof oflags[0])

/* The access mode (O_RDONLY, O_WRONLY, O_RDWR) is 0, 1, 2 in both systems. */
int
__oflags_to_linux(int flags)
{
	int i, lflags = flags & O_ACCMODE;

	for (i = 0; i < NOFLAGS; i++)
		if (flags & oflags[i].bsd)
			lflags |= oflags[i].lnx;
	return lflags;
}

int
__oflags_from_linux(int lflags)
{
	int i, flags = lflags & LINUX_O_ACCMODE;

	for (i = 0; i < NOFLAGS; i++)
		if (lflags & oflags[i].lnx)
			flags |= oflags[i].bsd;
	return flags;
}

static const short locktypes[][2] = {
	{ F_RDLCK, LINUX_F_RDLCK }, { F_WRLCK, LINUX_F_WRLCK }, { F_UNLCK, LINUX_F_UNLCK },
};

static int
xlatlock(int type, int to_linux)
{
	int i;

	for (i = 0; i < 3; i++)
		if (type == locktypes[i][!to_linux])
			return locktypes[i][to_linux];
	return -1;
}

/* F_GETLK, F_SETLK, F_SETLKW: struct flock to and from Linux's struct flock64. */
static int
lockop(int fd, int lcmd, struct flock *fl)
{
	struct linux_flock64 l;
	long r;

	l.l_type = xlatlock(fl->l_type, 1);
	l.l_whence = fl->l_whence;
	l.l_start = fl->l_start;
	l.l_len = fl->l_len;
	l.l_pid = fl->l_pid;
	r = __lsys3(LNR_fcntl64, fd, lcmd, &l);
	if (__lsys_failed(r))
		return __lsys_ret(r);
	if (lcmd == LINUX_F_GETLK64) {
		fl->l_type = xlatlock(l.l_type, 0);
		fl->l_whence = l.l_whence;
		fl->l_start = l.l_start;
		fl->l_len = l.l_len;
		fl->l_pid = l.l_pid;
	}
	return r;
}

int
fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;
	long r;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	switch (cmd) {
	case F_DUPFD:
		return __lsys_ret(__lsys3(LNR_fcntl, fd, LINUX_F_DUPFD, arg));
	case F_GETFD:
		return __lsys_ret(__lsys3(LNR_fcntl, fd, LINUX_F_GETFD, 0));
	case F_SETFD:
		return __lsys_ret(__lsys3(LNR_fcntl, fd, LINUX_F_SETFD, arg));
	case F_GETFL:
		r = __lsys_ret(__lsys3(LNR_fcntl, fd, LINUX_F_GETFL, 0));
		return r < 0 ? -1 : __oflags_from_linux(r);
	case F_SETFL:
		return __lsys_ret(__lsys3(LNR_fcntl, fd, LINUX_F_SETFL, __oflags_to_linux(arg)));
	case F_GETLK:
		return lockop(fd, LINUX_F_GETLK64, (struct flock *)arg);
	case F_SETLK:
		return lockop(fd, LINUX_F_SETLK64, (struct flock *)arg);
	case F_SETLKW:
		return lockop(fd, LINUX_F_SETLKW64, (struct flock *)arg);
	default:
		errno = EINVAL;
		return -1;
	}
}
