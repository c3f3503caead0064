/*
 * cs [count]: the client/server multi-tasking workload (default count 4000).
 *
 * Connects two programs found on PATH with two pipes and runs them concurrently:
 *
 *     client count 3  --requests-->  server 3
 *                    <--replies---
 *
 * server's standard input is the request pipe and its standard output the reply pipe; client's
 * are the other way round. Every request waits for its reply, so the two processes alternate on
 * the CPU once per message. Each program writes a one-line summary on its descriptor 3, a third
 * pipe per child read by cs, so the output order does not depend on scheduling. cs prints the
 * server's summary, then the client's, then its verdict:
 *     cs: <count> round trips verified, checksums agree
 * and exits 0; or reports what disagreed and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_COUNT 4000
#define REPORTFD 3


/* Every pipe descriptor cs created, to be closed in each child. */
static int allfds[8], nallfds;

static void mkpipe(int p[2])
{
	if (pipe(p) < 0) {
		fprintf(stderr, "cs: cannot make a pipe\n");
		exit(1);
	}
	allfds[nallfds++] = p[0];
	allfds[nallfds++] = p[1];
}

/*
 * Forks a child running argv with in on descriptor 0, out on 1 and report on REPORTFD. Every
 * other pipe descriptor is closed in the child. The targets 0 and 1 are never pipe descriptors
 * (0-2 are open in cs), so only REPORTFD needs care: it is set last and never closed.
 */
static pid_t spawn(char **argv, int in, int out, int report)
{
	pid_t pid = fork();
	int i;

	if (pid < 0) {
		fprintf(stderr, "cs: cannot fork\n");
		exit(1);
	}
	if (pid > 0)
		return pid;
	dup2(in, 0);
	dup2(out, 1);
	if (report != REPORTFD)
		dup2(report, REPORTFD);
	for (i = 0; i < nallfds; i++)
		if (allfds[i] != REPORTFD)
			close(allfds[i]);
	execvp(argv[0], argv);
	fprintf(stderr, "cs: cannot execute %s\n", argv[0]);
	_exit(127);
}

/* Reads fd to end of file into buf (NUL-terminated, truncated to max-1 bytes). */
static void slurp(int fd, char *buf, size_t max)
{
	size_t n = 0;

	for (;;) {
		ssize_t r = read(fd, buf + n, max - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n == max - 1)
			break;
	}
	buf[n] = '\0';
}

static int waitstatus(pid_t pid, const char *name)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "cs: lost %s\n", name);
			return -1;
		}
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	fprintf(stderr, "cs: %s killed by a signal\n", name);
	return -1;
}

int main(int argc, char **argv)
{
	unsigned long count = argc > 1 ? strtoul(argv[1], NULL, 10) : DEFAULT_COUNT;
	int req[2], rep[2], srvrep[2], clirep[2];
	char countarg[24], fdarg[8], srvbuf[256], clibuf[256];
	char *srvargv[] = { "server", fdarg, NULL };
	char *cliargv[] = { "client", countarg, fdarg, NULL };
	unsigned long sn = 0, cn = 0, cv = 0;
	unsigned int ssum = 0, csum = 0;
	int sst, cst, ok;
	pid_t spid, cpid;

	snprintf(countarg, sizeof countarg, "%lu", count);
	snprintf(fdarg, sizeof fdarg, "%d", REPORTFD);
	mkpipe(req);
	mkpipe(rep);
	mkpipe(srvrep);
	mkpipe(clirep);
	fflush(NULL);
	spid = spawn(srvargv, req[0], rep[1], srvrep[1]);
	cpid = spawn(cliargv, rep[0], req[1], clirep[1]);
	close(req[0]);
	close(req[1]);
	close(rep[0]);
	close(rep[1]);
	close(srvrep[1]);
	close(clirep[1]);

	slurp(srvrep[0], srvbuf, sizeof srvbuf);
	slurp(clirep[0], clibuf, sizeof clibuf);
	sst = waitstatus(spid, "server");
	cst = waitstatus(cpid, "client");

	fputs(srvbuf, stdout);
	fputs(clibuf, stdout);
	ok = sscanf(srvbuf, "server: %lu requests, checksum %x", &sn, &ssum) == 2 &&
	    sscanf(clibuf, "client: %lu requests, %lu verified, checksum %x", &cn, &cv, &csum) == 3;
	if (!ok)
		printf("cs: FAILED: missing or malformed summaries\n");
	else if (sst != 0 || cst != 0)
		printf("cs: FAILED: server status %d, client status %d\n", sst, cst);
	else if (sn != count || cn != count || cv != count)
		printf("cs: FAILED: %lu requests served, %lu sent, %lu verified of %lu\n", sn, cn, cv, count);
	else if (ssum != csum)
		printf("cs: FAILED: checksums differ\n");
	else {
		printf("cs: %lu round trips verified, checksums agree\n", count);
		return 0;
	}
	return 1;
}
