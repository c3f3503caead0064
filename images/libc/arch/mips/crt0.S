/*
 * Program entry for MIPS (o32 conventions), both syscall flavours.
 *
 * The kernel's exec leaves the stack as 4.4BSD and Linux both do (docs/abi.md "Process start"):
 *	0(sp)	argc
 *	4(sp)	argv[0] ... argv[argc-1], NULL
 *		envp[0] ... NULL
 * and jumps to __start, the MIPS linker's default entry symbol. Register contents other than sp
 * are undefined. Nothing here names k0/k1.
 */
#include <machine/asm.h>

	.data
	.align	2
	.globl	environ
	.type	environ, @object
	.size	environ, 4
environ:
	.word	0

	.text
	.set	noreorder
/*
 * Code is built with -G0, so $gp is not used for addressing; it is still loaded with _gp so that
 * objects compiled with small data would work. fp (s8) is cleared to mark the outermost frame, and
 * ra is cleared so a debugger's backtrace stops here.
 */
NESTED(__start, 16, ra)
	lw	a0, 0(sp)		/* argc */
	addiu	a1, sp, 4		/* argv */
	la	gp, _gp
	sll	t0, a0, 2		/* a0 is ready: the la above covered the load delay */
	addu	a2, a1, t0
	addiu	a2, a2, 4		/* envp = argv + argc + 1 */
	la	t1, environ
	sw	a2, 0(t1)
	move	fp, zero
	move	ra, zero
	/* o32: sp 8-byte aligned, and a caller reserves 16 bytes where its callee may save a0-a3. */
	li	t0, -8
	and	sp, sp, t0
	addiu	sp, sp, -16
	jal	main
	nop
	jal	exit			/* exit(main's result): atexit handlers, stdio flush, _exit */
	move	a0, v0
	/* exit does not return; if it ever did, trap rather than run into whatever follows. */
	break	0
	nop
END(__start)
