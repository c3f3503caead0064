/*
 * __cerror: the common failure exit of the MIPS system-call stubs, entered by a jump with the
 * kernel's errno in v0 and the caller's return address still in ra. Returns -1 both as an int
 * (v0) and as a 64-bit value (v0 and v1), which lseek's callers expect.
 */
#include <machine/asm.h>

	.text
	.set	noreorder
LEAF(__cerror)
	la	t0, errno
	sw	v0, 0(t0)
	li	v0, -1
	j	ra
	li	v1, -1
END(__cerror)
