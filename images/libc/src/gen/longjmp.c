/*
 * The signal-mask half of setjmp/longjmp; the register half is assembly per ISA
 * (arch/<isa>/setjmp.S). setjmp and sigsetjmp save the registers, then tail-call __sigjmp_save,
 * whose 0 is their return value.
 */
#include <setjmp.h>
#include <signal.h>

int __sigjmp_save(sigjmp_buf env, int savemask);

int
__sigjmp_save(sigjmp_buf env, int savemask)
{
	env[_JB_SAVEMASK] = savemask;
	if (savemask)
		sigprocmask(SIG_BLOCK, 0, (sigset_t *)&env[_JB_SIGMASK]);
	return 0;
}

void
longjmp(jmp_buf env, int val)
{
	if (env[_JB_SAVEMASK])
		sigprocmask(SIG_SETMASK, (sigset_t *)&env[_JB_SIGMASK], 0);
	_longjmp(env, val);
}

void
siglongjmp(sigjmp_buf env, int val)
{
	longjmp(env, val);
}
