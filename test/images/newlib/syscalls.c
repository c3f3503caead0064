/*
 * newlib's system layer (images/libc/newlib) seen from a program: every call newlib.c provides,
 * its errno values, flags, structures and signals, in newlib's own numbering. Prints one line per
 * check; any FAIL line makes the exit status 1. The output must be the same under emu (BSD
 * flavour) and qemu-user (Linux flavour): nothing printed depends on the system underneath.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* newlib's <sys/stat.h> declares lstat only for some systems; its system layer here has it. */
int lstat(const char *, struct stat *);

static int failures;

static void
check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		failures++;
}

static void
check_errno(int r, int want, const char *what)
{
	int e = errno;
	char line[160];

	snprintf(line, sizeof line, "%s: -1 with errno %s", what, strerror(want));
	check(r == -1 && e == want, line);
	if (r != -1 || e != want)
		printf("  got %d, errno %d (%s)\n", r, e, strerror(e));
}

static volatile sig_atomic_t caught, usr2_blocked_in_handler;

static void
on_usr1(int sig)
{
	sigset_t now;

	caught = sig;
	sigprocmask(SIG_BLOCK, NULL, &now);
	usr2_blocked_in_handler = sigismember(&now, SIGUSR2) == 1 && sigismember(&now, SIGUSR1) == 1;
}

static jmp_buf env;

static void
jump(int depth)
{
	if (depth == 0)
		longjmp(env, 42);
	jump(depth - 1);
}

int
main(void)
{
	const char *f = "nl-syscalls.txt";
	char buf[64];
	struct stat st;
	int fd, r, status;
	pid_t pid;
	sigset_t set, old;
	struct tms t;
	struct timeval tv;
	FILE *fp;
	char *big;

	check_errno(open("no/such/file", O_RDONLY), ENOENT, "open of a missing file");
	unlink(f);
	fd = open(f, O_WRONLY | O_CREAT | O_EXCL, 0600);
	check(fd >= 3, "open O_CREAT|O_EXCL");
	check(write(fd, "abcdef", 6) == 6, "write 6 bytes");
	check_errno(open(f, O_WRONLY | O_CREAT | O_EXCL, 0600), EEXIST, "second O_EXCL open");
	r = fcntl(fd, F_GETFL);
	check(r >= 0 && (r & O_ACCMODE) == O_WRONLY && !(r & O_APPEND), "F_GETFL: write-only, no append");
	check(fcntl(fd, F_SETFL, O_APPEND) == 0, "F_SETFL O_APPEND");
	check((fcntl(fd, F_GETFL) & O_APPEND) != 0, "F_GETFL: append");
	check(lseek(fd, 0, SEEK_SET) == 0 && write(fd, "gh", 2) == 2, "append write after a seek");
	check(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC, "F_SETFD/F_GETFD close-on-exec");
	check(lseek(fd, 0, SEEK_END) == 8, "lseek SEEK_END: 8");
	check(close(fd) == 0, "close");
	check_errno(close(fd), EBADF, "close of a closed descriptor");
	check_errno(lseek(fd, 0, SEEK_SET), EBADF, "lseek of a closed descriptor");
	check_errno(fcntl(0, 12345), EINVAL, "fcntl with an unknown command");

	check(stat(f, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 8 && (st.st_mode & 0777) == 0600, "stat: regular, 8 bytes, mode 0600");
	fd = open(f, O_RDONLY);
	check(fstat(fd, &st) == 0 && st.st_size == 8 && st.st_blksize > 0, "fstat");
	check(read(fd, buf, sizeof buf) == 8 && memcmp(buf, "abcdefgh", 8) == 0, "read back abcdefgh");
	check(read(fd, buf, sizeof buf) == 0, "read at end of file");
	close(fd);

	fp = fopen(f, "r+");
	check(fp != NULL, "fopen r+");
	check(fseek(fp, 2, SEEK_SET) == 0 && fgetc(fp) == 'c' && ftell(fp) == 3, "fseek, fgetc, ftell");
	check(fseek(fp, 0, SEEK_END) == 0 && fprintf(fp, "%d-%s", 12, "x") == 4, "fprintf at the end");
	rewind(fp);
	check(fgets(buf, sizeof buf, fp) != NULL && strcmp(buf, "abcdefgh12-x") == 0, "fgets after rewind");
	check(fclose(fp) == 0, "fclose");

	check(mkdir("nl-dir", 0755) == 0, "mkdir");
	check_errno(mkdir("nl-dir", 0755), EEXIST, "mkdir of an existing directory");
	check(stat("nl-dir", &st) == 0 && S_ISDIR(st.st_mode), "stat: directory");
	check_errno(open("nl-dir/a/b", O_RDONLY), ENOENT, "open below a missing directory");
	check(access("nl-dir", R_OK | W_OK | X_OK) == 0, "access of the new directory");
	check(chdir("nl-dir") == 0 && access("../nl-dir", F_OK) == 0 && chdir("..") == 0, "chdir in and out");
	check(lstat(f, &st) == 0 && S_ISREG(st.st_mode), "lstat");
	check(rmdir("nl-dir") == 0, "rmdir");
	check_errno(rmdir("nl-dir"), ENOENT, "rmdir of a removed directory");
	check(unlink(f) == 0, "unlink");
	check_errno(unlink(f), ENOENT, "unlink of a removed file");
	check_errno(stat(f, &st), ENOENT, "stat of a removed file");

	check(kill(getpid(), 0) == 0, "kill(getpid(), 0)");
	check_errno(kill(getpid(), 1000), EINVAL, "kill with a bad signal");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGCHLD);
	check(sigprocmask(SIG_BLOCK, &set, &old) == 0, "sigprocmask SIG_BLOCK");
	check(sigprocmask(SIG_SETMASK, NULL, &old) == 0 && sigismember(&old, SIGUSR1) == 1 &&
	    sigismember(&old, SIGCHLD) == 1 && sigismember(&old, SIGUSR2) == 0, "sigprocmask query: USR1 and CHLD blocked");
	check(sigprocmask(SIG_UNBLOCK, &set, NULL) == 0, "sigprocmask SIG_UNBLOCK");
	check(sigprocmask(SIG_SETMASK, NULL, &old) == 0 && sigismember(&old, SIGUSR1) == 0, "sigprocmask query: nothing blocked");

	{
		struct sigaction sa, osa;

		sa.sa_handler = on_usr1;
		sigemptyset(&sa.sa_mask);
		sigaddset(&sa.sa_mask, SIGUSR2);
		sa.sa_flags = 0;
		check(sigaction(SIGUSR1, &sa, &osa) == 0 && osa.sa_handler == SIG_DFL, "sigaction SIGUSR1, was SIG_DFL");
		check(raise(SIGUSR1) == 0 && caught == SIGUSR1 && usr2_blocked_in_handler, "raise: the handler runs with SIGUSR2 blocked");
		check(sigaction(SIGUSR1, NULL, &osa) == 0 && osa.sa_handler == on_usr1 && sigismember(&osa.sa_mask, SIGUSR2) == 1, "sigaction query");
		caught = 0;
		check(signal(SIGUSR1, SIG_IGN) == on_usr1 && kill(getpid(), SIGUSR1) == 0 && caught == 0, "signal SIG_IGN: kill is ignored");
		check(signal(SIGUSR2, on_usr1) == SIG_DFL && kill(getpid(), SIGUSR2) == 0 && caught == SIGUSR2, "signal: the handler runs for kill");
		sa.sa_flags = 0x100;	/* not SA_NOCLDSTOP, the one flag newlib defines here */
		check_errno(sigaction(SIGUSR1, &sa, NULL), EINVAL, "sigaction with an unknown flag");
		sa.sa_flags = 0;
		check_errno(sigaction(SIGKILL, &sa, NULL), EINVAL, "sigaction on SIGKILL");
		signal(SIGUSR1, SIG_DFL);
		signal(SIGUSR2, SIG_DFL);
	}

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(7);
	check(pid > 0 && wait(&status) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 7, "fork, _exit(7), wait");
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGTERM);
		_exit(0);
	}
	check(pid > 0 && wait(&status) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "child killed by SIGTERM, wait");
	check_errno(wait(&status), ECHILD, "wait without children");
	{
		int fds[2];
		char c = 0;

		pid_t parent = getpid();

		check(pipe(fds) == 0, "pipe");
		pid = fork();
		if (pid == 0) {
			/* Exit status 3 says dup2 and getppid worked. */
			if (dup2(fds[1], 1) != 1 || getppid() != parent)
				_exit(4);
			write(1, "p", 1);
			_exit(3);
		}
		close(fds[1]);
		check(read(fds[0], &c, 1) == 1 && c == 'p', "read what the child wrote through the pipe");
		check(waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 3, "waitpid: the child's dup2 onto stdout and getppid worked");
		check(waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD, "waitpid WNOHANG without children");
		check(dup(fds[0]) > fds[0], "dup");
	}

	check(times(&t) != (clock_t)-1 && clock() != (clock_t)-1, "times, clock");
	check(gettimeofday(&tv, NULL) == 0 && tv.tv_usec >= 0 && tv.tv_usec < 1000000, "gettimeofday");
	check(time(NULL) > 0, "time");

	big = malloc(3 << 20);
	check(big != NULL, "malloc 3 MiB (sbrk)");
	memset(big, 0x5a, 3 << 20);
	check(big[(3 << 20) - 1] == 0x5a, "the whole block is usable");
	free(big);

	r = setjmp(env);
	if (r == 0)
		jump(20);
	check(r == 42, "setjmp, longjmp from 20 frames down");

	snprintf(buf, sizeof buf, "%lld %hhd %zu %jd %.4e %g", -1234567890123LL, (signed char)200, sizeof(long), (intmax_t)-5, 12345.678, 0.1);
	check(strcmp(buf, "-1234567890123 -56 4 -5 1.2346e+04 0.1") == 0, "printf formats");
	printf("  %s\n", buf);
	check(strtod("6.02214076e23", NULL) == 6.02214076e23, "strtod");

	printf("%d failures\n", failures);
	return failures != 0;
}
