/*
 * System-call stubs of the BSD flavour on SPARC (DESIGN.md section 3): number in %g1, arguments
 * in %o0-%o5, `ta 0`; the kernel resumes at nPC with the result in %o0 (and %o1), the PSR carry
 * bit clear on success, or set with %o0 = errno on failure. Stubs are leaf routines: they take
 * no register window.
 */
#include <machine/asm.h>
#include <sys/syscall.h>

/*
 * PSEUDO name, number: the function `name` traps with `number`; on failure it tail-calls
 * __cerror, which sets errno and returns -1. Used for every call whose C prototype passes the
 * trap's argument words unchanged (RSYSCALL, below) and for the raw __sys_* entries that C
 * wrappers in this directory call.
 */
	.macro	PSEUDO name, number
	.globl	\name
	.type	\name, #function
	.align	4
\name:
	mov	\number, %g1
	ta	ST_SYSCALL
	bcs	__cerror
	nop
	retl
	nop
	.size	\name, . - \name
	.endm
