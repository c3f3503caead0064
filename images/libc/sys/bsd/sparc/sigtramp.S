/*
 * __sigtramp: where the kernel enters a process to run a signal handler (docs/abi.md "Signals").
 * Its address is the fourth argument of every sigaction trap (sys/bsd/sigaction.c).
 *
 * Entry, in the interrupted window, with every user window flushed to the stack: %o0 = signal
 * number, %o1 = code, %o2 = scp (the struct sigcontext the kernel saved on the stack), %o3 =
 * handler, %sp = the signal frame (a 96-byte minimum frame, then *scp); every other register as
 * it was when the signal arrived. The trampoline takes a window of its own so that the
 * interrupted window's %l and %i registers survive the handler untouched, calls
 * handler(sig, code, scp), gives the window back and calls sigreturn(scp), which restores the
 * globals, the outs, PC/nPC, PSR icc, Y and the FPU. If sigreturn fails the context is unusable:
 * `unimp` raises SIGILL.
 */
#include <SYS.h>

	.text
ENTRY(__sigtramp)
	save	%sp, -MINFRAME, %sp
	mov	%i0, %o0
	mov	%i1, %o1
	call	%i3
	mov	%i2, %o2
	restore
	mov	%o2, %o0
	mov	SYS_sigreturn, %g1
	ta	ST_SYSCALL
	unimp	0
END(__sigtramp)
