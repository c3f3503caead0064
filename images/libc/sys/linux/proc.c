/*
 * Process calls of the Linux flavour: identities, process groups, pipe, wait4 (whose status
 * word carries Linux signal numbers, translated here) and sched_yield. fork is per ISA
 * (mips/fork.c, sparc/fork.S); execve is in execve.c.
 */
#include <lsignal.h>
#include <lsys.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t
getpid(void)
{
	return __lsys0(LNR_getpid);
}

pid_t
getppid(void)
{
	return __lsys0(LNR_getppid);
}

uid_t
getuid(void)
{
	return __lsys0(LNR_getuid);
}

uid_t
geteuid(void)
{
	return __lsys0(LNR_geteuid);
}

gid_t
getgid(void)
{
	return __lsys0(LNR_getgid);
}

gid_t
getegid(void)
{
	return __lsys0(LNR_getegid);
}

pid_t
getpgrp(void)
{
	return __lsys0(LNR_getpgrp);
}

int
setpgid(pid_t pid, pid_t pgid)
{
	return __lsys_ret(__lsys2(LNR_setpgid, pid, pgid));
}

int
pipe(int *fds)
{
	return __lsys_ret(__lsys2(LNR_pipe2, fds, 0));
}

int
sched_yield(void)
{
	return __lsys_ret(__lsys0(LNR_sched_yield));
}

/*
 * Linux encodes the status as 4.4BSD does (exit status << 8; signal | 0200 if core; stop signal
 * << 8 | 0177), with its own signal numbers; WNOHANG and WUNTRACED have the same values.
 */
pid_t
wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	int lstatus, sig;
	long r;

	r = __lsys4(LNR_wait4, pid, &lstatus, options, ru);
	if (__lsys_failed(r))
		return __lsys_ret(r);
	if (status && r != 0) {
		if (WIFSTOPPED(lstatus)) {
			sig = __sig_from_linux(WSTOPSIG(lstatus));
			lstatus = W_STOPCODE(sig);
		} else if (WIFSIGNALED(lstatus)) {
			sig = __sig_from_linux(WTERMSIG(lstatus));
			lstatus = sig | (lstatus & WCOREFLAG);
		}
		*status = lstatus;
	}
	return r;
}
