/*
 * Signals (4.4BSD <sys/signal.h> numbering and structures). Both syscall flavours present these
 * numbers; the Linux flavour translates signal numbers and masks in its syscall layer.
 *
 * A handler installed with sigaction or signal is called as
 *	handler(int sig, int code, struct sigcontext *scp)
 * (4.4BSD); most handlers declare only the first argument. See docs/abi.md "Signals".
 */
#ifndef _SIGNAL_H_
#define _SIGNAL_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#include <machine/signal.h>	/* sig_atomic_t, struct sigcontext */

#define NSIG	32		/* signals are 1..NSIG-1 */

#define SIGHUP		1	/* hangup */
#define SIGINT		2	/* interrupt */
#define SIGQUIT		3	/* quit */
#define SIGILL		4	/* illegal instruction */
#define SIGTRAP		5	/* trace trap */
#define SIGABRT		6	/* abort() */
#define SIGIOT		SIGABRT
#define SIGEMT		7	/* EMT instruction */
#define SIGFPE		8	/* floating point exception */
#define SIGKILL		9	/* kill (cannot be caught or ignored) */
#define SIGBUS		10	/* bus error */
#define SIGSEGV		11	/* segmentation violation */
#define SIGSYS		12	/* bad argument to system call */
#define SIGPIPE		13	/* write on a pipe with no one to read it */
#define SIGALRM		14	/* alarm clock */
#define SIGTERM		15	/* software termination signal from kill */
#define SIGURG		16	/* urgent condition on IO channel */
#define SIGSTOP		17	/* sendable stop signal not from tty */
#define SIGTSTP		18	/* stop signal from tty */
#define SIGCONT		19	/* continue a stopped process */
#define SIGCHLD		20	/* to parent on child stop or exit */
#define SIGTTIN		21	/* to readers pgrp upon background tty read */
#define SIGTTOU		22	/* like TTIN for output */
#define SIGIO		23	/* input/output possible signal */
#define SIGXCPU		24	/* exceeded CPU time limit */
#define SIGXFSZ		25	/* exceeded file size limit */
#define SIGVTALRM	26	/* virtual time alarm */
#define SIGPROF		27	/* profiling time alarm */
#define SIGWINCH	28	/* window size changes */
#define SIGINFO		29	/* information request */
#define SIGUSR1		30	/* user defined signal 1 */
#define SIGUSR2		31	/* user defined signal 2 */

typedef void (*sig_t)(int);	/* type of signal function */

#define SIG_DFL		((sig_t)0)
#define SIG_IGN		((sig_t)1)
#define SIG_ERR		((sig_t)-1)

/* A set of signals: bit n-1 stands for signal n. */
typedef uint32_t sigset_t;

struct sigaction {
	sig_t		sa_handler;	/* signal handler, SIG_DFL or SIG_IGN */
	sigset_t	sa_mask;	/* signals to block while the handler runs */
	int		sa_flags;	/* SA_* below */
};

#define SA_RESTART	0x0002	/* restart an interrupted system call instead of EINTR */
#define SA_RESETHAND	0x0004	/* reset to SIG_DFL when the handler is entered (FreeBSD) */
#define SA_NOCLDSTOP	0x0008	/* no SIGCHLD when a child stops */
#define SA_NODEFER	0x0010	/* don't block the signal while its handler runs (FreeBSD) */

/* sigprocmask() how */
#define SIG_BLOCK	1	/* block specified signal set */
#define SIG_UNBLOCK	2	/* unblock specified signal set */
#define SIG_SETMASK	3	/* set specified signal set */

#define sigmask(m)	(1U << ((m) - 1))

__BEGIN_DECLS
extern const char *const sys_siglist[NSIG];	/* descriptions, by signal number */
extern const char *const sys_signame[NSIG];	/* names without "SIG", lower case */

sig_t	signal(int, sig_t);
void	psignal(int, const char *);
int	raise(int);
int	kill(pid_t, int);
int	sigaction(int, const struct sigaction *, struct sigaction *);
int	sigprocmask(int, const sigset_t *, sigset_t *);
int	sigpending(sigset_t *);
int	sigsuspend(const sigset_t *);
int	sigaddset(sigset_t *, int);
int	sigdelset(sigset_t *, int);
int	sigemptyset(sigset_t *);
int	sigfillset(sigset_t *);
int	sigismember(const sigset_t *, int);
int	sigreturn(struct sigcontext *);
__END_DECLS

#endif /* !_SIGNAL_H_ */
