/* The plain BSD-flavour system-call stubs for MIPS (list in ../include/syscalls.list). */
#include <SYS.h>

	.text
#include <syscalls.list>

/*
 * lseek(int fd, off_t offset, int whence): o32 passes the 64-bit offset in the aligned pair
 * a2/a3 and whence at 16(sp), exactly the trap's (fd, pad, offset, whence) words; the 64-bit
 * result comes back in v0/v1 as the C convention returns a long long.
 */
	PSEUDO	lseek, SYS_lseek
