/*
 * A tiny crt for the CPU test programs (not the project's libc): argc/argv from the Linux
 * sparc32 process start (%sp+64, %sp+68), main's result to exit(2), and the three Linux system
 * calls the programs need, through `ta 0x10` with the number in %g1 and carry = error.
 */
	.text
	.align	4
	.globl	_start
	.type	_start, #function
_start:
	mov	%g0, %fp
	ld	[%sp + 64], %o0
	add	%sp, 68, %o1
	sub	%sp, 96, %sp
	call	main
	nop
	call	sys_exit
	nop
	unimp	0

	.globl	sys_exit
	.type	sys_exit, #function
sys_exit:
	mov	1, %g1
	ta	0x10
	unimp	0

/* long sys_write(int fd, const void *buf, unsigned long n): -errno on failure. */
	.globl	sys_write
	.type	sys_write, #function
sys_write:
	mov	4, %g1
	ta	0x10
	bcs,a	1f
	sub	%g0, %o0, %o0
1:	retl
	nop

/* void *sys_brk(void *addr) */
	.globl	sys_brk
	.type	sys_brk, #function
sys_brk:
	mov	17, %g1
	ta	0x10
	retl
	nop
