/*
 * Signal numbers and sets, 4.4BSD <-> Linux. Linux SPARC numbers its signals as SunOS, hence
 * almost as 4.4BSD; Linux MIPS follows System V (SIGUSR1 16, SIGCHLD 18, SIGSTOP 23...). 4.4BSD's
 * SIGINFO has no Linux counterpart; Linux's SIGPWR, SIGSTKFLT and real-time signals have no
 * 4.4BSD one.
 */
#include <lsignal.h>
#include <linux_signal.h>

static const unsigned char to_linux[NSIG] = {
	[SIGHUP] = LINUX_SIGHUP,	[SIGINT] = LINUX_SIGINT,
	[SIGQUIT] = LINUX_SIGQUIT,	[SIGILL] = LINUX_SIGILL,
	[SIGTRAP] = LINUX_SIGTRAP,	[SIGABRT] = LINUX_SIGABRT,
	[SIGEMT] = LINUX_SIGEMT,	[SIGFPE] = LINUX_SIGFPE,
	[SIGKILL] = LINUX_SIGKILL,	[SIGBUS] = LINUX_SIGBUS,
	[SIGSEGV] = LINUX_SIGSEGV,	[SIGSYS] = LINUX_SIGSYS,
	[SIGPIPE] = LINUX_SIGPIPE,	[SIGALRM] = LINUX_SIGALRM,
	[SIGTERM] = LINUX_SIGTERM,	[SIGURG] = LINUX_SIGURG,
	[SIGSTOP] = LINUX_SIGSTOP,	[SIGTSTP] = LINUX_SIGTSTP,
	[SIGCONT] = LINUX_SIGCONT,	[SIGCHLD] = LINUX_SIGCHLD,
	[SIGTTIN] = LINUX_SIGTTIN,	[SIGTTOU] = LINUX_SIGTTOU,
	[SIGIO] = LINUX_SIGIO,		[SIGXCPU] = LINUX_SIGXCPU,
	[SIGXFSZ] = LINUX_SIGXFSZ,	[SIGVTALRM] = LINUX_SIGVTALRM,
	[SIGPROF] = LINUX_SIGPROF,	[SIGWINCH] = LINUX_SIGWINCH,
	[SIGUSR1] = LINUX_SIGUSR1,	[SIGUSR2] = LINUX_SIGUSR2,
};

int
__sig_to_linux(int sig)
{
	return sig > 0 && sig < NSIG ? to_linux[sig] : 0;
}

int
__sig_from_linux(int lsig)
{
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (to_linux[sig] == lsig && lsig != 0)
			return sig;
	return 0;
}

void
__sigset_to_linux(sigset_t set, linux_sigset_t *lset)
{
	int sig, l, i;

	for (i = 0; i < LINUX_NSIG_WORDS; i++)
		lset->sig[i] = 0;
	for (sig = 1; sig < NSIG; sig++)
		if ((set & sigmask(sig)) && (l = to_linux[sig]) != 0)
			lset->sig[(l - 1) / 32] |= 1U << ((l - 1) % 32);
}

sigset_t
__sigset_from_linux(const linux_sigset_t *lset)
{
	sigset_t set = 0;
	int sig, l;

	for (sig = 1; sig < NSIG; sig++)
		if ((l = to_linux[sig]) != 0 && (lset->sig[(l - 1) / 32] & (1U << ((l - 1) % 32))))
			set |= sigmask(sig);
	return set;
}
