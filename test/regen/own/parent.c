/*
 * A small multi-process program of the kind a user traces with `emu run PROG --trace`
 * (test/regen/own.test.ts): it reads the time, catches a signal its child sends, forks, connects
 * the child to itself with a pipe, and the child execs another static program (child.c) that
 * reads the pipe. A second child (a fork child that never execs) sends WORKER_SIGNALS signals
 * while the parent computes, so that, with a short quantum, handlers start wherever the parent
 * was preempted (MIPS delay slots included). What it prints does not depend on the time, the
 * pids or the scheduling, so it is the same on emu, traced or not, and under qemu-user.
 */
#ifndef WORKER_SIGNALS
#define WORKER_SIGNALS 100
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t caught;
static volatile unsigned long spin;

static void onusr1(int sig)
{
	caught++;
	(void)sig;
}

static unsigned long collatz(unsigned long n)
{
	unsigned long steps = 0;

	while (n != 1) {
		n = (n & 1) ? 3 * n + 1 : n / 2;
		steps++;
	}
	return steps;
}

/* waitpid, again after a signal interrupted it */
static pid_t waitfor(pid_t pid, int *status)
{
	pid_t r;

	while ((r = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	return r;
}

int main(int argc, char **argv)
{
	struct timeval t0, t1;
	int p[2], status, i, j, n = argc > 1 ? atoi(argv[1]) : 300;
	unsigned long best = 0, arg = 0;
	char buf[32];
	pid_t pid, worker, parent = getpid();

	if (gettimeofday(&t0, NULL) != 0) {
		perror("gettimeofday");
		return 1;
	}
	signal(SIGUSR1, onusr1);
	if (pipe(p) < 0) {
		perror("pipe");
		return 1;
	}
	printf("parent: %d numbers through a pipe\n", n);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		kill(parent, SIGUSR1);
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		execlp("child", "child", "squares", (char *)NULL);
		perror("exec child");
		_exit(127);
	}
	close(p[0]);
	for (i = 1; i <= n; i++) {
		int len = sprintf(buf, "%d\n", i * i);
		if (write(p[1], buf, len) != len) {
			perror("write");
			return 1;
		}
	}
	close(p[1]);
	if (waitfor(pid, &status) != pid) {
		perror("waitpid");
		return 1;
	}
	printf("parent: child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	printf("parent: signal from the child %s\n", caught ? "caught" : "missing");
	fflush(stdout);

	/* A second child only sends signals, which land wherever the parent was preempted. */
	caught = 0;
	worker = fork();
	if (worker == 0) {
		for (i = 0; i < WORKER_SIGNALS; i++) {
			kill(parent, SIGUSR1);
			for (j = 0; j < 300; j++)
				spin += (unsigned long)(i ^ j);
		}
		_exit(7);
	}
	for (i = 1; i < 3000; i++) {
		unsigned long s = collatz((unsigned long)i);
		if (s > best) {
			best = s;
			arg = (unsigned long)i;
		}
	}
	if (waitfor(worker, &status) != worker) {
		perror("waitpid");
		return 1;
	}
	printf("parent: longest chain below 3000 starts at %lu (%lu steps)\n", arg, best);
	printf("parent: worker exited with %d, its signals %s\n", WEXITSTATUS(status), caught ? "caught" : "missing");
	if (gettimeofday(&t1, NULL) != 0 || timercmp(&t1, &t0, <) || t0.tv_sec < 700000000) {
		printf("parent: the clock is wrong\n");
		return 1;
	}
	printf("parent: the clock moves forward\n");
	return 5;
}
