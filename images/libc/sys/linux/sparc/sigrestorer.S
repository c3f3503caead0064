/*
 * __linux_sigrestorer: where a handler returns under Linux sparc32. sigaction passes
 * __linux_sigrestorer - 8 as rt_sigaction's restorer; the kernel puts it in the handler's %o7,
 * so the handler's `ret` (jmpl %i7 + 8) lands here, in the window whose %sp is the signal frame.
 * Handlers are installed without SA_SIGINFO, so the frame is the old-style one of sigreturn.
 */
#include <machine/asm.h>
#include <linux_nr.h>

	.text
ENTRY(__linux_sigrestorer)
	mov	LNR_sigreturn, %g1
	ta	ST_LINUX_SYSCALL
	unimp	0
END(__linux_sigrestorer)
