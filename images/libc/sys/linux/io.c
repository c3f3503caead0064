/*
 * read, write, open, close, lseek, readv, writev, pread, pwrite, truncate, ftruncate, select and
 * poll for the Linux flavour. open takes the BSD O_* values of <fcntl.h> (fcntl.c translates
 * them); lseek goes through _llseek, which carries the 64-bit offset as two words and writes
 * the 64-bit result to memory; the other 64-bit offsets go as the C convention passes a long
 * long, after a pad word on MIPS (LSYS_PAD64). struct iovec, fd_set, struct timeval and struct
 * pollfd (with its POLL* values) are the same in both systems.
 */
#include <fcntl.h>
#include <lsys.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/select.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux_fcntl.h>

int __oflags_to_linux(int flags);

ssize_t
read(int fd, void *buf, size_t n)
{
	return __lsys_ret(__lsys3(LNR_read, fd, buf, n));
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	return __lsys_ret(__lsys3(LNR_write, fd, buf, n));
}

int
open(const char *path, int flags, ...)
{
	int mode = 0;
	va_list ap;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	return __lsys_ret(__lsys3(LNR_open, path, __oflags_to_linux(flags) | LINUX_O_LARGEFILE, mode));
}

int
close(int fd)
{
	return __lsys_ret(__lsys1(LNR_close, fd));
}

off_t
lseek(int fd, off_t offset, int whence)
{
	int64_t result;
	long r;

	r = __lsys5(LNR_llseek, fd, (uint32_t)((uint64_t)offset >> 32), (uint32_t)offset, &result, whence);
	if (__lsys_failed(r))
		return __lsys_ret(r);
	return result;
}

ssize_t
readv(int fd, const struct iovec *iov, int n)
{
	return __lsys_ret(__lsys3(LNR_readv, fd, iov, n));
}

ssize_t
writev(int fd, const struct iovec *iov, int n)
{
	return __lsys_ret(__lsys3(LNR_writev, fd, iov, n));
}

/*
 * A call whose first nargs words (a, b, c) are followed by a 64-bit value, which takes the
 * next two words, or on MIPS the next aligned pair (o32 register pairs start at an even word).
 */
static long
call64(long nr, int nargs, long a, long b, long c, int64_t v)
{
	long w[6] = { a, b, c, 0, 0, 0 };
	union __lsys_ll u;
	int i = nargs;

	u.v = v;
	if (LSYS_PAD64 && (i & 1))
		i++;
	w[i] = u.w[0];
	w[i + 1] = u.w[1];
	return __lsyscall(w[0], w[1], w[2], w[3], w[4], w[5], nr);
}

ssize_t
pread(int fd, void *buf, size_t n, off_t offset)
{
	return __lsys_ret(call64(LNR_pread64, 3, fd, (long)buf, (long)n, offset));
}

ssize_t
pwrite(int fd, const void *buf, size_t n, off_t offset)
{
	return __lsys_ret(call64(LNR_pwrite64, 3, fd, (long)buf, (long)n, offset));
}

int
truncate(const char *path, off_t length)
{
	return __lsys_ret(call64(LNR_truncate64, 1, (long)path, 0, 0, length));
}

int
ftruncate(int fd, off_t length)
{
	return __lsys_ret(call64(LNR_ftruncate64, 1, fd, 0, 0, length));
}

int
select(int nd, fd_set *in, fd_set *ou, fd_set *ex, struct timeval *tv)
{
	return __lsys_ret(__lsys5(LNR__newselect, nd, in, ou, ex, tv));
}

int
poll(struct pollfd *fds, nfds_t n, int timeout)
{
	return __lsys_ret(__lsys3(LNR_poll, fds, n, timeout));
}
