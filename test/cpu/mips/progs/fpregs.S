/*
 * FPU register-level coverage for the per-instruction comparison with the FPU state logged:
 * every R2010 operation in both formats, rounding modes, NaN and infinity operands, compares with
 * bc1t/bc1f, moves and loads/stores of FGRs. Results stay in FGRs so the log shows them.
 */
	.set	noreorder
	.set	noat
	.data
	.align	3
dconst:	.double	1.5, -2.25, 0.1, 3.0, 1e308, 4.9406564584124654e-324, 2147483648.5, -0.0
sconst:	.float	1.5, -2.25, 0.1, 3.0, 3e38, 1.4e-45, 16777217.0, -0.0
snan:	.word	0x7fc00000		/* legacy encoding: signaling */
qnan:	.word	0x7fbfffff		/* default quiet NaN */
spill:	.space	16

	.text
	.globl	main
	.ent	main
main:
	la	$8, dconst
	la	$9, sconst
	li	$10, 0			/* rounding mode */
1:	ctc1	$10, $31
	lwc1	$f0, 0($8)
	lwc1	$f1, 4($8)		/* f0/f1 = 1.5 (little-endian word order is fixed by -EL/-EB data) */
	lwc1	$f2, 16($8)
	lwc1	$f3, 20($8)		/* f2/f3 = 0.1 */
	lwc1	$f4, 24($8)
	lwc1	$f5, 28($8)		/* 3.0 */
	lwc1	$f6, 32($8)
	lwc1	$f7, 36($8)		/* 1e308 */
	lwc1	$f8, 40($8)
	lwc1	$f9, 44($8)		/* min subnormal */
	add.d	$f10, $f0, $f2
	sub.d	$f12, $f2, $f4
	mul.d	$f14, $f6, $f6		/* overflow */
	div.d	$f16, $f2, $f4		/* inexact */
	mul.d	$f18, $f8, $f2		/* underflow */
	div.d	$f20, $f0, $f30		/* f30 is +0: divide by zero */
	cfc1	$11, $31
	lwc1	$f22, 0($9)
	lwc1	$f23, 8($9)		/* 0.1f */
	lwc1	$f24, 16($9)		/* 3e38f */
	lwc1	$f25, 20($9)		/* min subnormal single */
	add.s	$f26, $f22, $f23
	mul.s	$f27, $f24, $f24
	div.s	$f28, $f23, $f22
	sub.s	$f29, $f25, $f22
	mul.s	$f31, $f25, $f23
	cfc1	$12, $31
	cvt.s.d	$f26, $f2
	cvt.d.s	$f10, $f23
	cvt.w.d	$f27, $f6		/* out of range: invalid */
	lwc1	$f12, 48($8)
	lwc1	$f13, 52($8)		/* 2147483648.5 */
	cvt.w.d	$f28, $f12
	cvt.w.s	$f29, $f23
	li	$13, -7
	mtc1	$13, $f31
	cvt.d.w	$f14, $f31
	cvt.s.w	$f31, $f31
	lwc1	$f31, 24($9)		/* 16777217.0f rounds */
	cfc1	$13, $31
	abs.d	$f16, $f12
	neg.d	$f18, $f12
	mov.d	$f20, $f0
	abs.s	$f22, $f23
	neg.s	$f23, $f22
	mov.s	$f24, $f23
	/* NaNs: a signaling one signals Invalid; every NaN result is the default NaN. */
	lwc1	$f25, 0($9)
	la	$14, snan
	lwc1	$f26, 0($14)
	add.s	$f27, $f25, $f26
	la	$14, qnan
	lwc1	$f26, 0($14)
	mul.s	$f28, $f26, $f25
	cvt.d.s	$f16, $f26
	cfc1	$14, $31
	/* Compares and FP branches. */
	c.lt.d	$f0, $f4
	nop
	bc1t	2f
	nop
	li	$15, 1
2:	c.eq.s	$f26, $f26		/* unordered */
	nop
	bc1f	3f
	nop
	li	$15, 2
3:	c.ngle.d $f0, $f0
	c.ule.s	$f22, $f26
	nop
	bc1t	4f
	li	$15, 3
4:	cfc1	$24, $31
	la	$14, spill
	swc1	$f10, 0($14)
	swc1	$f11, 4($14)
	mfc1	$25, $f10
	lw	$15, 4($14)
	addiu	$10, $10, 1
	sltiu	$1, $10, 4
	bnez	$1, 1b
	nop
	ctc1	$0, $31
	jr	$31
	move	$2, $0
	.end	main
