/*
 * Process exit status (4.4BSD <sys/wait.h>): low 7 bits the terminating signal (0177 = stopped),
 * bit 0200 core dumped, next 8 bits the exit status or the stopping signal.
 */
#ifndef _SYS_WAIT_H_
#define _SYS_WAIT_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#define _WSTATUS(x)	((x) & 0177)
#define _WSTOPPED	0177		/* _WSTATUS if process is stopped */
#define WIFSTOPPED(x)	(_WSTATUS(x) == _WSTOPPED)
#define WSTOPSIG(x)	(((x) >> 8) & 0xff)
#define WIFSIGNALED(x)	(_WSTATUS(x) != _WSTOPPED && _WSTATUS(x) != 0)
#define WTERMSIG(x)	(_WSTATUS(x))
#define WIFEXITED(x)	(_WSTATUS(x) == 0)
#define WEXITSTATUS(x)	(((x) >> 8) & 0xff)
#define WCOREFLAG	0200
#define WCOREDUMP(x)	((x) & WCOREFLAG)

#define W_EXITCODE(ret, sig)	((ret) << 8 | (sig))
#define W_STOPCODE(sig)		((sig) << 8 | _WSTOPPED)

/* Options of wait4 and waitpid */
#define WNOHANG		1	/* don't hang in wait */
#define WUNTRACED	2	/* tell about stopped, untraced children */

#define WAIT_ANY	(-1)	/* any process */
#define WAIT_MYPGRP	0	/* any process in my process group */

struct rusage;

__BEGIN_DECLS
pid_t	wait(int *);
pid_t	waitpid(pid_t, int *, int);
pid_t	wait4(pid_t, int *, int, struct rusage *);
__END_DECLS

#endif /* !_SYS_WAIT_H_ */
