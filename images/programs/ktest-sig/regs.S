/*
 * ktest-sig: register-file probes for the kernel's signal delivery test (ktest-sig.c).
 *
 * regs_spin(flag, save): loads every user register the ABI lets a program use (except the stack
 * pointer and the few the loop needs) with a distinct pattern, spins until *flag holds
 * regs_exit_value, then stores every register into save[] for the C side to compare. Signals
 * delivered while it spins run handlers that clobber registers; sigreturn must restore them all.
 *
 * save[] layout (words):
 *   MIPS:  [n] = $n (checked: $1, $4-$25, $28, $30, $31), [32] HI, [33] LO, [34+n] = $fn,
 *          [66] FCSR
 *   SPARC: [0-7] %g0-%g7 (checked %g1-%g4), [8-15] %o0-%o7 (checked %o0-%o5, %o7),
 *          [16-23] %l0-%l7, [24-31] %i0-%i7 (checked %i4, %i5), [32] Y, [33] icc as NZVC,
 *          [34+n] = %fn, [66] FSR
 *
 * regs_clobber(): a leaf that trashes every caller-saved register, HI/LO or Y and icc, all FPU
 * registers the convention does not preserve, and the FPU rounding mode.
 */
#if defined(__mips__)
#include <machine/asm.h>

#define PAT(n)	(0x5a5a0000 + ((n) << 8) + (n))
#define FPAT(n)	(0x3f800000 + ((n) << 12) + (n))

	.data
	.globl	regs_exit_value
	.align	2
regs_exit_value:
	.word	1

	.text
	.set	noreorder
	.set	noat
NESTED(regs_spin, 112, ra)
	addiu	sp, sp, -112
	sw	ra, 108(sp)
	sw	s8, 104(sp)
	sw	gp, 100(sp)
	sw	s7, 96(sp)
	sw	s6, 92(sp)
	sw	s5, 88(sp)
	sw	s4, 84(sp)
	sw	s3, 80(sp)
	sw	s2, 76(sp)
	sw	s1, 72(sp)
	sw	s0, 68(sp)
	swc1	$f20, 20(sp)
	swc1	$f21, 24(sp)
	swc1	$f22, 28(sp)
	swc1	$f23, 32(sp)
	swc1	$f24, 36(sp)
	swc1	$f25, 40(sp)
	swc1	$f26, 44(sp)
	swc1	$f27, 48(sp)
	swc1	$f28, 52(sp)
	swc1	$f29, 56(sp)
	swc1	$f30, 60(sp)
	swc1	$f31, 64(sp)
	sw	a1, 16(sp)
	move	v1, a0

	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	li	v0, FPAT(\n)
	mtc1	v0, $f\n
	.endr
	li	v0, 0x7f		/* FCSR: round toward -inf, every sticky flag set, no enables */
	ctc1	v0, $31
	li	v0, 0x48494849
	mthi	v0
	li	v0, 0x4c4f4c4f
	mtlo	v0
	li	$1, PAT(1)
	.irp	n, 4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,28,30,31
	li	$\n, PAT(\n)
	.endr

1:	lw	v0, 0(v1)
	nop
	beqz	v0, 1b
	nop

	lw	v0, 16(sp)
	nop
	sw	$1, 4(v0)
	.irp	n, 4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,28,30,31
	sw	$\n, (\n * 4)(v0)
	.endr
	mfhi	a0
	sw	a0, 128(v0)
	mflo	a0
	sw	a0, 132(v0)
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	swc1	$f\n, (136 + \n * 4)(v0)
	.endr
	cfc1	a0, $31
	sw	a0, 264(v0)
	ctc1	zero, $31

	lwc1	$f20, 20(sp)
	lwc1	$f21, 24(sp)
	lwc1	$f22, 28(sp)
	lwc1	$f23, 32(sp)
	lwc1	$f24, 36(sp)
	lwc1	$f25, 40(sp)
	lwc1	$f26, 44(sp)
	lwc1	$f27, 48(sp)
	lwc1	$f28, 52(sp)
	lwc1	$f29, 56(sp)
	lwc1	$f30, 60(sp)
	lwc1	$f31, 64(sp)
	lw	s0, 68(sp)
	lw	s1, 72(sp)
	lw	s2, 76(sp)
	lw	s3, 80(sp)
	lw	s4, 84(sp)
	lw	s5, 88(sp)
	lw	s6, 92(sp)
	lw	s7, 96(sp)
	lw	gp, 100(sp)
	lw	s8, 104(sp)
	lw	ra, 108(sp)
	move	v0, zero
	jr	ra
	addiu	sp, sp, 112
END(regs_spin)

LEAF(regs_clobber)
	li	$1, 0xdead0001
	li	v1, 0xdead0003
	.irp	n, 4,5,6,7,8,9,10,11,12,13,14,15,24,25
	li	$\n, 0xdead0000 + \n
	.endr
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19
	mtc1	$1, $f\n
	.endr
	mult	$1, v1
	li	v0, 1			/* round toward zero */
	ctc1	v0, $31
	jr	ra
	move	v0, zero
END(regs_clobber)

#elif defined(__sparc__)
#include <machine/asm.h>

#define PAT(n)	(0x5a5a0000 + ((n) << 8) + (n))

	.data
	.align	8
fpat:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.word	0x3f800000 + (\n << 12) + \n
	.endr
fsrpat:
	.word	0xc00003e0		/* RD = round toward -inf, every accrued flag set, no enables */
fsrzero:
	.word	0
fsrclob:
	.word	0x40000000		/* RD = round toward zero */
	.globl	regs_exit_value
	.align	4
regs_exit_value:
	.word	2f - 1f

	.text
ENTRY(regs_spin)
	save	%sp, -MINFRAME, %sp
	set	fpat, %i2
	.irp	n, 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30
	ldd	[%i2 + (\n * 4)], %f\n
	.endr
	ld	[%i2 + 128], %fsr
	set	0x59595959, %i3
	wr	%i3, %y
	nop
	nop
	nop
	set	0x7fffffff, %i3
	addcc	%i3, 1, %g0		/* icc: N = 1, Z = 0, V = 1, C = 0 */
	.irp	n, 1,2,3,4
	set	PAT(\n), %g\n
	.endr
	.irp	n, 0,1,2,3,4,5,7
	set	PAT(8 + \n), %o\n
	.endr
	.irp	n, 0,1,2,3,4,5,6,7
	set	PAT(16 + \n), %l\n
	.endr
	set	PAT(28), %i4
	set	PAT(29), %i5
	set	1f, %i3
	/* The loop touches no condition code: it jumps back by adding the flag word to its own address. */
1:	ld	[%i0], %i2
	jmpl	%i3 + %i2, %g0
	nop
2:	.irp	n, 1,2,3,4
	st	%g\n, [%i1 + (\n * 4)]
	.endr
	.irp	n, 0,1,2,3,4,5,7
	st	%o\n, [%i1 + (32 + \n * 4)]
	.endr
	.irp	n, 0,1,2,3,4,5,6,7
	st	%l\n, [%i1 + (64 + \n * 4)]
	.endr
	st	%i4, [%i1 + 112]
	st	%i5, [%i1 + 116]
	rd	%y, %i2
	st	%i2, [%i1 + 128]
	mov	0, %i2
	bpos	3f
	nop
	or	%i2, 8, %i2
3:	bne	4f
	nop
	or	%i2, 4, %i2
4:	bvc	5f
	nop
	or	%i2, 2, %i2
5:	bcc	6f
	nop
	or	%i2, 1, %i2
6:	st	%i2, [%i1 + 132]
	.irp	n, 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30
	std	%f\n, [%i1 + (136 + \n * 4)]
	.endr
	st	%fsr, [%i1 + 264]
	set	fsrzero, %i2
	ld	[%i2], %fsr
	ret
	restore	%g0, 0, %o0
END(regs_spin)

ENTRY(regs_clobber)
	set	0xdead0001, %g1
	set	0xdead0002, %g2
	set	0xdead0003, %g3
	set	0xdead0004, %g4
	.irp	n, 0,1,2,3,4,5
	set	0xdead0008 + \n, %o\n
	.endr
	wr	%g1, %y
	subcc	%g0, 1, %g0		/* icc: N = 1, C = 1 */
	set	fsrclob, %g2
	ld	[%g2], %fsr
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	[%g2], %f\n
	.endr
	retl
	mov	0, %o0
END(regs_clobber)
#else
#error "ktest-sig: unknown ISA"
#endif
