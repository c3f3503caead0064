/*
 * Minimal start-up code for the CPU test programs (Linux o32 syscalls, as qemu-user runs them):
 * main(argc, argv), then exit(main's result). sys_write(fd, buf, n) and sys_exit(status) are the
 * only services the programs use.
 */
	.set	noreorder
	.text
	.globl	__start
	.ent	__start
__start:
	lw	$4, 0($29)		/* argc */
	addiu	$5, $29, 4		/* argv */
	addiu	$29, $29, -32
	jal	main
	nop
	move	$4, $2
	li	$2, 4001		/* exit */
	syscall
	break	0
	.end	__start

	.globl	sys_write
	.ent	sys_write
sys_write:
	li	$2, 4004
	syscall
	jr	$31
	nop
	.end	sys_write

	.globl	sys_exit
	.ent	sys_exit
sys_exit:
	li	$2, 4001
	syscall
	break	0
	.end	sys_exit
