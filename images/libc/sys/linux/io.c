/*
 * read, write, open, close, lseek for the Linux flavour. open's flags are the BSD values of
 * <fcntl.h>, translated here; lseek uses _llseek because off_t is 64-bit.
 */
#include <lsys.h>
#include <unistd.h>

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
close(int fd)
{
	return __lsys_ret(__lsys1(LNR_close, fd));
}
