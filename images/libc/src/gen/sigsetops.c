/* Signal set operations (4.4BSD lib/libc/gen/sigsetops.c): bit n-1 of a sigset_t is signal n. */
#include <errno.h>
#include <signal.h>

int
sigemptyset(sigset_t *set)
{
	*set = 0;
	return 0;
}

int
sigfillset(sigset_t *set)
{
	*set = ~(sigset_t)0 >> (32 - (NSIG - 1));
	return 0;
}

static int
badsig(int sig)
{
	if (sig > 0 && sig < NSIG)
		return 0;
	errno = EINVAL;
	return 1;
}

int
sigaddset(sigset_t *set, int sig)
{
	if (badsig(sig))
		return -1;
	*set |= sigmask(sig);
	return 0;
}

int
sigdelset(sigset_t *set, int sig)
{
	if (badsig(sig))
		return -1;
	*set &= ~sigmask(sig);
	return 0;
}

int
sigismember(const sigset_t *set, int sig)
{
	if (badsig(sig))
		return -1;
	return (*set & sigmask(sig)) != 0;
}
