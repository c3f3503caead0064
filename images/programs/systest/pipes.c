/* systest: pipes (EOF, a transfer far larger than the pipe buffer, EPIPE and SIGPIPE, O_NONBLOCK). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "systest.h"

#define BIG	(1 << 20)

static unsigned char
pattern(unsigned i)
{
	return (unsigned char)(i * 7 + (i >> 9));
}

void
t_pipes(void)
{
	static unsigned char buf[4096];
	int p[2], status, n, ok;
	unsigned total, i;
	pid_t pid;

	outf("== pipes\n");
	CHECK_SYS("pipe", pipe(p) == 0 && p[0] >= 0 && p[1] >= 0 && p[0] != p[1]);
	check("write into a pipe", write(p[1], "abc", 3) == 3, 0);
	check("read what was written", read(p[0], buf, sizeof buf) == 3 && buf[0] == 'a' && buf[2] == 'c', 0);
	CHECK_ERRNO("lseek on a pipe", lseek(p[0], 0, SEEK_SET) < 0, ESPIPE);
	check("F_SETFL O_NONBLOCK", fcntl(p[0], F_SETFL, O_NONBLOCK) == 0 && (fcntl(p[0], F_GETFL) & O_NONBLOCK), 0);
	CHECK_ERRNO("non-blocking read of an empty pipe", read(p[0], buf, 1) < 0, EAGAIN);
	fcntl(p[0], F_SETFL, 0);
	close(p[1]);
	check("read after the last writer closed: EOF", read(p[0], buf, sizeof buf) == 0, 0);
	close(p[0]);

	/* 1 MiB through the pipe from a child: every byte in order, then EOF when the child exits. */
	pipe(p);
	if ((pid = fork()) == 0) {
		close(p[0]);
		for (total = 0; total < BIG; total += n) {
			for (i = 0; i < sizeof buf; i++)
				buf[i] = pattern(total + i);
			n = write(p[1], buf, sizeof buf);
			if (n <= 0)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	ok = 1;
	total = 0;
	while ((n = read(p[0], buf, sizeof buf)) > 0) {
		for (i = 0; i < (unsigned)n; i++)
			if (buf[i] != pattern(total + i))
				ok = 0;
		total += n;
	}
	close(p[0]);
	outf("pipe transfer: %u bytes received\n", total);
	check("pipe transfer: every byte in order", ok && total == BIG, 0);
	check("pipe writer exited 0", waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0, 0);

	/* No reader: EPIPE when SIGPIPE is ignored, death by SIGPIPE by default. */
	pipe(p);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	CHECK_ERRNO("write with no reader, SIGPIPE ignored", write(p[1], "x", 1) < 0, EPIPE);
	signal(SIGPIPE, SIG_DFL);
	if ((pid = fork()) == 0) {
		write(p[1], "x", 1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	outf("writer without reader: %s %s\n", WIFSIGNALED(status) ? "killed by" : "exited",
	    WIFSIGNALED(status) ? signame(WTERMSIG(status)) : "");
	check("write with no reader kills by SIGPIPE", WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, 0);
	close(p[1]);
}
