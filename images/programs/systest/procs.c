/* systest: processes (fork, wait4 statuses, zombies, WNOHANG, ECHILD, getppid, copy on fork). */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "systest.h"

static int shared = 1;

void
t_procs(void)
{
	int status, i, sum, p[2];
	pid_t pid, me = getpid(), pids[5];
	struct rusage ru;
	char c;

	outf("== processes\n");
	check("getpid is positive", me > 0, 0);
	if ((pid = fork()) == 0)
		_exit(42);
	CHECK_SYS("fork returns the child's pid to the parent", pid > 0 && pid != me);
	CHECK_SYS("waitpid returns the child", waitpid(pid, &status, 0) == pid);
	outf("child status: exited=%d status=%d\n", WIFEXITED(status) != 0, WEXITSTATUS(status));
	check("exit status 42", WIFEXITED(status) && WEXITSTATUS(status) == 42, 0);

	if ((pid = fork()) == 0)
		_exit(getppid() == me && getpid() != me ? 0 : 1);
	check("child sees its parent in getppid", waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 0, 0);

	if ((pid = fork()) == 0) {
		shared = 2;
		_exit(shared);
	}
	waitpid(pid, &status, 0);
	check("a child's writes stay in the child", shared == 1 && WEXITSTATUS(status) == 2, 0);

	if ((pid = fork()) == 0)
		_exit(255);
	check("exit status 255", waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 255, 0);

	/* Five children, reaped in any order by wait. */
	for (i = 0; i < 5; i++)
		if ((pids[i] = fork()) == 0)
			_exit(i + 1);
	for (i = 0, sum = 0; i < 5; i++) {
		pid = wait(&status);
		if (pid > 0 && WIFEXITED(status))
			sum += WEXITSTATUS(status);
	}
	check("wait reaps five children, statuses 1..5", sum == 15, 0);
	CHECK_ERRNO("wait without children", wait(&status) < 0, ECHILD);
	CHECK_ERRNO("waitpid of a pid that is not a child", waitpid(me, &status, 0) < 0, ECHILD);

	/* A child that has exited stays as a zombie (kill 0 finds it) until it is waited for. */
	pipe(p);
	if ((pid = fork()) == 0) {
		close(p[0]);
		_exit(7);
	}
	close(p[1]);
	read(p[0], &c, 1);	/* EOF once the child has exited */
	close(p[0]);
	CHECK_SYS("an exited child is still there before wait (zombie)", kill(pid, 0) == 0);
	check("the zombie's status", waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 7, 0);
	CHECK_ERRNO("after wait the child is gone", kill(pid, 0) < 0, ESRCH);

	/* WNOHANG: nothing to report while the child blocks on a pipe. */
	pipe(p);
	if ((pid = fork()) == 0) {
		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 && c == 'g' ? 3 : 4);
	}
	close(p[0]);
	check("WNOHANG with a running child returns 0", waitpid(pid, &status, WNOHANG) == 0, 0);
	write(p[1], "g", 1);
	close(p[1]);
	check("the child went on after the write", waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 3, 0);

	/* Deaths by signal. */
	if ((pid = fork()) == 0) {
		kill(getpid(), SIGTERM);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	outf("child that sent itself SIGTERM: %s\n", WIFSIGNALED(status) ? signame(WTERMSIG(status)) : "not signalled");
	check("WIFSIGNALED, WTERMSIG SIGTERM", WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, 0);
	pipe(p);
	if ((pid = fork()) == 0) {
		close(p[1]);
		read(p[0], &c, 1);	/* blocks until killed */
		_exit(0);
	}
	close(p[0]);
	CHECK_SYS("kill SIGKILL", kill(pid, SIGKILL) == 0);
	waitpid(pid, &status, 0);
	close(p[1]);
	check("WTERMSIG SIGKILL", WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, 0);
	CHECK_ERRNO("kill with an invalid signal", kill(me, 1000) < 0, EINVAL);

	check("sched_yield", sched_yield() == 0, 0);
	check("getrusage", getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_utime.tv_usec < 1000000, 0);
	check("getuid == geteuid, getgid == getegid", getuid() == geteuid() && getgid() == getegid(), 0);
	CHECK_SYS("setpgid(0, 0) makes a new group", setpgid(0, 0) == 0 && getpgrp() == me);
}
