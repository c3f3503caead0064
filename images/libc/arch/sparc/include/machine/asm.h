/*
 * Assembly conventions for SPARC v8. Hand-written code never names %g5, %g6 or %g7 (reserved for
 * the tracer, DESIGN.md section 3) and uses only v8 instructions.
 */
#ifndef _MACHINE_ASM_H_
#define _MACHINE_ASM_H_

#define ENTRY(x)		\
	.globl	x;		\
	.type	x, #function;	\
	.align	4;		\
x:

#define END(x)			\
	.size	x, . - x

/* Minimum stack frame: 16-word window save area, hidden struct-return word, 6 argument words,
 * rounded up to the ABI's 8-byte stack alignment. */
#define MINFRAME	96
/* Offset from %sp of the first outgoing argument word past the six in %o0-%o5. */
#define ARGPUSH		92

/* Software trap numbers of the v8 ABI. */
#define ST_SYSCALL	0	/* 4.4BSD system call */
#define ST_FLUSH_WINDOWS 3	/* write every active register window to its stack frame */
#define ST_LINUX_SYSCALL 0x10	/* Linux sparc32 system call */

#endif /* !_MACHINE_ASM_H_ */
