/*
 * sigaction and sigsuspend for the BSD flavour. The kernel runs every handler through the
 * libc's trampoline (<isa>/sigtramp.S), whose address each sigaction trap carries, so that the
 * code that calls handlers and sigreturn is part of the (instrumentable) program.
 */
#include <signal.h>

int __sys_sigaction(int, const struct sigaction *, struct sigaction *, void (*)(void));
int __sys_sigsuspend(sigset_t);
void __sigtramp(void);

int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	return __sys_sigaction(sig, act, oact, __sigtramp);
}

int
sigsuspend(const sigset_t *set)
{
	return __sys_sigsuspend(*set);
}
