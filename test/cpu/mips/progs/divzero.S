/*
 * A divide by zero the way gcc checks it on MIPS I (div, then bnez over break 7): the process
 * ends on the break. qemu-user 7.2 delivers SIGTRAP for it (Linux proper: SIGFPE); the test
 * Linux layer follows qemu.
 */
	.set	noreorder
	.text
	.globl	main
	.ent	main
main:
	li	$4, 5
	div	$0, $4, $0
	bnez	$0, 1f
	nop
	break	7
1:	mflo	$2
	jr	$31
	nop
	.end	main
