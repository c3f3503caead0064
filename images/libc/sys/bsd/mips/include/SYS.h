/*
 * System-call stubs of the BSD flavour on MIPS (DESIGN.md section 3): number in v0, arguments in
 * a0-a3 and then at 16(sp) exactly where the o32 C convention already put them, `syscall`; the
 * kernel returns v0 (and v1), with a3 = 0 on success or a3 = 1 and v0 = errno on failure.
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
	.type	\name, @function
	.ent	\name, 0
\name:
	.frame	sp, 0, ra
	.set	push
	.set	noreorder
	li	v0, \number
	syscall
	bnez	a3, 1f
	nop
	j	ra
	nop
1:	j	__cerror
	nop
	.set	pop
	.end	\name
	.size	\name, . - \name
	.endm
