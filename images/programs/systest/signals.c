/* systest: signals (sigaction, signal, raise, kill, masks, sigpending, sigsuspend, SIGCHLD). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "systest.h"

static volatile sig_atomic_t count, last, blocked_self, blocked_extra;

static void
handler(int sig)
{
	sigset_t cur;

	count++;
	last = sig;
	sigprocmask(SIG_BLOCK, 0, &cur);
	blocked_self = sigismember(&cur, sig);
	blocked_extra = sigismember(&cur, SIGUSR2);
}

static volatile sig_atomic_t chld;

static void
on_chld(int sig)
{
	(void)sig;
	chld++;
}

static int
install(int sig, void (*h)(int), int flags, int extra)
{
	struct sigaction sa;

	sa.sa_handler = h;
	sigemptyset(&sa.sa_mask);
	if (extra)
		sigaddset(&sa.sa_mask, extra);
	sa.sa_flags = flags;
	return sigaction(sig, &sa, 0);
}

void
t_signals(void)
{
	struct sigaction oa;
	sigset_t set, old, pend;
	int status, r;
	pid_t pid;

	outf("== signals\n");
	CHECK_SYS("sigaction installs a handler", install(SIGUSR1, handler, 0, SIGUSR2) == 0);
	count = 0;
	raise(SIGUSR1);
	outf("raise(SIGUSR1): handler ran %d time(s) with %s\n", (int)count, signame(last));
	check("the handler gets the signal number", count == 1 && last == SIGUSR1, 0);
	check("the signal is blocked in its own handler", blocked_self == 1, 0);
	check("sa_mask is blocked in the handler", blocked_extra == 1, 0);
	sigprocmask(SIG_BLOCK, 0, &set);
	check("the mask is restored after the handler", !sigismember(&set, SIGUSR1) && !sigismember(&set, SIGUSR2), 0);
	check("kill(getpid()) delivers too", kill(getpid(), SIGUSR1) == 0 && count == 2, 0);
	check("sigaction reports the installed handler", sigaction(SIGUSR1, 0, &oa) == 0 && oa.sa_handler == handler &&
	    sigismember(&oa.sa_mask, SIGUSR2) == 1, 0);
	CHECK_ERRNO("sigaction on SIGKILL", install(SIGKILL, handler, 0, 0) < 0, EINVAL);
	CHECK_ERRNO("sigaction on signal 0", install(0, handler, 0, 0) < 0, EINVAL);

	check("signal() returns the previous handler", signal(SIGUSR1, SIG_IGN) == handler, 0);
	raise(SIGUSR1);
	check("an ignored signal does nothing", count == 2, 0);
	check("signal() reports SIG_IGN", signal(SIGUSR1, handler) == SIG_IGN, 0);
	raise(SIGUSR1);
	check("signal() handler runs", count == 3, 0);

	/* A blocked signal waits in sigpending until it is unblocked. */
	install(SIGUSR2, handler, 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR2);
	check("a blocked signal is not delivered", count == 3, 0);
	sigpending(&pend);
	check("sigpending shows it", sigismember(&pend, SIGUSR2) == 1 && sigismember(&pend, SIGUSR1) == 0, 0);
	sigprocmask(SIG_SETMASK, &old, &set);
	check("unblocking delivers it", count == 4 && last == SIGUSR2, 0);
	check("sigprocmask returned the previous mask", sigismember(&set, SIGUSR2) == 1, 0);
	sigpending(&pend);
	check("nothing pending afterwards", !sigismember(&pend, SIGUSR2), 0);

	/* SA_RESETHAND: one delivery, then the default again. */
	install(SIGUSR2, handler, SA_RESETHAND, 0);
	raise(SIGUSR2);
	check("SA_RESETHAND handler ran", count == 5, 0);
	check("SA_RESETHAND restored SIG_DFL", sigaction(SIGUSR2, 0, &oa) == 0 && oa.sa_handler == SIG_DFL, 0);

	/* sigsuspend: the signal a child sends while it is blocked arrives inside sigsuspend. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	if ((pid = fork()) == 0) {
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	count = 0;
	sigemptyset(&set);
	r = sigsuspend(&set);
	CHECK_ERRNO("sigsuspend returns after the handler", r < 0 && count == 1, EINTR);
	sigprocmask(SIG_SETMASK, &old, 0);
	waitpid(pid, &status, 0);

	/* SIGCHLD reaches a handler when a child exits. */
	install(SIGCHLD, on_chld, SA_RESTART, 0);
	chld = 0;
	if ((pid = fork()) == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	check("SIGCHLD handler ran for the exited child", chld == 1, 0);
	signal(SIGCHLD, SIG_DFL);

	/* The default action of a caught-then-defaulted signal kills. */
	if ((pid = fork()) == 0) {
		signal(SIGUSR1, SIG_DFL);
		raise(SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check("default SIGUSR1 terminates", WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1, 0);
	if ((pid = fork()) == 0) {
		abort();
	}
	waitpid(pid, &status, 0);
	check("abort() ends by SIGABRT", WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, 0);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}
