/*
 * __lsyscall: the one trap of the Linux flavour on MIPS (o32, as qemu-mips implements it).
 *
 *	long __lsyscall(long a1, long a2, long a3, long a4, long a5, long a6, long nr)
 *
 * The number comes last so that every argument is already where Linux o32 wants it: a1-a4 in
 * a0-a3, a5 and a6 at 16(sp) and 20(sp) of the caller's frame, which is still sp here (a leaf).
 * Linux returns v0 with a3 = 0, or a3 != 0 and v0 = a positive Linux errno; this returns the
 * result, or -errno (Linux numbering) for the C layer (lsys.h) to translate.
 */
#include <machine/asm.h>

	.text
	.set	noreorder
LEAF(__lsyscall)
	lw	v0, 24(sp)
	nop				/* load delay: v0 is the syscall number */
	syscall
	bnez	a3, 1f
	nop
	j	ra
	nop
1:	j	ra
	subu	v0, zero, v0
END(__lsyscall)
