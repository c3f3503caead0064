/*
 * Hand-written coverage the compiler does not produce: lwl/lwr/swl/swr at every byte offset,
 * bltzal/bgezal, jalr with an explicit link register, all branch conditions around zero, and
 * HI/LO moves. Loads are followed by an unrelated instruction (R2000 load delay).
 */
	.set	noreorder
	.set	noat
	.data
	.align	3
src:	.byte	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc
dst:	.space	32

	.text
	.globl	main
	.ent	main
main:
	move	$16, $31
	la	$8, src
	la	$9, dst
	li	$10, 0			/* byte offset 0..7 */
	li	$11, 0x0badcafe
1:	addu	$12, $8, $10
	move	$2, $11
	lwl	$2, 0($12)
	nop
	move	$3, $11
	lwr	$3, 0($12)
	nop
	move	$4, $11
	lwl	$4, 3($12)
	nop
	lwr	$4, 0($12)		/* the unaligned-load pair: little-endian order */
	nop
	move	$5, $11
	lwr	$5, 3($12)
	nop
	lwl	$5, 0($12)		/* and big-endian order */
	nop
	addu	$13, $9, $10
	sw	$0, 0($9)
	sw	$0, 4($9)
	sw	$0, 8($9)
	li	$6, 0xa1b2c3d4
	swl	$6, 0($13)
	swr	$6, 3($13)
	lw	$14, 0($9)
	lw	$15, 4($9)
	swr	$6, 0($13)
	swl	$6, 3($13)
	lw	$24, 0($9)
	lw	$25, 4($9)
	nop
	addiu	$10, $10, 1
	sltiu	$1, $10, 8
	bnez	$1, 1b
	nop

	/* bltzal/bgezal: link is written whether or not the branch is taken. */
	li	$4, -5
	li	$31, 0
	bltzal	$4, 2f
	addiu	$4, $4, 1		/* delay slot executes */
	nop
2:	move	$7, $31
	bgezal	$4, 3f			/* not taken: $4 = -4 */
	nop
3:	move	$7, $31
	li	$4, 0
	bgezal	$4, 4f			/* taken at zero */
	nop
	nop
4:	bltz	$4, 5f
	nop
	blez	$4, 5f			/* taken */
	nop
	nop
5:	li	$4, 1
	bgtz	$4, 6f
	nop
	nop
6:	bgez	$4, 7f
	li	$5, 99			/* delay slot of a taken branch */
	nop
7:	la	$25, 8f
	jalr	$17, $25		/* explicit link register */
	nop
8:	mthi	$17
	mtlo	$25
	mfhi	$18
	mflo	$19
	lui	$20, 0x8000
	ori	$20, $20, 0x0001
	sra	$21, $20, 31
	srl	$22, $20, 31
	sll	$23, $20, 1
	srav	$21, $20, $4
	srlv	$22, $20, $4
	sllv	$23, $20, $4
	move	$31, $16
	jr	$31
	move	$2, $0
	.end	main
