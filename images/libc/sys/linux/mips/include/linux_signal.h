/*
 * Linux MIPS (o32) signal numbers and sigaction flags, from the Linux UAPI asm/ headers, for the
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
#define LINUX_SIGURG		21
#define LINUX_SIGSTOP		23
#define LINUX_SIGTSTP		24
#define LINUX_SIGCONT		25
#define LINUX_SIGCHLD		18
#define LINUX_SIGTTIN		26
#define LINUX_SIGTTOU		27
#define LINUX_SIGIO		22
#define LINUX_SIGXCPU		30
#define LINUX_SIGXFSZ		31
#define LINUX_SIGVTALRM		28
#define LINUX_SIGPROF		29
#define LINUX_SIGWINCH		20
#define LINUX_SIGUSR1		16
#define LINUX_SIGUSR2		17
#define LINUX_SA_NOCLDSTOP	1
#define LINUX_SA_RESTART	0x10000000
#define LINUX_SA_RESETHAND	0x80000000
#define LINUX_SA_NODEFER	0x40000000
#define LINUX_SIG_BLOCK		1
#define LINUX_SIG_UNBLOCK	2
#define LINUX_SIG_SETMASK	3

#endif /* !_LINUX_SIGNAL_H_ */
