/*
 * __lsyscall: the one trap of the Linux flavour on SPARC (sparc32, as qemu-sparc implements it).
 *
 *	long __lsyscall(long a1, long a2, long a3, long a4, long a5, long a6, long nr)
 *
 * a1-a6 arrive in %o0-%o5, where Linux wants them; nr, the seventh argument word, is at
 * [%sp + 92] in the caller's frame (this is a leaf: no save). Linux returns %o0 with the PSR carry
 * clear, or carry set and %o0 = a positive Linux errno; this returns the result, or -errno (Linux
 * numbering) for the C layer (lsys.h) to translate.
 */
#include <machine/asm.h>

	.text
ENTRY(__lsyscall)
	ld	[%sp + ARGPUSH], %g1
	ta	ST_LINUX_SYSCALL
	bcc	1f
	nop
	sub	%g0, %o0, %o0
1:	retl
	nop
END(__lsyscall)
