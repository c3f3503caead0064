/*
 * setjmp, _setjmp, sigsetjmp and _longjmp for MIPS I (layout in <machine/setjmp.h>). longjmp
 * and siglongjmp are C (src/gen/longjmp.c): they restore the signal mask, then call _longjmp.
 *
 * Hazards handled by hand (.set noreorder): the result of cfc1 is not available to the next
 * instruction, nor is a loaded register (MIPS I load delay).
 */
#include <machine/asm.h>
#include <machine/setjmp.h>

#define JB(i)	((i) * 4)

/* Saves the caller's callee-saved state into the buffer at a0. Leaves t0 = FCSR stored. */
	.macro	SAVE_CONTEXT
	sw	ra, JB(_JB_PC)(a0)
	sw	sp, JB(_JB_SP)(a0)
	sw	s8, JB(_JB_FP)(a0)
	sw	s0, JB(_JB_S0 + 0)(a0)
	sw	s1, JB(_JB_S0 + 1)(a0)
	sw	s2, JB(_JB_S0 + 2)(a0)
	sw	s3, JB(_JB_S0 + 3)(a0)
	sw	s4, JB(_JB_S0 + 4)(a0)
	sw	s5, JB(_JB_S0 + 5)(a0)
	sw	s6, JB(_JB_S0 + 6)(a0)
	sw	s7, JB(_JB_S0 + 7)(a0)
	sw	gp, JB(_JB_GP)(a0)
	cfc1	t0, $31
	swc1	$f20, JB(_JB_F20 + 0)(a0)	/* also covers the cfc1 delay */
	swc1	$f21, JB(_JB_F20 + 1)(a0)
	swc1	$f22, JB(_JB_F20 + 2)(a0)
	swc1	$f23, JB(_JB_F20 + 3)(a0)
	swc1	$f24, JB(_JB_F20 + 4)(a0)
	swc1	$f25, JB(_JB_F20 + 5)(a0)
	swc1	$f26, JB(_JB_F20 + 6)(a0)
	swc1	$f27, JB(_JB_F20 + 7)(a0)
	swc1	$f28, JB(_JB_F20 + 8)(a0)
	swc1	$f29, JB(_JB_F20 + 9)(a0)
	swc1	$f30, JB(_JB_F20 + 10)(a0)
	swc1	$f31, JB(_JB_F20 + 11)(a0)
	sw	t0, JB(_JB_FCSR)(a0)
	.endm

	.text
	.set	noreorder

/* int _setjmp(jmp_buf env): registers only; a later longjmp leaves the signal mask alone. */
LEAF(_setjmp)
	SAVE_CONTEXT
	sw	zero, JB(_JB_SAVEMASK)(a0)
	j	ra
	move	v0, zero
END(_setjmp)

/* int setjmp(jmp_buf env): registers and the signal mask (__sigjmp_save returns 0 to our caller). */
LEAF(setjmp)
	SAVE_CONTEXT
	j	__sigjmp_save
	li	a1, 1
END(setjmp)

/* int sigsetjmp(sigjmp_buf env, int savemask): registers, and the mask if savemask != 0. */
LEAF(sigsetjmp)
	SAVE_CONTEXT
	j	__sigjmp_save
	nop
END(sigsetjmp)

/* void _longjmp(jmp_buf env, int val): resumes after the setjmp call, which returns val ? val : 1. */
LEAF(_longjmp)
	lw	t0, JB(_JB_FCSR)(a0)
	lw	ra, JB(_JB_PC)(a0)
	lw	sp, JB(_JB_SP)(a0)
	lw	s8, JB(_JB_FP)(a0)
	lw	s0, JB(_JB_S0 + 0)(a0)
	lw	s1, JB(_JB_S0 + 1)(a0)
	lw	s2, JB(_JB_S0 + 2)(a0)
	lw	s3, JB(_JB_S0 + 3)(a0)
	lw	s4, JB(_JB_S0 + 4)(a0)
	lw	s5, JB(_JB_S0 + 5)(a0)
	lw	s6, JB(_JB_S0 + 6)(a0)
	lw	s7, JB(_JB_S0 + 7)(a0)
	lw	gp, JB(_JB_GP)(a0)
	lwc1	$f20, JB(_JB_F20 + 0)(a0)
	lwc1	$f21, JB(_JB_F20 + 1)(a0)
	lwc1	$f22, JB(_JB_F20 + 2)(a0)
	lwc1	$f23, JB(_JB_F20 + 3)(a0)
	lwc1	$f24, JB(_JB_F20 + 4)(a0)
	lwc1	$f25, JB(_JB_F20 + 5)(a0)
	lwc1	$f26, JB(_JB_F20 + 6)(a0)
	lwc1	$f27, JB(_JB_F20 + 7)(a0)
	lwc1	$f28, JB(_JB_F20 + 8)(a0)
	lwc1	$f29, JB(_JB_F20 + 9)(a0)
	lwc1	$f30, JB(_JB_F20 + 10)(a0)
	lwc1	$f31, JB(_JB_F20 + 11)(a0)
	ctc1	t0, $31
	bnez	a1, 1f
	move	v0, a1
	li	v0, 1
1:	j	ra
	nop
END(_longjmp)
