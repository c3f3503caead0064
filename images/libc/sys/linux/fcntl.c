/*
 * fcntl for the Linux flavour, and the translation of the file status flags (O_*), which differ
 * between 4.4BSD and Linux MIPS (Linux SPARC shares most of 4.4BSD's values, not O_NONBLOCK).
 * F_DUPFD, F_GETFD, F_SETFD and FD_CLOEXEC have the same values everywhere; record locks are not
 * part of the guest ABI.
 */
#include <errno.h>
#include <fcntl.h>
#include <lsys.h>
#include <stdarg.h>
#include <linux_fcntl.h>

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

int
fcntl(int fd, int cmd, ...)
{
	va_list ap;
	int arg;
	long r;

	va_start(ap, cmd);
	arg = va_arg(ap, int);
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
	default:
		errno = EINVAL;
		return -1;
	}
}
