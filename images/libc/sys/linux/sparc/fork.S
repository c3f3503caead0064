/*
 * fork for the Linux flavour on SPARC. Linux sparc32 keeps the SunOS convention 4.4BSD shares:
 * %o1 is 1 in the child and 0 in the parent, and %o0 is not 0 in the child. Failure: carry set,
 * %o0 = Linux errno, handed to __lsys_cerror as a tail call.
 */
#include <machine/asm.h>
#include <linux_nr.h>

	.text
ENTRY(fork)
	mov	LNR_fork, %g1
	ta	ST_LINUX_SYSCALL
	bcs	1f
	nop
	sub	%o1, 1, %o1		/* child: 0, parent: all ones */
	retl
	and	%o0, %o1, %o0
1:	mov	%o7, %g1
	call	__lsys_cerror
	mov	%g1, %o7
END(fork)
