/*
 * BSD-flavour SPARC stubs for the calls whose results need more than the plain stub: a second
 * value in %o1 (fork, pipe) or a signal set passed by value (sigprocmask, sigpending). The
 * kernel preserves every register except %o0, %o1 and the PSR icc across `ta 0`.
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

/*
 * long __sys_indir(long a1, ..., long a8, long number): the trap `number` with up to eight
 * argument words (syscall.c). a1-a6 are in %o0-%o5 and a7, a8 at [%sp + 92], [%sp + 96] of the
 * caller's frame, where the trap reads them; number is the ninth word, [%sp + 100].
 */
ENTRY(__sys_indir)
	ld	[%sp + ARGPUSH + 8], %g1
	ta	ST_SYSCALL
	bcs	__cerror
	nop
	retl
	nop
END(__sys_indir)
