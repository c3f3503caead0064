# Minimal runtime for running cc1 output under qemu-mipsel (Linux o32 syscalls): __start,
# putchar, getchar (always EOF), exit. Used by check.sh only.
	.text
	.globl	__start
	.ent	__start
__start:
	jal	main
	move	$a0,$v0
	jal	exit
	.end	__start
	.globl	putchar
	.ent	putchar
putchar:
	addiu	$sp,$sp,-8
	sb	$a0,0($sp)
	li	$a0,1
	move	$a1,$sp
	li	$a2,1
	li	$v0,4004
	syscall
	addiu	$sp,$sp,8
	jr	$ra
	.end	putchar
	.globl	exit
	.ent	exit
exit:
	li	$v0,4001
	syscall
	.end	exit
	.globl	getchar
getchar:
	li	$v0,-1
	jr	$ra
