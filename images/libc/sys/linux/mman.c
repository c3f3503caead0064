/*
 * mmap, munmap and mprotect for the Linux flavour: the MAP_* flags translated (MAP_ANON differs
 * per architecture), the offset through mmap2 in 4096-byte units (both architectures' unit).
 * PROT_* values are the same in both systems.
 */
#include <errno.h>
#include <lsys.h>
#include <sys/mman.h>
#include <linux_mman.h>

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	int lflags = 0;
	long r;

	if (offset < 0 || (offset & 4095) != 0 || (offset >> 12) > 0x7fffffff) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (flags & MAP_SHARED)
		lflags |= LINUX_MAP_SHARED;
	if (flags & MAP_PRIVATE)
		lflags |= LINUX_MAP_PRIVATE;
	if (flags & MAP_FIXED)
		lflags |= LINUX_MAP_FIXED;
	if (flags & MAP_ANON)
		lflags |= LINUX_MAP_ANONYMOUS;
	r = __lsys6(LNR_mmap2, addr, len, prot, lflags, fd, (long)(offset >> 12));
	if (__lsys_failed(r)) {
		__lsys_ret(r);
		return MAP_FAILED;
	}
	return (void *)r;
}

int
munmap(void *addr, size_t len)
{
	return __lsys_ret(__lsys2(LNR_munmap, addr, len));
}

int
mprotect(void *addr, size_t len, int prot)
{
	return __lsys_ret(__lsys3(LNR_mprotect, addr, len, prot));
}
