/*
 * The BSD-flavour calls with a 64-bit off_t argument. The trap takes the offset after a pad word
 * that keeps it in an aligned pair of argument words (4.4BSD's convention, docs/abi.md): passing
 * the pad from C makes both C conventions put every word where the trap wants it (on MIPS o32
 * the pair is aligned anyway; on SPARC it is not, and the pad shifts it by one word). The 64-bit
 * result of lseek comes back as the C convention returns a long long.
 */
#include <sys/mman.h>
#include <unistd.h>

off_t __sys_lseek(int, int, off_t, int);
ssize_t __sys_pread(int, void *, size_t, int, off_t);
ssize_t __sys_pwrite(int, const void *, size_t, int, off_t);
int __sys_truncate(const char *, int, off_t);
int __sys_ftruncate(int, int, off_t);
void *__sys_mmap(void *, size_t, int, int, int, int, off_t);

off_t
lseek(int fd, off_t offset, int whence)
{
	return __sys_lseek(fd, 0, offset, whence);
}

ssize_t
pread(int fd, void *buf, size_t n, off_t offset)
{
	return __sys_pread(fd, buf, n, 0, offset);
}

ssize_t
pwrite(int fd, const void *buf, size_t n, off_t offset)
{
	return __sys_pwrite(fd, buf, n, 0, offset);
}

int
truncate(const char *path, off_t length)
{
	return __sys_truncate(path, 0, length);
}

int
ftruncate(int fd, off_t length)
{
	return __sys_ftruncate(fd, 0, length);
}

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	return __sys_mmap(addr, len, prot, flags, fd, 0, offset);
}
