/*
 * ktest-proc: processes on emu's kernel, checked by the program itself.
 *
 * Groups (all by default, in this order):
 *   tree     a binary tree of 31 processes (fork depth 4); every node exits with the number of
 *            processes in its subtree, the root adds up its children's statuses
 *   status   wait4 status encodings: exit codes, a signal, a core-dumping signal, WNOHANG, ECHILD
 *   zombie   an exited child stays (kill(pid, 0) succeeds) until it is reaped
 *   orphan   a child whose parent exited is adopted by init (its getppid() becomes 1)
 *   exec     argv and environment reach the new image, descriptors stay open, FD_CLOEXEC ones
 *            close; exec of a non-executable file gives ENOEXEC, of a directory EACCES, of a
 *            missing file ENOENT
 *   bomb     a fork bomb (every process forks until the table is full, then spins) is bounded by
 *            maxproc: fork fails with EAGAIN, the parent still gets the CPU and time passes, then
 *            killing the bomb's process group and reaping brings the table back
 * The program re-executes itself (argv[0]) for the exec group.
 *
 * Output: one line per check, "<check>: ok" or "<check>: FAILED: <why>", then a summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int passed, failed;
static const char *self;

static void check(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("%s: ok\n", name);
		passed++;
	} else {
		printf("%s: FAILED: %s\n", name, why);
		failed++;
	}
	fflush(stdout);
}

/* ---- tree ---- */

static int subtree(int depth)
{
	pid_t kids[2];
	int i, st, n = 1;

	if (depth == 0)
		return 1;
	for (i = 0; i < 2; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			_exit(subtree(depth - 1));
	}
	for (i = 0; i < 2; i++) {
		if (kids[i] < 0 || waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st))
			return 0;
		n += WEXITSTATUS(st);
	}
	return n;
}

static void group_tree(void)
{
	char why[64];
	int n = subtree(4);

	snprintf(why, sizeof why, "the tree counted %d processes", n);
	check("a fork tree of depth 4 has 31 processes, each reaped by its parent", n == 31, why);
}

/* ---- status ---- */

static void group_status(void)
{
	char why[96];
	pid_t pid;
	int st, ok;

	if ((pid = fork()) == 0)
		_exit(200);
	ok = waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 200;
	snprintf(why, sizeof why, "status 0x%x", st);
	check("exit(200) is reported as an exit with code 200", ok, why);

	if ((pid = fork()) == 0) {
		kill(getpid(), SIGTERM);
		for (;;)
			;
	}
	ok = waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && !(st & WCOREFLAG);
	snprintf(why, sizeof why, "status 0x%x", st);
	check("a process killed by SIGTERM: signalled, no core", ok, why);

	if ((pid = fork()) == 0) {
		*(volatile int *)0 = 1;
		_exit(0);
	}
	ok = waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV && (st & WCOREFLAG);
	snprintf(why, sizeof why, "status 0x%x", st);
	check("a store through a null pointer: SIGSEGV with the core flag", ok, why);

	{
		int p[2];
		char c;

		pipe(p);
		if ((pid = fork()) == 0) {
			close(p[1]);
			read(p[0], &c, 1);
			_exit(5);
		}
		close(p[0]);
		ok = waitpid(pid, &st, WNOHANG) == 0;
		write(p[1], "x", 1);
		close(p[1]);
		ok = ok && waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == 5;
		check("WNOHANG returns 0 while the child runs", ok, "WNOHANG reported the child");
	}
	errno = 0;
	ok = wait(&st) < 0 && errno == ECHILD;
	check("wait without children fails with ECHILD", ok, strerror(errno));
}

/* ---- zombie ---- */

static void group_zombie(void)
{
	int p[2], st, ok;
	pid_t pid;
	char c;

	pipe(p);
	if ((pid = fork()) == 0) {
		close(p[0]);
		_exit(9);
	}
	close(p[1]);
	read(p[0], &c, 1);	/* end of file: the child has exited */
	close(p[0]);
	ok = kill(pid, 0) == 0;
	check("an exited child is a zombie until reaped (kill(pid, 0) finds it)", ok, strerror(errno));
	ok = waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == 9;
	check("the zombie's status is its exit code", ok, "wrong status");
	errno = 0;
	ok = kill(pid, 0) < 0 && errno == ESRCH;
	check("after wait the pid is gone (ESRCH)", ok, strerror(errno));
}

/* ---- orphan ---- */

static void group_orphan(void)
{
	int p[2], q[2], st, ppid = -1;
	pid_t pid;
	char c;

	pipe(p);
	pipe(q);
	if ((pid = fork()) == 0) {
		if (fork() == 0) {
			close(p[0]);
			close(q[1]);
			read(q[0], &c, 1);	/* end of file once the middle process is gone */
			ppid = getppid();
			write(p[1], &ppid, sizeof ppid);
			_exit(0);
		}
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	close(q[1]);
	waitpid(pid, &st, 0);
	read(p[0], &ppid, sizeof ppid);
	close(p[0]);
	{
		char why[48];

		snprintf(why, sizeof why, "getppid() = %d", ppid);
		check("the child of an exited process is adopted by init (pid 1)", ppid == 1, why);
	}
	/* When this program is init itself, the orphan is reaped here. */
	if (getpid() == 1)
		while (wait(&st) > 0)
			;
}

/* ---- exec ---- */

static int child_main(int argc, char **argv)
{
	const char *v = getenv("KTEST_VAR");
	struct stat sb;
	int code = 0;

	if (argc != 4 || strcmp(argv[2], "two words") != 0 || strcmp(argv[3], "") != 0)
		code |= 1;
	if (v == NULL || strcmp(v, "value") != 0)
		code |= 2;
	if (fstat(atoi(argv[1]) >> 8, &sb) != 0)	/* kept: no FD_CLOEXEC */
		code |= 4;
	if (fstat(atoi(argv[1]) & 0xff, &sb) == 0)	/* closed: FD_CLOEXEC */
		code |= 8;
	return code;
}

static void group_exec(void)
{
	char fds[16], why[64];
	char *argv[5], *envp[3];
	int keep, drop, st, ok, fd;
	pid_t pid;

	keep = open("/dev/null", O_RDONLY);
	drop = open("/dev/null", O_RDONLY);
	fcntl(drop, F_SETFD, FD_CLOEXEC);
	snprintf(fds, sizeof fds, "%d", keep << 8 | drop);
	argv[0] = "ktest-proc-child";
	argv[1] = fds;
	argv[2] = "two words";
	argv[3] = "";
	argv[4] = NULL;
	envp[0] = "KTEST_VAR=value";
	envp[1] = "OTHER=1";
	envp[2] = NULL;
	if ((pid = fork()) == 0) {
		execve(self, argv, envp);
		_exit(100);
	}
	waitpid(pid, &st, 0);
	close(keep);
	close(drop);
	snprintf(why, sizeof why, "child status 0x%x", st);
	ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	check("exec passes argv and envp; descriptors stay open unless close-on-exec", ok, why);

	fd = open("ktest-notelf", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	write(fd, "echo this is not an executable\n", 31);
	close(fd);
	argv[0] = "x";
	argv[1] = NULL;
	errno = 0;
	ok = execve("ktest-notelf", argv, environ) < 0 && errno == ENOEXEC;
	check("exec of a file that is not an executable fails with ENOEXEC", ok, strerror(errno));
	unlink("ktest-notelf");
	errno = 0;
	ok = execve("/", argv, environ) < 0 && errno == EACCES;
	check("exec of a directory fails with EACCES", ok, strerror(errno));
	errno = 0;
	ok = execve("/no/such/file", argv, environ) < 0 && errno == ENOENT;
	check("exec of a missing file fails with ENOENT", ok, strerror(errno));
}

/* ---- bomb ---- */

static void group_bomb(void)
{
	struct timespec ts = { 0, 200000000 };
	struct timeval t0, t1;
	int p[2], st, full, reaped = 0, ok;
	pid_t bomb, pid;
	char c;

	pipe(p);
	if ((bomb = fork()) == 0) {
		setpgid(0, 0);
		close(p[0]);
		for (;;) {
			pid = fork();
			if (pid < 0 && errno == EAGAIN) {
				/* The table is full: tell the test (once), then spin. */
				write(p[1], "F", 1);
				close(p[1]);
				for (;;)
					;
			}
		}
	}
	close(p[1]);
	full = read(p[0], &c, 1) == 1;
	check("a fork bomb fills the process table (fork fails with EAGAIN)", full, "no EAGAIN seen");
	errno = 0;
	pid = fork();
	if (pid == 0)
		_exit(0);
	ok = pid < 0 && errno == EAGAIN;
	check("while it runs, fork in another process fails with EAGAIN too", ok, pid > 0 ? "fork succeeded" : strerror(errno));
	if (pid > 0)
		waitpid(pid, &st, 0);
	gettimeofday(&t0, NULL);
	nanosleep(&ts, NULL);
	gettimeofday(&t1, NULL);
	{
		long us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_usec - t0.tv_usec);
		char why[64];

		snprintf(why, sizeof why, "slept %ld us", us);
		check("the machine stays responsive: a 0.2 s sleep among spinning processes ends", us >= 200000 && us < 2000000, why);
	}
	kill(-bomb, SIGKILL);
	close(p[0]);
	/* The bomb's children were orphaned when it died; init (maybe this program) reaps them. */
	while ((pid = wait(&st)) > 0)
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			reaped++;
	check("killing the bomb's process group ends every bomb process", reaped >= 1, "nothing reaped");
	{
		int tries;

		for (tries = 0; tries < 100; tries++) {
			pid = fork();
			if (pid == 0)
				_exit(3);
			if (pid > 0)
				break;
			nanosleep(&ts, NULL);
		}
		ok = pid > 0 && waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == 3;
		check("afterwards fork works again", ok, strerror(errno));
	}
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } groups[] = {
		{ "tree", group_tree }, { "status", group_status }, { "zombie", group_zombie },
		{ "orphan", group_orphan }, { "exec", group_exec }, { "bomb", group_bomb },
	};
	size_t i;
	int a;

	if (strcmp(argv[0], "ktest-proc-child") == 0)
		return child_main(argc, argv);
	self = argv[0];
	for (i = 0; i < sizeof groups / sizeof groups[0]; i++) {
		int run = argc == 1;

		for (a = 1; a < argc; a++)
			if (strcmp(argv[a], groups[i].name) == 0)
				run = 1;
		if (run)
			groups[i].fn();
	}
	printf("ktest-proc: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
