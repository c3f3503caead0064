/*
 * bdump: the consumer of the multi-tasking trace (mazieres-smith-1994 section 3; DESIGN.md
 * section 4; docs/trace-bundle.md).
 *
 *   bdump [-p] [-v] TRACE SCHED [-c command | program [arg ...]]
 *
 * Maps the trace buffer with BIOCSMAP, then starts the workload (sh -c command, or program with
 * its arguments) as its child and consumes until the workload has exited: each time the traced
 * processes are blocked — the buffer overflowed, the kernel's schedule buffer is nearly full — it
 * appends the kernel's schedule records to SCHED, the buffer [base, pointer) to TRACE and an
 * OVERFLOW record with that pointer to SCHED, resets the shared pointer to the buffer's base and
 * lets the traced processes run again. When the workload has exited it blocks whatever is still
 * traced, drains a last time, ends SCHED with the END record (the total of trace bytes) and exits
 * with the workload's status (its exit code, or 128 + the signal that killed it). Without a
 * workload it consumes until SIGINT or SIGTERM.
 *
 * TRACE (or SCHED) starting with '|' is a command the stream is piped into (sh -c), as in the
 * paper: "|gzip > /tmp/t.gz".
 *
 * -p  the paper's bdump2: also checks the buffer every virtual second and drains it when more
 *     than 16 KiB are unsaved, so the traced processes block for shorter times.
 * -v  a summary on standard error at the end (drains, trace and schedule bytes).
 *
 * The shared pointer is a register (MIPS k0, SPARC %g6), restored by the kernel at every return
 * to user mode: bdump reads it after a system call and writes it before BIOCUNBLK, whose kernel
 * entry saves it for everyone.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/trbuf.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PERIODIC_MS	1000
#define PERIODIC_MIN	(16 * 1024)

static unsigned long get_ptr(void)
{
	unsigned long v;
#if defined(__mips__)
	__asm__ volatile("move %0, $26" : "=r"(v));
#elif defined(__sparc__)
	__asm__ volatile("mov %%g6, %0" : "=r"(v));
#else
#error "bdump: the trace pointer register of this architecture is unknown"
#endif
	return v;
}

static void set_ptr(unsigned long v)
{
#if defined(__mips__)
	__asm__ volatile("move $26, %0" : : "r"(v));
#elif defined(__sparc__)
	__asm__ volatile("mov %0, %%g6" : : "r"(v));
#endif
}

static const char *prog = "bdump";
static volatile sig_atomic_t stop;

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s: %s\n", prog, what, arg ? " " : "", arg ? arg : "", strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [-p] [-v] TRACE SCHED [-c command | program [arg ...]]\n", prog);
	exit(2);
}

static void onsig(int sig)
{
	(void)sig;
	stop = 1;
}

/* Children that read piped outputs, waited for at the end. */
static pid_t pipers[2];
static int npipers;

/* An output: a file, or "|command" (the command reads the stream on its standard input). */
static int output(const char *spec)
{
	int fd, p[2];
	pid_t pid;

	if (spec[0] != '|') {
		fd = open(spec, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("cannot open", spec);
		return fd;
	}
	if (pipe(p) < 0)
		die("cannot make a pipe for", spec);
	pid = fork();
	if (pid < 0)
		die("cannot fork for", spec);
	if (pid == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		execl("/bin/sh", "sh", "-c", spec + 1, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	pipers[npipers++] = pid;
	return p[1];
}

static void writeall(int fd, const void *buf, unsigned long n, const char *what)
{
	const char *b = buf;

	while (n > 0) {
		ssize_t w = write(fd, b, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			die("cannot write the", what);
		}
		b += w;
		n -= (unsigned long)w;
	}
}

/* A consumer record of the schedule stream: tag, then an unsigned LEB128 number. */
static void record(int fd, int tag, unsigned long v)
{
	unsigned char b[8];
	int n = 0;

	b[n++] = (unsigned char)tag;
	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	writeall(fd, b, (unsigned long)n, "schedule");
}

int main(int argc, char **argv)
{
	struct trbuf_info info;
	struct trbuf_stat st;
	unsigned long total = 0, ms, ptr;
	unsigned char *sbuf;
	int periodic = 0, verbose = 0, i, dev, tfd, sfd, status = 0, final = 0;
	long drains = 0, sbytes = 0;
	pid_t child = -1;
	ssize_t n;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0' && strcmp(argv[i], "-c") != 0; i++) {
		if (strcmp(argv[i], "-p") == 0)
			periodic = 1;
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else
			usage();
	}
	if (argc - i < 2)
		usage();
	if (argc - i >= 3 && strcmp(argv[i + 2], "-c") == 0 && argc - i != 4)
		usage();

	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, onsig);
	signal(SIGTERM, onsig);
	dev = open(TRBUF_PATH, O_RDONLY);
	if (dev < 0)
		die("cannot open", TRBUF_PATH);
	if (ioctl(dev, BIOCSMAP, &info) < 0)
		die("BIOCSMAP on", TRBUF_PATH);
	sbuf = malloc(info.tb_schedsize);
	if (sbuf == NULL)
		die("no memory for the schedule buffer", NULL);
	tfd = output(argv[i]);
	sfd = output(argv[i + 1]);
	if (argc - i >= 3) {
		fflush(NULL);
		child = fork();
		if (child < 0)
			die("cannot fork", NULL);
		if (child == 0) {
			close(dev);
			close(tfd);
			close(sfd);
			signal(SIGPIPE, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			if (strcmp(argv[i + 2], "-c") == 0)
				execl("/bin/sh", "sh", "-c", argv[i + 3], (char *)NULL);
			else
				execvp(argv[i + 2], argv + i + 2);
			fprintf(stderr, "%s: cannot execute %s: %s\n", prog, argv[i + 2], strerror(errno));
			_exit(127);
		}
		if (ioctl(dev, BIOCSWATCH, &child) < 0)
			die("BIOCSWATCH on", TRBUF_PATH);
	}
	ms = periodic ? PERIODIC_MS : 0;
	if (ioctl(dev, BIOCSRTIMEOUT, &ms) < 0)
		die("BIOCSRTIMEOUT on", TRBUF_PATH);

	for (;;) {
		n = read(dev, sbuf, info.tb_schedsize);
		if (n < 0 && errno != EINTR)
			die("cannot read", TRBUF_PATH);
		if (n > 0) {
			writeall(sfd, sbuf, (unsigned long)n, "schedule");
			sbytes += n;
		}
		if (ioctl(dev, BIOCGSTAT, &st) < 0)
			die("BIOCGSTAT on", TRBUF_PATH);
		if (!final && (st.ts_done || stop)) {
			/* The end: whatever is still traced stops for the last drain. */
			final = 1;
			if (ioctl(dev, BIOCBLOCK) < 0)
				die("BIOCBLOCK on", TRBUF_PATH);
			continue;
		}
		if (st.ts_blocked == TRBUF_BLK_NONE) {
			/* A timeout (-p): drain now when enough is unsaved. */
			if (st.ts_ptr - info.tb_base > PERIODIC_MIN && ioctl(dev, BIOCBLOCK) < 0)
				die("BIOCBLOCK on", TRBUF_PATH);
			continue;
		}
		if (st.ts_pending > 0)
			continue;	/* every schedule record before the drain first */
		ptr = get_ptr();
		if (ptr != st.ts_ptr || ptr < info.tb_base || ptr > info.tb_base + info.tb_size) {
			fprintf(stderr, "%s: the trace pointer register 0x%lx (kernel: 0x%lx) is outside the buffer or stale\n",
			    prog, ptr, st.ts_ptr);
			exit(1);
		}
		if (ptr > info.tb_base) {
			writeall(tfd, (const void *)info.tb_base, ptr - info.tb_base, "trace");
			total += ptr - info.tb_base;
			record(sfd, TRBUF_REC_OVERFLOW, ptr);
			drains++;
		}
		if (final)
			break;
		set_ptr(info.tb_base);
		if (ioctl(dev, BIOCUNBLK) < 0)
			die("BIOCUNBLK on", TRBUF_PATH);
	}
	record(sfd, TRBUF_REC_END, total);
	close(tfd);
	close(sfd);
	for (i = 0; i < npipers; i++)
		waitpid(pipers[i], NULL, 0);
	if (child > 0) {
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
		status = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
	}
	if (verbose)
		fprintf(stderr, "%s: %ld drains, %lu trace bytes, %ld schedule bytes\n", prog, drains, total, sbytes);
	return status;
}
