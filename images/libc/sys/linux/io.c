/*
 * read, write, open, close and lseek for the Linux flavour. open takes the BSD O_* values of
 * <fcntl.h> (fcntl.c translates them); lseek goes through _llseek, which carries the 64-bit
 * offset as two words and writes the 64-bit result to memory.
 */
#include <fcntl.h>
#include <lsys.h>
#include <stdarg.h>
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
