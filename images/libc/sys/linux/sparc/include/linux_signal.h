/*
 * Linux sparc32 signal numbers and sigaction flags, from the Linux UAPI asm/ headers, for the
 * Linux flavour's translations; test/images/linux_abi.test.ts checks them against the installed
 * headers.
 */
#ifndef _LINUX_SIGNAL_H_
#define _LINUX_SIGNAL_H_

#define LINUX_SIGHUP		1
#define LINUX_SIGINT		2
#define LINUX_SIGQUIT		3
#define LINUX_SIGILL		4
#define LINUX_SIGTRAP		5
#define LINUX_SIGABRT		6
#define LINUX_SIGEMT		7
#define LINUX_SIGFPE		8
#define LINUX_SIGKILL		9
#define LINUX_SIGBUS		10
#define LINUX_SIGSEGV		11
#define LINUX_SIGSYS		12
#define LINUX_SIGPIPE		13
#define LINUX_SIGALRM		14
#define LINUX_SIGTERM		15
#define LINUX_SIGURG		16
#define LINUX_SIGSTOP		17
#define LINUX_SIGTSTP		18
#define LINUX_SIGCONT		19
#define LINUX_SIGCHLD		20
#define LINUX_SIGTTIN		21
#define LINUX_SIGTTOU		22
#define LINUX_SIGIO		23
#define LINUX_SIGXCPU		24
#define LINUX_SIGXFSZ		25
#define LINUX_SIGVTALRM		26
#define LINUX_SIGPROF		27
#define LINUX_SIGWINCH		28
#define LINUX_SIGUSR1		30
#define LINUX_SIGUSR2		31
#define LINUX_SA_NOCLDSTOP	8
#define LINUX_SA_RESTART	2
#define LINUX_SA_RESETHAND	4
#define LINUX_SA_NODEFER	32
#define LINUX_SIG_BLOCK		1
#define LINUX_SIG_UNBLOCK	2
#define LINUX_SIG_SETMASK	4

#endif /* !_LINUX_SIGNAL_H_ */
