/*
 * __cerror: the common failure exit of the SPARC system-call stubs, entered by a branch with the
 * kernel's errno in %o0 and the caller's return address still in %o7. Returns -1 both as an int
 * (%o0) and as a 64-bit value (%o0 and %o1), which lseek's callers expect.
 */
#include <machine/asm.h>

	.text
ENTRY(__cerror)
	sethi	%hi(errno), %g1
	st	%o0, [%g1 + %lo(errno)]
	mov	-1, %o1
	retl
	mov	-1, %o0
END(__cerror)
