/*
 * ttest-reloc: one function per relocation use (main.c), for each ISA. Nothing here names the
 * registers the tracer reserves (MIPS k0/k1, SPARC %g5-%g7). `.reloc` emits the kinds that gas
 * chooses only in PIC or small-data code (R_SPARC_WPLT30, R_MIPS_GPREL32, ...).
 */
	.globl	rel_abs
	.set	rel_abs, 42

#if defined(__mips__)
	.text
	.set	noreorder

#define FUNC(n) .globl n; .type n, @function; .ent n; n:
#define END(n) .end n; .size n, . - n

FUNC(rel_inc)
	jr	$31
	addiu	$2, $4, 1
END(rel_inc)

FUNC(rel_dbl)
	jr	$31
	sll	$2, $4, 1
END(rel_dbl)

FUNC(rel_tail3)
	sll	$2, $4, 1
	jr	$31
	addu	$2, $2, $4
END(rel_tail3)

/* %hi/%lo of a function (R_MIPS_HI16, R_MIPS_LO16), called through t9. */
FUNC(rel_hilo)
	addiu	$29, $29, -24
	sw	$31, 20($29)
	lui	$25, %hi(rel_inc)
	addiu	$25, $25, %lo(rel_inc)
	jalr	$25
	nop
	lw	$31, 20($29)
	nop				/* the R2000's load delay: jr must not read $31 in the load's slot */
	jr	$31
	addiu	$29, $29, 24
END(rel_hilo)

/* Direct calls (R_MIPS_26): 2x + 1. */
FUNC(rel_calls)
	addiu	$29, $29, -24
	sw	$31, 20($29)
	jal	rel_dbl
	nop
	jal	rel_inc
	move	$4, $2
	lw	$31, 20($29)
	nop				/* the R2000's load delay: jr must not read $31 in the load's slot */
	jr	$31
	addiu	$29, $29, 24
END(rel_calls)

/* A branch into another function (R_MIPS_PC16): a tail branch. */
FUNC(rel_branch)
	b	rel_tail3
	nop
END(rel_branch)

/* A table of function pointers (R_MIPS_32). */
FUNC(rel_words)
	addiu	$29, $29, -24
	sw	$31, 20($29)
	sll	$8, $4, 2
	lui	$9, %hi(rel_fns)
	addu	$9, $9, $8
	lw	$25, %lo(rel_fns)($9)
	nop
	jalr	$25
	move	$4, $5
	lw	$31, 20($29)
	nop				/* the R2000's load delay: jr must not read $31 in the load's slot */
	jr	$31
	addiu	$29, $29, 24
END(rel_words)

/* $gp-relative data (R_MIPS_GPREL16, R_MIPS_LITERAL), a $gp-relative function address
   (R_MIPS_GPREL32) called with an R_MIPS_JALR hint, R_MIPS_NONE and R_MIPS_16. */
FUNC(rel_data)
	addiu	$29, $29, -24
	sw	$31, 20($29)
	sw	$16, 16($29)
	lw	$16, %gp_rel(rel_small)($28)
	.reloc	1f, R_MIPS_LITERAL, rel_lit
1:	lw	$8, 0($28)
	lui	$9, %hi(rel_gpword)
	lw	$25, %lo(rel_gpword)($9)
	addu	$16, $16, $8
	addu	$25, $25, $28
	.reloc	2f, R_MIPS_JALR, rel_dbl
2:	jalr	$25
	.reloc	., R_MIPS_NONE, rel_inc
	nop
	lui	$9, %hi(rel_half)
	lw	$9, %lo(rel_half)($9)
	addu	$2, $2, $16
	andi	$9, $9, 0xffff
	addu	$2, $2, $9
	lw	$16, 16($29)
	lw	$31, 20($29)
	nop				/* the R2000's load delay: jr must not read $31 in the load's slot */
	jr	$31
	addiu	$29, $29, 24
END(rel_data)

/* A relocation kind the instrumenter does not know, in its code: conservative mode. */
FUNC(rel_unknown)
	.reloc	1f, R_MIPS_GNU_VTENTRY, rel_inc
1:	addiu	$2, $4, 7
	jr	$31
	nop
END(rel_unknown)

/* A jump table whose last word is another function (a tail jump): conservative mode. */
FUNC(rel_table)
	sltiu	$8, $4, 4
	beq	$8, $0, 9f
	sll	$8, $4, 2
	lui	$9, %hi(rel_cases)
	addu	$9, $9, $8
	lw	$9, %lo(rel_cases)($9)
	move	$4, $5
	jr	$9
	nop
10:	jr	$31
	addiu	$2, $4, 10
11:	jr	$31
	addiu	$2, $4, 11
12:	jr	$31
	addiu	$2, $4, 12
9:	jr	$31
	move	$2, $0
END(rel_table)

/* A jump to a label plus an offset from a table of label differences: conservative mode. */
FUNC(rel_computed)
	sll	$8, $4, 2
	lui	$9, %hi(rel_offsets)
	addu	$9, $9, $8
	lw	$9, %lo(rel_offsets)($9)
	lui	$10, %hi(20f)
	addiu	$10, $10, %lo(20f)
	addu	$10, $10, $9
	jr	$10
	move	$2, $5
20:	addiu	$2, $2, 100
21:	addiu	$2, $2, 10
22:	jr	$31
	addiu	$2, $2, 1
END(rel_computed)

/* Hand-written code without .type and .size: conservative mode. inc(x * 5): a loop, then a
   tail jump whose delay slot pops the frame. */
	.globl	rel_unsized
rel_unsized:
	addiu	$29, $29, -24
	sw	$31, 20($29)
	move	$2, $0
	li	$8, 5
1:	addiu	$8, $8, -1
	bne	$8, $0, 1b
	addu	$2, $2, $4
	lw	$31, 20($29)
	move	$4, $2
	j	rel_inc
	addiu	$29, $29, 24

/* Calls code with no symbol through a pointer in data. */
FUNC(rel_anon)
	addiu	$29, $29, -24
	sw	$31, 20($29)
	lui	$9, %hi(rel_anon_ptr)
	lw	$25, %lo(rel_anon_ptr)($9)
	nop
	jalr	$25
	nop
	lw	$31, 20($29)
	nop				/* the R2000's load delay: jr must not read $31 in the load's slot */
	jr	$31
	addiu	$29, $29, 24
END(rel_anon)
	/* No symbol: code reached only through rel_anon_ptr. x - 3. */
.Lanon:
	jr	$31
	addiu	$2, $4, -3

	.section .sdata, "aw"
	.align	2
rel_small:
	.word	85
	.section .lit4, "aM", @progbits, 4
rel_lit:
	.word	42
	.section .rodata
	.align	2
rel_fns:
	.word	rel_inc, rel_dbl, rel_tail3
rel_gpword:
	.reloc	., R_MIPS_GPREL32, rel_dbl
	.word	0
rel_half:	/* R_MIPS_16 fills the low half of the word (either byte order) */
	.reloc	., R_MIPS_16, rel_abs
	.word	0
rel_cases:
	.word	10b, 11b, 12b, rel_dbl
rel_offsets:
	.word	20b - 20b, 21b - 20b, 22b - 20b
	.data
	.align	2
rel_anon_ptr:
	.word	.Lanon

#else /* SPARC */
	.text

#define FUNC(n) .align 4; .globl n; .type n, #function; n:
#define END(n) .size n, . - n

FUNC(rel_inc)
	retl
	add	%o0, 1, %o0
END(rel_inc)

FUNC(rel_dbl)
	retl
	sll	%o0, 1, %o0
END(rel_dbl)

FUNC(rel_tail3)
	sll	%o0, 1, %o1
	retl
	add	%o1, %o0, %o0
END(rel_tail3)

/* %hi/%lo of a function (R_SPARC_HI22, R_SPARC_LO10), called through a register. */
FUNC(rel_hilo)
	save	%sp, -96, %sp
	sethi	%hi(rel_inc), %l0
	or	%l0, %lo(rel_inc), %l0
	call	%l0
	mov	%i0, %o0
	ret
	restore	%o0, 0, %o0
END(rel_hilo)

/* Direct calls: R_SPARC_WDISP30, and R_SPARC_WPLT30 (a call through the PLT a static link
   resolves to a direct call). 2x + 1. */
FUNC(rel_calls)
	save	%sp, -96, %sp
	call	rel_dbl
	mov	%i0, %o0
	.reloc	., R_SPARC_WPLT30, rel_inc
	.word	0x40000000	/* call */
	nop
	ret
	restore	%o0, 0, %o0
END(rel_calls)

/* A branch into another function (R_SPARC_WDISP22): a tail branch. */
FUNC(rel_branch)
	ba	rel_tail3
	nop
END(rel_branch)

/* A table of function pointers (R_SPARC_32). */
FUNC(rel_words)
	save	%sp, -96, %sp
	sll	%i0, 2, %l0
	sethi	%hi(rel_fns), %l1
	or	%l1, %lo(rel_fns), %l1
	ld	[%l1 + %l0], %l1
	call	%l1
	mov	%i1, %o0
	ret
	restore	%o0, 0, %o0
END(rel_words)

/* A pc-relative function address (R_SPARC_DISP32) and an unaligned one (R_SPARC_UA32), both
   called; absolute data (R_SPARC_13, R_SPARC_22, R_SPARC_8, R_SPARC_16). */
FUNC(rel_data)
	save	%sp, -96, %sp
	sethi	%hi(rel_disp), %l0
	or	%l0, %lo(rel_disp), %l0
	ld	[%l0], %l1
	add	%l0, %l1, %l1
	call	%l1			/* rel_dbl */
	mov	%i0, %o0
	mov	%o0, %l2
	sethi	%hi(rel_ua), %l0
	or	%l0, %lo(rel_ua), %l0
	ldub	[%l0 + 1], %l1
	ldub	[%l0 + 2], %l3
	sll	%l1, 24, %l1
	sll	%l3, 16, %l3
	or	%l1, %l3, %l1
	ldub	[%l0 + 3], %l3
	sll	%l3, 8, %l3
	or	%l1, %l3, %l1
	ldub	[%l0 + 4], %l3
	or	%l1, %l3, %l1
	call	%l1			/* rel_inc */
	mov	%l2, %o0
	.reloc	., R_SPARC_13, rel_abs
	or	%g0, 0, %o1
	.reloc	., R_SPARC_22, rel_abs
	sethi	0, %o2
	srl	%o2, 10, %o2
	add	%o0, %o1, %o0
	add	%o0, %o2, %o0
	ldub	[%l0 + 5], %o1
	lduh	[%l0 + 6], %o2
	add	%o0, %o1, %o0
	ret
	restore	%o0, %o2, %o0
END(rel_data)

/* A relocation kind the instrumenter does not know, in its code: conservative mode. */
FUNC(rel_unknown)
	.reloc	., R_SPARC_PC22, rel_inc
	sethi	0, %o5
	retl
	add	%o0, 7, %o0
END(rel_unknown)

/* A jump table whose last word is another function (a tail jump): conservative mode. */
FUNC(rel_table)
	cmp	%o0, 3
	bgu	9f
	sll	%o0, 2, %o0
	sethi	%hi(rel_cases), %o2
	or	%o2, %lo(rel_cases), %o2
	ld	[%o2 + %o0], %o2
	jmp	%o2
	mov	%o1, %o0
10:	retl
	add	%o0, 10, %o0
11:	retl
	add	%o0, 11, %o0
12:	retl
	add	%o0, 12, %o0
9:	retl
	mov	0, %o0
END(rel_table)

/* A jump to a label plus an offset from a table of label differences: conservative mode. */
FUNC(rel_computed)
	sll	%o0, 2, %o0
	sethi	%hi(rel_offsets), %o2
	or	%o2, %lo(rel_offsets), %o2
	ld	[%o2 + %o0], %o2
	sethi	%hi(20f), %o3
	or	%o3, %lo(20f), %o3
	jmp	%o3 + %o2
	mov	%o1, %o0
20:	add	%o0, 100, %o0
21:	add	%o0, 10, %o0
22:	retl
	add	%o0, 1, %o0
END(rel_computed)

/* Hand-written code without .type and .size: conservative mode. inc(x * 5): a loop, then a
   tail call whose delay slot restores the caller's window. */
	.align	4
	.globl	rel_unsized
rel_unsized:
	save	%sp, -96, %sp
	mov	5, %o1
	mov	0, %o2
1:	subcc	%o1, 1, %o1
	bne	1b
	add	%o2, %i0, %o2
	call	rel_inc
	restore	%o2, 0, %o0

/* Calls code with no symbol through a pointer in data. */
FUNC(rel_anon)
	save	%sp, -96, %sp
	sethi	%hi(rel_anon_ptr), %l0
	ld	[%l0 + %lo(rel_anon_ptr)], %l0
	call	%l0
	mov	%i0, %o0
	ret
	restore	%o0, 0, %o0
END(rel_anon)
	/* No symbol: code reached only through rel_anon_ptr. x - 3. */
.Lanon:
	retl
	sub	%o0, 3, %o0

	.section .rodata
	.align	4
rel_fns:
	.word	rel_inc, rel_dbl, rel_tail3
rel_cases:
	.word	10b, 11b, 12b, rel_dbl
rel_offsets:
	.word	20b - 20b, 21b - 20b, 22b - 20b
	.data
	.align	4
rel_disp:
	.word	rel_dbl - .
rel_ua:
	.byte	0
	.uaword	rel_inc
	.reloc	., R_SPARC_8, rel_abs
	.byte	0
	.reloc	., R_SPARC_16, rel_abs
	.half	0
	.align	4
rel_anon_ptr:
	.word	.Lanon
#endif
