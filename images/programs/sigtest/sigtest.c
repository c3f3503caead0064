/*
 * sigtest: signal delivery, checked by the program itself.
 *
 * Every handler is installed with sigaction (or signal) and called by the kernel: signals sent
 * with kill and raise, SIGCHLD from a child's exit, SIGPIPE from a write on a pipe without
 * readers, SIGSEGV from a store through a bad pointer and SIGFPE from an integer division by
 * zero (on MIPS, gcc's `break 7` check; on SPARC, the sdiv trap), the last two recovered with
 * siglongjmp. It checks blocking with sigprocmask and sa_mask, the default and ignore actions,
 * and EINTR versus SA_RESTART for a read interrupted while blocked.
 *
 * Usage: sigtest [group ...], groups kill procmask samask actions sigchld sigpipe sigsegv sigfpe
 * restart, run in the order given (default: all, in that order).
 *
 * Output: one line per check, "<check>: ok" or "<check>: FAILED: <why>", then a summary; no
 * signal numbers (they differ between machines), pids or times. Exit status 0 if every check
 * passed, 1 otherwise.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed, failed;

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

static const char *signame(int sig)
{
	static char other[32];

	switch (sig) {
	case SIGHUP: return "SIGHUP";
	case SIGUSR1: return "SIGUSR1";
	case SIGUSR2: return "SIGUSR2";
	case SIGCHLD: return "SIGCHLD";
	case SIGPIPE: return "SIGPIPE";
	case SIGSEGV: return "SIGSEGV";
	case SIGFPE: return "SIGFPE";
	case SIGTERM: return "SIGTERM";
	case SIGKILL: return "SIGKILL";
	case 0: return "none";
	}
	snprintf(other, sizeof other, "another signal");
	return other;
}

/* What handlers saw: a count, the last signal, and a trace of handler entries and exits. */
static volatile sig_atomic_t count, lastsig, depth, maxdepth;
static char trace[128];
static volatile sig_atomic_t tracelen;
static int nest_mode;		/* what on_usr1 does besides recording */

static void note(const char *s)
{
	while (*s && tracelen < (sig_atomic_t)sizeof trace - 1)
		trace[tracelen++] = *s++;
	trace[tracelen] = '\0';
}

static void reset(void)
{
	count = 0;
	lastsig = 0;
	depth = maxdepth = 0;
	tracelen = 0;
	trace[0] = '\0';
}

static void on_signal(int sig)
{
	count++;
	lastsig = sig;
}

/* Write end of the pipe on_signal_ack acknowledges on (interrupted_read), or -1. */
static int ackfd = -1;

/* on_signal, then one byte on ackfd: write(2) is async-signal-safe. */
static void on_signal_ack(int sig)
{
	on_signal(sig);
	if (ackfd >= 0)
		write(ackfd, "h", 1);
}

enum { NEST_NONE, NEST_RAISE_USR2, NEST_RAISE_USR1 };

static void on_usr1(int sig)
{
	lastsig = sig;
	count++;
	if (++depth > maxdepth)
		maxdepth = depth;
	note("1<");
	if (nest_mode == NEST_RAISE_USR2)
		kill(getpid(), SIGUSR2);
	else if (nest_mode == NEST_RAISE_USR1 && count == 1)
		kill(getpid(), SIGUSR1);
	note("1>");
	depth--;
}

static void on_usr2(int sig)
{
	lastsig = sig;
	note("2<");
	note("2>");
}

static int install(int sig, void (*fn)(int), int flags, const sigset_t *mask)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	if (mask)
		sa.sa_mask = *mask;
	else
		sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

static char why[160];

static const char *whyf(const char *what, int got, const char *expected)
{
	snprintf(why, sizeof why, "%s %d, expected %s", what, got, expected);
	return why;
}

static void test_kill_self(void)
{
	struct sigaction old;

	reset();
	install(SIGUSR1, on_signal, 0, NULL);
	kill(getpid(), SIGUSR1);
	snprintf(why, sizeof why, "handler ran %d times for %s", (int)count, signame(lastsig));
	check("kill(getpid(), SIGUSR1) runs the handler before kill returns", count == 1 && lastsig == SIGUSR1, why);

	reset();
	install(SIGUSR2, on_signal, 0, NULL);
	raise(SIGUSR2);
	raise(SIGUSR2);
	snprintf(why, sizeof why, "handler ran %d times for %s", (int)count, signame(lastsig));
	check("raise(SIGUSR2) twice runs the handler twice", count == 2 && lastsig == SIGUSR2, why);

	sigaction(SIGUSR2, NULL, &old);
	check("sigaction reports the installed handler", old.sa_handler == on_signal, "different handler");
}

static void test_procmask(void)
{
	sigset_t set, old;
	int pending_count;

	reset();
	install(SIGUSR1, on_signal, 0, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	pending_count = count;
	check("a blocked signal is not delivered", pending_count == 0, whyf("handler ran", pending_count, "0 times"));
	check("the old mask did not contain SIGUSR1", !sigismember(&old, SIGUSR1), "it did");
	sigprocmask(SIG_SETMASK, &old, &set);
	check("unblocking delivers it once", count == 1, whyf("handler ran", (int)count, "1 time"));
	check("the mask while blocked contained SIGUSR1", sigismember(&set, SIGUSR1) != 0, "it did not");
}

static void test_sa_mask(void)
{
	sigset_t mask;

	reset();
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	install(SIGUSR1, on_usr1, 0, &mask);
	install(SIGUSR2, on_usr2, 0, NULL);
	nest_mode = NEST_RAISE_USR2;
	kill(getpid(), SIGUSR1);
	snprintf(why, sizeof why, "handler trace %s", trace);
	check("sa_mask holds SIGUSR2 off until the SIGUSR1 handler returns", strcmp(trace, "1<1>2<2>") == 0, why);

	reset();
	nest_mode = NEST_RAISE_USR1;
	kill(getpid(), SIGUSR1);
	snprintf(why, sizeof why, "handler trace %s, depth %d", trace, (int)maxdepth);
	check("a signal is blocked during its own handler", strcmp(trace, "1<1>1<1>") == 0 && maxdepth == 1, why);
	nest_mode = NEST_NONE;
}

static void test_ignore_and_default(void)
{
	pid_t pid;
	int ws;
	void (*prev)(int);

	reset();
	install(SIGUSR1, on_signal, 0, NULL);
	prev = signal(SIGUSR1, SIG_IGN);
	check("signal() returns the previous handler", prev == on_signal, "it did not");
	kill(getpid(), SIGUSR1);
	check("an ignored signal does nothing", count == 0, "the handler ran");

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGUSR1, SIG_DFL);
		kill(getpid(), SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &ws, 0);
	snprintf(why, sizeof why, "child %s %s", WIFSIGNALED(ws) ? "killed by" : "exited",
	    WIFSIGNALED(ws) ? signame(WTERMSIG(ws)) : "normally");
	check("the default action of SIGUSR1 terminates", WIFSIGNALED(ws) && WTERMSIG(ws) == SIGUSR1, why);

	/* a child blocked reading a pipe nobody writes, ended by SIGTERM from its parent */
	{
		int p[2];
		char c;
		pipe(p);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			close(p[1]);
			read(p[0], &c, 1);
			_exit(0);
		}
		close(p[0]);
		kill(pid, SIGTERM);
		waitpid(pid, &ws, 0);
		close(p[1]);
		snprintf(why, sizeof why, "child %s %s", WIFSIGNALED(ws) ? "killed by" : "exited",
		    WIFSIGNALED(ws) ? signame(WTERMSIG(ws)) : "normally");
		check("kill(child, SIGTERM) terminates it", WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM, why);
	}
}

static void test_sigchld(void)
{
	pid_t pid, w;
	int ws = 0;

	reset();
	install(SIGCHLD, on_signal, SA_RESTART, NULL);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(7);
	while ((w = waitpid(pid, &ws, 0)) < 0 && errno == EINTR)
		;
	check("waitpid returns the child's exit status 7", w == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 7,
	    "wrong status");
	snprintf(why, sizeof why, "handler ran %d times for %s", (int)count, signame(lastsig));
	check("the child's exit sent SIGCHLD", count == 1 && lastsig == SIGCHLD, why);
	signal(SIGCHLD, SIG_DFL);
}

static void test_sigpipe(void)
{
	int p[2], e;
	ssize_t n;

	reset();
	install(SIGPIPE, on_signal, 0, NULL);
	pipe(p);
	close(p[0]);
	n = write(p[1], "x", 1);
	e = errno;
	snprintf(why, sizeof why, "handler ran %d times for %s", (int)count, signame(lastsig));
	check("a write on a pipe without readers sends SIGPIPE", count == 1 && lastsig == SIGPIPE, why);
	check("... and fails with EPIPE", n == -1 && e == EPIPE, e == EPIPE ? "no error" : "another error");

	reset();
	signal(SIGPIPE, SIG_IGN);
	n = write(p[1], "x", 1);
	e = errno;
	check("with SIGPIPE ignored the write still fails with EPIPE", n == -1 && e == EPIPE && count == 0, "no");
	close(p[1]);
	signal(SIGPIPE, SIG_DFL);
}

static sigjmp_buf jb;
static volatile sig_atomic_t faults;

static void on_fault(int sig)
{
	lastsig = sig;
	faults++;
	siglongjmp(jb, 1);
}

static int *volatile badptr = (int *)16;
static volatile int zero;
static volatile int sink;

static void test_sigsegv(void)
{
	volatile int round, recovered = 0;

	reset();
	faults = 0;
	install(SIGSEGV, on_fault, 0, NULL);
	install(SIGBUS, on_fault, 0, NULL);
	for (round = 0; round < 2; round++) {
		if (sigsetjmp(jb, 1) == 0) {
			*badptr = 1;
			break;	/* not reached when the store faults */
		}
		recovered++;
	}
	snprintf(why, sizeof why, "recovered %d times, handler saw %s", recovered, signame(lastsig));
	check("a store through a bad pointer raises SIGSEGV, recovered by siglongjmp twice",
	    recovered == 2 && faults == 2 && lastsig == SIGSEGV, why);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
}

static void test_sigfpe(void)
{
	volatile int round, recovered = 0;

	reset();
	faults = 0;
	install(SIGFPE, on_fault, 0, NULL);
	for (round = 0; round < 2; round++) {
		if (sigsetjmp(jb, 1) == 0) {
			sink = 1000 / zero;
			break;	/* not reached when the division traps */
		}
		recovered++;
	}
	snprintf(why, sizeof why, "recovered %d times, handler saw %s", recovered, signame(lastsig));
	check("an integer division by zero raises SIGFPE, recovered by siglongjmp twice",
	    recovered == 2 && faults == 2 && lastsig == SIGFPE, why);
	signal(SIGFPE, SIG_DFL);
}

/*
 * A read blocked on an empty pipe is interrupted by SIGUSR1 from a child. The child sends it
 * 100 ms after the parent says (through a second pipe) that it is about to read, waits until the
 * handler has run (it acknowledges through a third pipe), then writes one byte. Without
 * SA_RESTART the read fails with EINTR; with it, the read restarts and returns the byte. The
 * acknowledgement keeps a loaded host (qemu-user) from letting the byte arrive before the
 * interrupted read returns. If the signal nevertheless came before the read started (the
 * handler already ran), the round is repeated.
 */
static int interrupted_read(int flags, ssize_t *n, int *err, char *c)
{
	int a[2], b[2], h[2], tries;

	for (tries = 0; tries < 5; tries++) {
		pid_t pid;
		int before;

		reset();
		install(SIGUSR1, on_signal_ack, flags, NULL);
		pipe(a);
		pipe(b);
		pipe(h);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			char x;
			close(a[0]);
			close(b[1]);
			close(h[1]);
			read(b[0], &x, 1);
			usleep(100000);
			kill(getppid(), SIGUSR1);
			read(h[0], &x, 1);
			usleep(20000);
			write(a[1], "R", 1);
			_exit(0);
		}
		close(a[1]);
		close(b[0]);
		close(h[0]);
		ackfd = h[1];
		*c = 0;
		write(b[1], "go", 1);
		before = count;
		*n = read(a[0], c, 1);
		*err = errno;
		if (*n < 0 && *err == EINTR) {
			char d;
			read(a[0], &d, 1);
		}
		waitpid(pid, NULL, 0);
		ackfd = -1;
		close(a[0]);
		close(b[1]);
		close(h[1]);
		if (before == 0)
			return count;
	}
	return -1;
}

static void test_restart(void)
{
	ssize_t n;
	int err, calls;
	char c;

	calls = interrupted_read(0, &n, &err, &c);
	snprintf(why, sizeof why, "read returned %d (%s), handler ran %d times", (int)n,
	    n < 0 && err == EINTR ? "EINTR" : "no EINTR", calls);
	check("without SA_RESTART a blocked read fails with EINTR", calls == 1 && n == -1 && err == EINTR, why);

	calls = interrupted_read(SA_RESTART, &n, &err, &c);
	snprintf(why, sizeof why, "read returned %d, handler ran %d times", (int)n, calls);
	check("with SA_RESTART the read restarts and returns the data", calls == 1 && n == 1 && c == 'R', why);
	signal(SIGUSR1, SIG_DFL);
}

static const struct {
	const char *name;
	void (*run)(void);
} tests[] = {
	{ "kill", test_kill_self },
	{ "procmask", test_procmask },
	{ "samask", test_sa_mask },
	{ "actions", test_ignore_and_default },
	{ "sigchld", test_sigchld },
	{ "sigpipe", test_sigpipe },
	{ "sigsegv", test_sigsegv },
	{ "sigfpe", test_sigfpe },
	{ "restart", test_restart },
};

#define NTESTS (sizeof tests / sizeof tests[0])

int main(int argc, char **argv)
{
	size_t i;
	int j;

	if (argc < 2) {
		for (i = 0; i < NTESTS; i++)
			tests[i].run();
	} else {
		for (j = 1; j < argc; j++) {
			for (i = 0; i < NTESTS && strcmp(tests[i].name, argv[j]) != 0; i++)
				;
			if (i == NTESTS) {
				fprintf(stderr, "sigtest: no check group %s\n", argv[j]);
				return 2;
			}
			tests[i].run();
		}
	}
	printf("sigtest: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
