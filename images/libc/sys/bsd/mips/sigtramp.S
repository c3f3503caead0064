/*
 * __sigtramp: where the kernel enters a process to run a signal handler (docs/abi.md "Signals").
 * Its address is the fourth argument of every sigaction trap (sys/bsd/sigaction.c).
 *
 * Entry: a0 = signal number, a1 = code, a2 = scp (the struct sigcontext the kernel saved on the
 * stack), a3 = handler, sp = the signal frame (16 bytes of argument save area, then *scp); every
 * other register as it was when the signal arrived. The trampoline calls handler(sig, code, scp)
 * and then sigreturn(scp), which restores every register saved in *scp, so the trampoline may
 * use s0 freely. If sigreturn fails the context is unusable: `break` raises SIGTRAP.
 */
#include <SYS.h>

	.text
	.set	noreorder
LEAF(__sigtramp)
	move	s0, a2
	jalr	a3
	nop
	move	a0, s0
	li	v0, SYS_sigreturn
	syscall
	break	0
	nop
END(__sigtramp)
