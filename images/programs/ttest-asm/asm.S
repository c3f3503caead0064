/*
 * Hand-written assembly for ttest-asm: the same five functions for each ISA. Nothing here names
 * the registers the tracer reserves (MIPS k0/k1, SPARC %g5-%g7).
 */
#if defined(__mips__)
	.text
	.set	noreorder

/* int asm_sum(const int *p, int n): the pointer moves in the branch's delay slot. */
	.globl	asm_sum
	.type	asm_sum, @function
asm_sum:
	move	$2, $0
	blez	$5, 2f
	nop
1:	lw	$8, 0($4)
	addiu	$5, $5, -1
	addu	$2, $2, $8
	bgtz	$5, 1b
	addiu	$4, $4, 4
2:	jr	$31
	nop
	.size	asm_sum, . - asm_sum

/* int asm_count(const char *s, int c): byte loads; the count moves in a branch's delay slot. */
	.globl	asm_count
	.type	asm_count, @function
asm_count:
	move	$2, $0
1:	lbu	$8, 0($4)
	nop
	beq	$8, $0, 2f
	addiu	$4, $4, 1
	bne	$8, $5, 1b
	nop
	b	1b
	addiu	$2, $2, 1
2:	jr	$31
	nop
	.size	asm_count, . - asm_count

/* int asm_dispatch(int op, int a, int b): a jump table in .rodata; case 3 is a tail call. */
	.globl	asm_dispatch
	.type	asm_dispatch, @function
asm_dispatch:
	sltiu	$8, $4, 4
	beq	$8, $0, 9f
	sll	$8, $4, 2
	lui	$9, %hi(dispatch_table)
	addu	$9, $9, $8
	lw	$9, %lo(dispatch_table)($9)
	nop
	jr	$9
	nop
case0:	jr	$31
	addu	$2, $5, $6
case1:	jr	$31
	subu	$2, $5, $6
case2:	mult	$5, $6
	mflo	$2
	jr	$31
	nop
case3:	j	twice_c
	move	$4, $5
9:	jr	$31
	li	$2, -1
	.size	asm_dispatch, . - asm_dispatch

/* int asm_apply(int (*f)(int), int x): f(f(x)) through jalr; the argument set in the slot. */
	.globl	asm_apply
	.type	asm_apply, @function
asm_apply:
	addiu	$29, $29, -24
	sw	$31, 20($29)
	sw	$16, 16($29)
	move	$16, $4
	jalr	$16
	move	$4, $5
	move	$4, $2
	jalr	$16
	nop
	lw	$31, 20($29)
	lw	$16, 16($29)
	jr	$31
	addiu	$29, $29, 24
	.size	asm_apply, . - asm_apply

/* int asm_fib(int n): recursive; deliberately without .size. */
	.globl	asm_fib
	.type	asm_fib, @function
asm_fib:
	addiu	$29, $29, -32
	sw	$31, 28($29)
	sw	$16, 24($29)
	sw	$17, 20($29)
	move	$16, $4
	slti	$8, $4, 2
	bne	$8, $0, 1f
	move	$2, $4
	jal	asm_fib
	addiu	$4, $16, -1
	move	$17, $2
	jal	asm_fib
	addiu	$4, $16, -2
	addu	$2, $2, $17
1:	lw	$31, 28($29)
	lw	$16, 24($29)
	lw	$17, 20($29)
	jr	$31
	addiu	$29, $29, 32

	.section .rodata
	.align	2
dispatch_table:
	.word	case0, case1, case2, case3

#elif defined(__sparc__)
	.text

/* int asm_sum(const int *p, int n): a leaf; the loop's branch annuls its slot when it exits. */
	.globl	asm_sum
	.type	asm_sum, #function
asm_sum:
	cmp	%o1, 0
	ble	2f
	 clr	%g1
1:	ld	[%o0], %g2
	add	%g1, %g2, %g1
	subcc	%o1, 1, %o1
	bne,a	1b
	 add	%o0, 4, %o0
2:	retl
	 mov	%g1, %o0
	.size	asm_sum, . - asm_sum

/* int asm_count(const char *s, int c): byte loads, bne,a and ba,a. */
	.globl	asm_count
	.type	asm_count, #function
asm_count:
	clr	%g1
1:	ldub	[%o0], %g2
	tst	%g2
	be	2f
	 inc	%o0
	cmp	%g2, %o1
	bne,a	1b
	 nop
	inc	%g1
	ba,a	1b
	 unimp	0
2:	retl
	 mov	%g1, %o0
	.size	asm_count, . - asm_count

/* int asm_dispatch(int op, int a, int b): a jump table in .rodata; case 3 is a tail call. */
	.globl	asm_dispatch
	.type	asm_dispatch, #function
asm_dispatch:
	cmp	%o0, 3
	bgu	9f
	 sll	%o0, 2, %g1
	sethi	%hi(dispatch_table), %g2
	or	%g2, %lo(dispatch_table), %g2
	ld	[%g2 + %g1], %g1
	jmp	%g1
	 nop
case0:	retl
	 add	%o1, %o2, %o0
case1:	retl
	 sub	%o1, %o2, %o0
case2:	retl
	 smul	%o1, %o2, %o0
case3:	mov	%o1, %o0
	mov	%o7, %g1
	call	twice_c
	 mov	%g1, %o7
9:	retl
	 mov	-1, %o0
	.size	asm_dispatch, . - asm_dispatch

/* int asm_apply(int (*f)(int), int x): f(f(x)) through call %reg, in a register window. */
	.globl	asm_apply
	.type	asm_apply, #function
asm_apply:
	save	%sp, -96, %sp
	call	%i0
	 mov	%i1, %o0
	call	%i0
	 nop
	ret
	 restore %g0, %o0, %o0
	.size	asm_apply, . - asm_apply

/* int asm_fib(int n): recursive; deliberately without .size. */
	.globl	asm_fib
	.type	asm_fib, #function
asm_fib:
	save	%sp, -96, %sp
	cmp	%i0, 2
	bl	1f
	 nop
	call	asm_fib
	 sub	%i0, 1, %o0
	mov	%o0, %l1
	call	asm_fib
	 sub	%i0, 2, %o0
	ret
	 restore %o0, %l1, %o0
1:	ret
	 restore %i0, 0, %o0

	.section ".rodata"
	.align	4
dispatch_table:
	.word	case0, case1, case2, case3
#else
#error "ttest-asm: no assembly for this ISA"
#endif
