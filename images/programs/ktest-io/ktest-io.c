/*
 * ktest-io: files and pipes on emu's kernel, checked by the program itself.
 *
 * Groups (all by default, in this order):
 *   files   create, write, read back, lseek (SEEK_SET/CUR/END, past the end), O_APPEND, O_EXCL,
 *           O_TRUNC, unlink of an open file, rename over an existing file, mkdir/rmdir,
 *           ENOTEMPTY, fstat sizes, directory listing
 *   share   descriptors shared by dup and by fork share one offset; FD_CLOEXEC survives dup2 off
 *   pipes   end of file once the last writer closes (even with a copy in another process), EPIPE
 *           and SIGPIPE without readers, a transfer of 4 MB (256 times the pipe buffer) with a
 *           checksum, O_NONBLOCK reads (EAGAIN), FIONREAD
 *   atomic  four writers each write 256 records of PIPE_BUF (512) bytes into one pipe: every
 *           record arrives whole
 *
 * Output: one line per check, "<check>: ok" or "<check>: FAILED: <why>", then a summary.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
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

/* ---- files ---- */

static void group_files(void)
{
	char buf[64];
	struct stat sb;
	int fd, ok, n;
	off_t off;

	fd = open("kt-a", O_RDWR | O_CREAT | O_TRUNC, 0644);
	ok = fd >= 0 && write(fd, "0123456789", 10) == 10;
	check("create and write a file", ok, strerror(errno));
	off = lseek(fd, 3, SEEK_SET);
	n = read(fd, buf, sizeof buf);
	ok = off == 3 && n == 7 && memcmp(buf, "3456789", 7) == 0;
	check("lseek(SEEK_SET) and read back", ok, "wrong data");
	ok = lseek(fd, -2, SEEK_END) == 8 && read(fd, buf, 5) == 2 && lseek(fd, 0, SEEK_CUR) == 10;
	check("SEEK_END and SEEK_CUR", ok, "wrong offsets");
	ok = lseek(fd, 20, SEEK_SET) == 20 && write(fd, "X", 1) == 1 && fstat(fd, &sb) == 0 && sb.st_size == 21;
	ok = ok && lseek(fd, 10, SEEK_SET) == 10 && read(fd, buf, 10) == 10 && buf[0] == 0 && buf[9] == 0;
	check("writing past the end leaves a zero-filled gap", ok, "wrong size or gap");
	close(fd);

	fd = open("kt-a", O_WRONLY | O_APPEND);
	write(fd, "YZ", 2);
	close(fd);
	ok = stat("kt-a", &sb) == 0 && sb.st_size == 23 && S_ISREG(sb.st_mode) && (sb.st_mode & 0777) == 0644;
	check("O_APPEND writes at the end; stat reports size and mode", ok, "wrong size or mode");
	errno = 0;
	ok = open("kt-a", O_WRONLY | O_CREAT | O_EXCL, 0644) < 0 && errno == EEXIST;
	check("O_CREAT|O_EXCL of an existing file fails with EEXIST", ok, strerror(errno));
	fd = open("kt-a", O_RDWR | O_TRUNC);
	ok = fd >= 0 && fstat(fd, &sb) == 0 && sb.st_size == 0;
	check("O_TRUNC empties the file", ok, "not empty");
	write(fd, "keep", 4);
	lseek(fd, 0, SEEK_SET);
	ok = unlink("kt-a") == 0 && stat("kt-a", &sb) < 0 && errno == ENOENT;
	ok = ok && read(fd, buf, 4) == 4 && memcmp(buf, "keep", 4) == 0;
	check("an unlinked file stays readable through an open descriptor", ok, "lost");
	close(fd);

	fd = open("kt-b", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	write(fd, "new", 3);
	close(fd);
	fd = open("kt-c", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	write(fd, "old contents", 12);
	close(fd);
	ok = rename("kt-b", "kt-c") == 0 && stat("kt-b", &sb) < 0 && stat("kt-c", &sb) == 0 && sb.st_size == 3;
	check("rename replaces an existing file", ok, strerror(errno));
	unlink("kt-c");

	ok = mkdir("kt-d", 0755) == 0 && mkdir("kt-d/e", 0755) == 0;
	fd = open("kt-d/e/f", O_WRONLY | O_CREAT, 0644);
	close(fd);
	errno = 0;
	ok = ok && rmdir("kt-d/e") < 0 && errno == ENOTEMPTY;
	check("mkdir; rmdir of a non-empty directory fails with ENOTEMPTY", ok, strerror(errno));
	{
		DIR *d = opendir("kt-d/e");
		struct dirent *e;
		int names = 0;

		while (d && (e = readdir(d)) != NULL)
			if (strcmp(e->d_name, "f") == 0)
				names++;
		if (d)
			closedir(d);
		check("the directory lists the file", names == 1, "not listed");
	}
	ok = unlink("kt-d/e/f") == 0 && rmdir("kt-d/e") == 0 && rmdir("kt-d") == 0 && stat("kt-d", &sb) < 0;
	check("unlink and rmdir remove everything", ok, strerror(errno));
}

/* ---- share ---- */

static void group_share(void)
{
	char buf[8];
	int fd, fd2, st, ok;
	pid_t pid;

	fd = open("kt-s", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "abcdefgh", 8);
	lseek(fd, 0, SEEK_SET);
	fd2 = dup(fd);
	read(fd, buf, 2);
	ok = lseek(fd2, 0, SEEK_CUR) == 2;
	check("dup shares the file offset", ok, "separate offsets");
	if ((pid = fork()) == 0) {
		read(fd, buf, 3);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	ok = lseek(fd, 0, SEEK_CUR) == 5;
	check("fork shares the file offset with the child", ok, "separate offsets");
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	dup2(fd, fd2);
	ok = fcntl(fd, F_GETFD) == FD_CLOEXEC && fcntl(fd2, F_GETFD) == 0;
	check("dup2 gives a descriptor without FD_CLOEXEC", ok, "flag copied");
	ok = (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR && fcntl(fd, F_SETFL, O_APPEND) == 0 && (fcntl(fd2, F_GETFL) & O_APPEND);
	check("F_GETFL/F_SETFL: status flags belong to the open file", ok, "not shared");
	close(fd);
	close(fd2);
	unlink("kt-s");
}

/* ---- pipes ---- */

static volatile int sigpipes;

static void on_pipe(int sig)
{
	(void)sig;
	sigpipes++;
}

static void group_pipes(void)
{
	int p[2], st, ok, n, flags;
	unsigned sum = 0, want = 0;
	long total = 0;
	pid_t pid;
	char buf[4096], why[80];

	pipe(p);
	if ((pid = fork()) == 0) {
		/* The child holds a copy of the write end for a while, then closes it. */
		close(p[0]);
		write(p[1], "hi", 2);
		_exit(0);
	}
	close(p[1]);
	ok = read(p[0], buf, sizeof buf) == 2 && read(p[0], buf, sizeof buf) == 0;
	check("end of file once the last writer (in another process) is gone", ok, "no EOF");
	close(p[0]);
	waitpid(pid, &st, 0);

	pipe(p);
	close(p[0]);
	signal(SIGPIPE, on_pipe);
	errno = 0;
	ok = write(p[1], "x", 1) < 0 && errno == EPIPE && sigpipes == 1;
	check("a write without readers raises SIGPIPE and fails with EPIPE", ok, strerror(errno));
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);

	pipe(p);
	if ((pid = fork()) == 0) {
		unsigned s = 0;
		int i, k;

		close(p[0]);
		for (k = 0; k < 1024; k++) {
			for (i = 0; i < 4096; i++) {
				buf[i] = (char)(i * 7 + k);
				s = s * 33 + (unsigned char)buf[i];
			}
			if (write(p[1], buf, 4096) != 4096)
				_exit(1);
		}
		write(p[1], &s, 0);
		_exit(0);
	}
	close(p[1]);
	{
		int i, k = 0, off = 0;

		while ((n = read(p[0], buf, sizeof buf)) > 0) {
			for (i = 0; i < n; i++) {
				sum = sum * 33 + (unsigned char)buf[i];
				want = want * 33 + (unsigned char)(char)(off * 7 + k);
				if (++off == 4096) {
					off = 0;
					k++;
				}
			}
			total += n;
		}
	}
	close(p[0]);
	waitpid(pid, &st, 0);
	snprintf(why, sizeof why, "%ld bytes, checksum %08x, expected %08x", total, sum, want);
	check("4 MB through a pipe arrive complete and in order", total == 4L << 20 && sum == want && WEXITSTATUS(st) == 0, why);

	pipe(p);
	flags = fcntl(p[0], F_GETFL);
	fcntl(p[0], F_SETFL, flags | O_NONBLOCK);
	errno = 0;
	ok = read(p[0], buf, 1) < 0 && errno == EAGAIN;
	check("a non-blocking read of an empty pipe fails with EAGAIN", ok, strerror(errno));
	write(p[1], "12345", 5);
	n = -1;
	ok = ioctl(p[0], FIONREAD, &n) == 0 && n == 5;
	snprintf(why, sizeof why, "FIONREAD %d", n);
	check("FIONREAD counts the bytes in the pipe", ok, why);
	close(p[0]);
	close(p[1]);
}

/* ---- atomic ---- */

#define WRITERS 4
#define RECORDS 256
#define PIPE_BUF_BYTES 512

static void group_atomic(void)
{
	int p[2], i, st, bad = 0, counts[WRITERS] = { 0 }, n, have = 0;
	char rec[PIPE_BUF_BYTES], buf[PIPE_BUF_BYTES * 3];
	char why[96];

	pipe(p);
	for (i = 0; i < WRITERS; i++) {
		if (fork() == 0) {
			int k;

			close(p[0]);
			memset(rec, 'A' + i, sizeof rec);
			for (k = 0; k < RECORDS; k++)
				if (write(p[1], rec, sizeof rec) != (ssize_t)sizeof rec)
					_exit(1);
			_exit(0);
		}
	}
	close(p[1]);
	while ((n = read(p[0], buf + have, sizeof buf - have)) > 0) {
		have += n;
		while (have >= PIPE_BUF_BYTES) {
			int c = buf[0] - 'A', j;

			for (j = 1; j < PIPE_BUF_BYTES; j++)
				if (buf[j] != buf[0])
					bad++;
			if (c >= 0 && c < WRITERS)
				counts[c]++;
			else
				bad++;
			memmove(buf, buf + PIPE_BUF_BYTES, have - PIPE_BUF_BYTES);
			have -= PIPE_BUF_BYTES;
		}
	}
	close(p[0]);
	for (i = 0; i < WRITERS; i++)
		wait(&st);
	snprintf(why, sizeof why, "%d mixed bytes, records %d %d %d %d, %d left over", bad, counts[0], counts[1], counts[2], counts[3], have);
	check("writes of PIPE_BUF bytes from four processes are never interleaved", bad == 0 && have == 0 &&
	    counts[0] == RECORDS && counts[1] == RECORDS && counts[2] == RECORDS && counts[3] == RECORDS, why);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } groups[] = {
		{ "files", group_files }, { "share", group_share }, { "pipes", group_pipes }, { "atomic", group_atomic },
	};
	size_t i;
	int a;

	for (i = 0; i < sizeof groups / sizeof groups[0]; i++) {
		int run = argc == 1;

		for (a = 1; a < argc; a++)
			if (strcmp(argv[a], groups[i].name) == 0)
				run = 1;
		if (run)
			groups[i].fn();
	}
	printf("ktest-io: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
