/*
 * abort (4.4BSD lib/libc/stdlib/abort.c): SIGABRT is unblocked and raised; if a handler returns,
 * the default action is restored and the signal raised again, so the process ends by SIGABRT.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

void
abort(void)
{
	sigset_t mask = sigmask(SIGABRT);

	sigprocmask(SIG_UNBLOCK, &mask, 0);
	raise(SIGABRT);
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
	/* Only if even the default action did not end the process. */
	_exit(128 + SIGABRT);
}
