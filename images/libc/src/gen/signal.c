/*
 * signal and raise (4.4BSD lib/libc/gen/signal.c, raise.c). signal() installs the handler with
 * BSD semantics: interrupted system calls restart (SA_RESTART), the handler stays installed and
 * its signal is blocked while it runs.
 */
#include <signal.h>
#include <unistd.h>

sig_t
signal(int sig, sig_t func)
{
	struct sigaction sa, osa;

	sa.sa_handler = func;
	sa.sa_mask = 0;
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &osa) < 0)
		return SIG_ERR;
	return osa.sa_handler;
}

int
raise(int sig)
{
	return kill(getpid(), sig);
}
