/*
 * BSD-flavour MIPS stubs for the calls whose results need more than the plain stub: a second
 * value in v1 (fork, pipe) or a signal set passed by value (sigprocmask, sigpending).
 * The kernel preserves every register except v0, v1 and a3 across `syscall`.
 */
#include <SYS.h>

	.text
	.set	noreorder

/* pid_t fork(void): v1 is 1 in the child, whose result is 0, and 0 in the parent. */
LEAF(fork)
	li	v0, SYS_fork
	syscall
	bnez	a3, 2f
	nop
	beqz	v1, 1f
	nop
	move	v0, zero
1:	j	ra
	nop
2:	j	__cerror
	nop
END(fork)

/* int pipe(int fds[2]): the read end comes back in v0, the write end in v1. */
LEAF(pipe)
	li	v0, SYS_pipe
	syscall
	bnez	a3, 1f
	nop
	sw	v0, 0(a0)
	sw	v1, 4(a0)
	j	ra
	move	v0, zero
1:	j	__cerror
	nop
END(pipe)

/*
 * int sigprocmask(int how, const sigset_t *set, sigset_t *oset): the trap takes the new mask by
 * value and returns the old one. A NULL set only queries: SIG_BLOCK (1) of the empty set.
 */
LEAF(sigprocmask)
	beqz	a1, 1f
	nop
	b	2f
	lw	a1, 0(a1)		/* mask = *set; used two instructions later */
1:	li	a0, 1			/* SIG_BLOCK, with a1 = 0 */
2:	li	v0, SYS_sigprocmask
	syscall
	bnez	a3, 4f
	nop
	beqz	a2, 3f
	nop
	sw	v0, 0(a2)
3:	j	ra
	move	v0, zero
4:	j	__cerror
	nop
END(sigprocmask)

/* int sigpending(sigset_t *set): the trap returns the set. */
LEAF(sigpending)
	li	v0, SYS_sigpending
	syscall
	bnez	a3, 1f
	nop
	sw	v0, 0(a0)
	j	ra
	move	v0, zero
1:	j	__cerror
	nop
END(sigpending)

/*
 * long __sys_indir(long a1, ..., long a8, long number): the trap `number` with up to eight
 * argument words (syscall.c). a1-a4 are in a0-a3 and a5-a8 at 16(sp)-28(sp) of the caller's
 * frame, which is still sp here, where the trap reads them; number is the ninth word, 32(sp).
 */
LEAF(__sys_indir)
	lw	v0, 32(sp)
	nop				/* load delay */
	syscall
	bnez	a3, 1f
	nop
	j	ra
	nop
1:	j	__cerror
	nop
END(__sys_indir)
