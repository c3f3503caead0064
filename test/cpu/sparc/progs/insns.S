/*
 * Hand-written coverage for the per-instruction comparison with qemu-sparc: every Bicc condition
 * taken and untaken, with and without annul, under a spread of icc values; CTI couples; ldstub,
 * swap, ldd/std; addx/subx chains; tagged arithmetic; a MULScc multiply; 64-bit dividends in Y;
 * SAVE/RESTORE as add; ST_FLUSH_WINDOWS. %o0 accumulates a checksum that becomes the exit status.
 * Everything runs in a frame of its own: qemu-user starts a process with WIM marking the initial
 * window invalid, so that window's locals do not survive a flush and refill under qemu.
 */
	.text
	.align	4
	.globl	_start
_start:
	save	%sp, -96, %sp
	clr	%o0
	set	vals, %l0
	mov	0, %l1			/* index into vals (pairs) */
loop_icc:
	ld	[%l0 + %l1], %l2
	add	%l1, 4, %l3
	ld	[%l0 + %l3], %l3
	/* subcc and addcc flavours of icc for this pair */
	subcc	%l2, %l3, %g0
	call	allconds
	nop
	addcc	%l2, %l3, %g0
	call	allconds
	nop
	andcc	%l2, %l3, %g0
	call	allconds
	nop
	add	%l1, 8, %l1
	cmp	%l1, nvals * 8
	bl	loop_icc
	nop
	ba	couples
	nop

/* Every condition, plain and annulled; each slot adds a distinct weight to %o0. icc is preserved. */
	.macro	TB c, w
	b\c	1f
	add	%o0, \w, %o0
	add	%o0, 1, %o0
1:	b\c,a	2f
	add	%o0, \w * 3, %o0
	sll	%o0, 1, %o0
2:
	.endm
allconds:
	TB	n, 2
	TB	e, 3
	TB	le, 5
	TB	l, 7
	TB	leu, 11
	TB	cs, 13
	TB	neg, 17
	TB	vs, 19
	TB	a, 23
	TB	ne, 29
	TB	g, 31
	TB	ge, 37
	TB	gu, 41
	TB	cc, 43
	TB	pos, 47
	TB	vc, 53
	/* Ticc that does not trap (condition false for this icc... or never) */
	tn	5
	retl
	nop

couples:
	/* ba with a ba in its delay slot: one instruction at the first target, then the second. */
	ba	c1
	ba	c2
	add	%o0, 100, %o0
c1:	add	%o0, 7, %o0
	add	%o0, 9, %o0
c2:	add	%o0, 11, %o0
	/* call with an annulling ba in its slot */
	call	c3
	ba,a	c4
	add	%o0, 1000, %o0
c3:	add	%o0, 13, %o0
	add	%o0, 15, %o0
c4:	add	%o0, 17, %o0
	/* a conditional annulled branch (untaken) followed by a branch */
	cmp	%g0, 1
	be,a	c5
	ba	c6
	add	%o0, 19, %o0
c5:	add	%o0, 21, %o0
c6:	add	%o0, 23, %o0

	/* Atomics and doublewords. */
	set	scratch, %l0
	mov	0x5a, %l1
	stb	%l1, [%l0 + 3]
	ldstub	[%l0 + 3], %l2
	ldub	[%l0 + 3], %l3
	add	%o0, %l2, %o0
	add	%o0, %l3, %o0
	set	0x12345678, %l4
	st	%l4, [%l0 + 8]
	mov	77, %l5
	swap	[%l0 + 8], %l5
	ld	[%l0 + 8], %l6
	add	%o0, %l5, %o0
	xor	%o0, %l6, %o0
	set	0xdeadbeef, %l6
	set	0x01020304, %l7
	std	%l6, [%l0 + 16]
	ldd	[%l0 + 16], %l2
	ldsb	[%l0 + 16], %l4
	ldsh	[%l0 + 18], %l5
	lduh	[%l0 + 20], %l6
	add	%o0, %l2, %o0
	add	%o0, %l3, %o0
	add	%o0, %l4, %o0
	add	%o0, %l5, %o0
	add	%o0, %l6, %o0
	sth	%l3, [%l0 + 26]
	ld	[%l0 + 24], %l4
	add	%o0, %l4, %o0

	/* 64-bit add and subtract chains. */
	set	0xffffffff, %l1
	addcc	%l1, 1, %l2
	addxcc	%g0, 5, %l3
	addx	%l3, %l3, %l4
	subcc	%g0, 1, %l5
	subxcc	%g0, 0, %l6
	subx	%l6, 3, %l7
	add	%o0, %l2, %o0
	add	%o0, %l3, %o0
	add	%o0, %l4, %o0
	add	%o0, %l5, %o0
	add	%o0, %l6, %o0
	add	%o0, %l7, %o0

	/* Tagged arithmetic (non-trapping). */
	mov	8, %l1
	taddcc	%l1, 4, %l2
	taddcc	%l1, 5, %l3
	tsubcc	%l1, 12, %l4
	set	0x7ffffffc, %l5
	taddcc	%l5, 4, %l6
	addx	%g0, 0, %l7
	add	%o0, %l2, %o0
	add	%o0, %l3, %o0
	add	%o0, %l4, %o0
	add	%o0, %l6, %o0
	add	%o0, %l7, %o0

	/* MULScc: 0x1234 * 0x5678 by 32 shift-and-add steps plus the final step. */
	set	0x1234, %l1
	set	0x5678, %l2
	wr	%l1, %y
	nop
	nop
	nop
	andcc	%g0, %g0, %l3
	.rept	32
	mulscc	%l3, %l2, %l3
	.endr
	mulscc	%l3, %g0, %l3
	rd	%y, %l4
	add	%o0, %l3, %o0
	add	%o0, %l4, %o0

	/* umul/smul high words, and divisions with a 64-bit dividend in Y. */
	set	0x89abcdef, %l1
	set	0x7654321f, %l2
	umul	%l1, %l2, %l3
	rd	%y, %l4
	smulcc	%l1, %l2, %l5
	rd	%y, %l6
	add	%o0, %l3, %o0
	add	%o0, %l4, %o0
	add	%o0, %l5, %o0
	add	%o0, %l6, %o0
	mov	3, %l1
	wr	%l1, %y
	nop
	nop
	nop
	set	0x40000000, %l2
	udivcc	%l2, 7, %l3
	mov	-1, %l1
	wr	%l1, %y
	nop
	nop
	nop
	sdivcc	%l2, -9, %l4
	mov	1, %l1
	wr	%l1, %y
	nop
	nop
	nop
	sdivcc	%l2, 3, %l5		/* quotient overflows: 0x7fffffff, V */
	bvs,a	1f
	add	%o0, 1, %o0
1:	udivcc	%l2, 1, %l6		/* overflows too */
	add	%o0, %l3, %o0
	add	%o0, %l4, %o0
	add	%o0, %l5, %o0
	add	%o0, %l6, %o0

	/* SAVE/RESTORE as adds across windows; then flush all windows. */
	mov	%o0, %l7
	save	%sp, -96, %sp
	save	%sp, -96, %sp
	save	%i6, -200, %sp
	save	%sp, -96, %sp
	save	%sp, -96, %sp
	save	%sp, -96, %sp
	save	%sp, -96, %sp
	save	%sp, -96, %sp
	save	%sp, -96, %sp
	ta	3
	restore
	restore
	restore	%g0, 5, %g1
	restore	%g1, %g1, %l0
	restore
	restore
	restore
	restore
	restore
	add	%l7, %g1, %o0
	and	%o0, 0xff, %o0
	mov	1, %g1
	ta	0x10

	.data
	.align	8
vals:
	.word	0, 0
	.word	0, 1
	.word	1, 0
	.word	-1, 1
	.word	0x7fffffff, 1
	.word	0x80000000, 0x80000000
	.word	0x80000000, 1
	.word	5, -5
	.word	-3, -7
	.word	0x40000000, 0x40000000
	nvals = (. - vals) / 8
scratch:
	.skip	64
