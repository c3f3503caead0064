/*
 * sigaction, sigprocmask, sigpending, sigsuspend, kill and sigreturn for the Linux flavour.
 *
 * Linux delivers its own signal numbers, so every caught signal enters dispatch(), which calls
 * the program's handler with the 4.4BSD number: handler(sig, 0, NULL). The code and sigcontext
 * arguments are 4.4BSD kernel state with no Linux equivalent here (docs/abi.md "Linux flavour").
 * On SPARC the kernel returns from a handler through the restorer libc passes to rt_sigaction
 * (sparc/sigrestorer.S).
 */
#include <errno.h>
#include <lsignal.h>
#include <lsys.h>
#include <signal.h>
#include <linux_signal.h>

typedef void (*bsd_handler_t)(int, int, struct sigcontext *);

/* The program's handlers, by 4.4BSD number, for the signals whose Linux handler is dispatch. */
static sig_t handlers[NSIG];

#ifdef __sparc__
void __linux_sigrestorer(void);

/*
 * qemu-sparc's signal frame does not save the FPU (the kernel's does), so the dispatcher keeps the
 * interrupted code's FP registers and FSR across the handler itself.
 */
#define FP_SAVE(f, fsr)							\
	__asm__ volatile(						\
	    "std %%f0, [%0 + 0]\n\tstd %%f2, [%0 + 8]\n\t"		\
	    "std %%f4, [%0 + 16]\n\tstd %%f6, [%0 + 24]\n\t"		\
	    "std %%f8, [%0 + 32]\n\tstd %%f10, [%0 + 40]\n\t"		\
	    "std %%f12, [%0 + 48]\n\tstd %%f14, [%0 + 56]\n\t"		\
	    "std %%f16, [%0 + 64]\n\tstd %%f18, [%0 + 72]\n\t"		\
	    "std %%f20, [%0 + 80]\n\tstd %%f22, [%0 + 88]\n\t"		\
	    "std %%f24, [%0 + 96]\n\tstd %%f26, [%0 + 104]\n\t"		\
	    "std %%f28, [%0 + 112]\n\tstd %%f30, [%0 + 120]\n\t"	\
	    "st %%fsr, [%1]"						\
	    : : "r"(f), "r"(fsr) : "memory")
#define FP_RESTORE(f, fsr)						\
	__asm__ volatile(						\
	    "ldd [%0 + 0], %%f0\n\tldd [%0 + 8], %%f2\n\t"		\
	    "ldd [%0 + 16], %%f4\n\tldd [%0 + 24], %%f6\n\t"		\
	    "ldd [%0 + 32], %%f8\n\tldd [%0 + 40], %%f10\n\t"		\
	    "ldd [%0 + 48], %%f12\n\tldd [%0 + 56], %%f14\n\t"		\
	    "ldd [%0 + 64], %%f16\n\tldd [%0 + 72], %%f18\n\t"		\
	    "ldd [%0 + 80], %%f20\n\tldd [%0 + 88], %%f22\n\t"		\
	    "ldd [%0 + 96], %%f24\n\tldd [%0 + 104], %%f26\n\t"		\
	    "ldd [%0 + 112], %%f28\n\tldd [%0 + 120], %%f30\n\t"	\
	    "ld [%1], %%fsr"						\
	    : : "r"(f), "r"(fsr) : "memory", "f0", "f1", "f2", "f3", "f4",	\
	    "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14",	\
	    "f15", "f16", "f17", "f18", "f19", "f20", "f21", "f22", "f23",	\
	    "f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31")
#endif

static void
dispatch(int lsig)
{
	int sig = __sig_from_linux(lsig);
	sig_t h;
#ifdef __sparc__
	double f[16];
	unsigned int fsr;

	FP_SAVE(f, &fsr);
#endif
	if (sig != 0 && (h = handlers[sig]) != SIG_DFL && h != SIG_IGN)
		((bsd_handler_t)h)(sig, 0, 0);
#ifdef __sparc__
	FP_RESTORE(f, &fsr);
#endif
}

static const struct {
	int bsd, lnx;
} saflags[] = {
	{ SA_RESTART,	LINUX_SA_RESTART },
	{ SA_RESETHAND,	LINUX_SA_RESETHAND },
	{ SA_NOCLDSTOP,	LINUX_SA_NOCLDSTOP },
	{ SA_NODEFER,	LINUX_SA_NODEFER },
};

#define NSAFLAGS	(int)(sizeof saflags / sizeof saflags[0])

int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	struct linux_sigaction ka, oka;
	int lsig = __sig_to_linux(sig), i;
	sig_t prev;
	long r;

	if (lsig == 0) {
		errno = EINVAL;
		return -1;
	}
	prev = handlers[sig];
	if (act) {
		ka.sa_handler = act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN ?
		    act->sa_handler : dispatch;
		ka.sa_flags = 0;
		for (i = 0; i < NSAFLAGS; i++)
			if (act->sa_flags & saflags[i].bsd)
				ka.sa_flags |= saflags[i].lnx;
		__sigset_to_linux(act->sa_mask, &ka.sa_mask);
#ifdef __sparc__
		ka.sa_restorer = 0;
#endif
		/* In place before the kernel can deliver to dispatch. */
		if (ka.sa_handler == dispatch)
			handlers[sig] = act->sa_handler;
	}
#ifdef __sparc__
	r = __lsys5(LNR_rt_sigaction, lsig, act ? &ka : 0, oact ? &oka : 0,
	    (unsigned long)__linux_sigrestorer - 8, sizeof(linux_sigset_t));
#else
	r = __lsys4(LNR_rt_sigaction, lsig, act ? &ka : 0, oact ? &oka : 0, sizeof(linux_sigset_t));
#endif
	if (__lsys_failed(r)) {
		handlers[sig] = prev;
		return __lsys_ret(r);
	}
	if (oact) {
		oact->sa_handler = oka.sa_handler == dispatch ? prev : (sig_t)oka.sa_handler;
		oact->sa_mask = __sigset_from_linux(&oka.sa_mask);
		oact->sa_flags = 0;
		for (i = 0; i < NSAFLAGS; i++)
			if (oka.sa_flags & saflags[i].lnx)
				oact->sa_flags |= saflags[i].bsd;
	}
	return 0;
}

int
sigprocmask(int how, const sigset_t *set, sigset_t *oset)
{
	linux_sigset_t lset, loset;
	int lhow;
	long r;

	switch (how) {
	case SIG_BLOCK:		lhow = LINUX_SIG_BLOCK; break;
	case SIG_UNBLOCK:	lhow = LINUX_SIG_UNBLOCK; break;
	case SIG_SETMASK:	lhow = LINUX_SIG_SETMASK; break;
	default:
		errno = EINVAL;
		return -1;
	}
	if (set)
		__sigset_to_linux(*set, &lset);
	r = __lsys4(LNR_rt_sigprocmask, lhow, set ? &lset : 0, oset ? &loset : 0, sizeof(linux_sigset_t));
	if (__lsys_failed(r))
		return __lsys_ret(r);
	if (oset)
		*oset = __sigset_from_linux(&loset);
	return 0;
}

int
sigpending(sigset_t *set)
{
	linux_sigset_t lset;
	long r;

	r = __lsys2(LNR_rt_sigpending, &lset, sizeof(linux_sigset_t));
	if (__lsys_failed(r))
		return __lsys_ret(r);
	*set = __sigset_from_linux(&lset);
	return 0;
}

int
sigsuspend(const sigset_t *set)
{
	linux_sigset_t lset;

	__sigset_to_linux(*set, &lset);
	return __lsys_ret(__lsys2(LNR_rt_sigsuspend, &lset, sizeof(linux_sigset_t)));
}

int
kill(pid_t pid, int sig)
{
	int lsig = 0;

	if (sig != 0 && (lsig = __sig_to_linux(sig)) == 0) {
		errno = EINVAL;
		return -1;
	}
	return __lsys_ret(__lsys2(LNR_kill, pid, lsig));
}

/* Handlers of this flavour get no sigcontext: there is nothing to return through. */
int
sigreturn(struct sigcontext *scp)
{
	(void)scp;
	errno = ENOSYS;
	return -1;
}
