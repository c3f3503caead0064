/*
 * BSD-flavour SPARC stubs for the calls whose arguments or results need more than the plain
 * stub: a second value in %o1 (fork, pipe), a signal set passed by value (sigprocmask,
 * sigpending), and lseek's pad word. The kernel preserves every register except %o0, %o1 and
 * the PSR icc across `ta 0`.
 */
#include <SYS.h>

	.text

/* pid_t fork(void): %o1 is 1 in the child, whose result is 0, and 0 in the parent. */
ENTRY(fork)
	mov	SYS_fork, %g1
	ta	ST_SYSCALL
	bcs	__cerror
	nop
	sub	%o1, 1, %o1		/* child: 0, parent: all ones */
	retl
	and	%o0, %o1, %o0
END(fork)

/* int pipe(int fds[2]): the read end comes back in %o0, the write end in %o1. */
ENTRY(pipe)
	mov	%o0, %o2
	mov	SYS_pipe, %g1
	ta	ST_SYSCALL
	bcs	__cerror
	nop
	st	%o0, [%o2]
	st	%o1, [%o2 + 4]
	retl
	clr	%o0
END(pipe)

/*
 * off_t lseek(int fd, off_t offset, int whence): the C convention passes the offset in %o1/%o2
 * (high, low) and whence in %o3; the trap wants (fd, pad, offset, whence) in %o0-%o4. The 64-bit
 * result comes back in %o0 (high) and %o1 (low), as the C convention returns a long long.
 */
ENTRY(lseek)
	mov	%o3, %o4
	mov	%o2, %o3
	mov	%o1, %o2
	mov	SYS_lseek, %g1
	ta	ST_SYSCALL
	bcs	__cerror
	nop
	retl
	nop
END(lseek)

/*
 * int sigprocmask(int how, const sigset_t *set, sigset_t *oset): the trap takes the new mask by
 * value and returns the old one. A NULL set only queries: SIG_BLOCK (1) of the empty set.
 */
ENTRY(sigprocmask)
	tst	%o1
	bne,a	1f
	ld	[%o1], %o1		/* annulled unless set != NULL */
	mov	1, %o0			/* SIG_BLOCK, with %o1 = 0 */
1:	mov	SYS_sigprocmask, %g1
	ta	ST_SYSCALL
	bcs	__cerror
	nop
	tst	%o2
	bne,a	2f
	st	%o0, [%o2]		/* annulled unless oset != NULL */
2:	retl
	clr	%o0
END(sigprocmask)

/* int sigpending(sigset_t *set): the trap returns the set. */
ENTRY(sigpending)
	mov	%o0, %o2
	mov	SYS_sigpending, %g1
	ta	ST_SYSCALL
	bcs	__cerror
	nop
	st	%o0, [%o2]
	retl
	clr	%o0
END(sigpending)
