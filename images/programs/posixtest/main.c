/*
 * posixtest: the POSIX system calls whose meaning 4.4BSD and Linux share, checked by the program
 * itself, so that the same checks pass natively, under qemu-user (Linux flavour) and on emu's
 * kernel (BSD flavour): the golden output is all "ok".
 *
 * Groups (all by default, in this order):
 *   links   symlink, readlink, lstat, symbolic links followed in paths (relative, absolute,
 *           dangling, loops: ELOOP), link (hard links), unlink and rename of links, d_type
 *   attrs   umask, chmod, fchmod, chown, fchown, utimes, access, truncate, ftruncate, mkdir,
 *           rmdir, chdir, fchdir, getcwd
 *   io      pread, pwrite, readv, writev (files and pipes), fsync
 *   locks   fcntl record locks between processes: F_GETLK, F_SETLK (EAGAIN), F_SETLKW waiting,
 *           read locks shared, split ranges, release on close and on exit, EDEADLK
 *   flock   flock: exclusive and shared, LOCK_NB, waiting, sharing through fork, LOCK_UN
 *   mmap    anonymous memory (private and shared with a child), private file mappings, /dev/zero,
 *           MAP_FIXED, munmap (whole and partial), mprotect and PROT_NONE (SIGSEGV), errors
 *   timers  setitimer/getitimer (ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF), alarm and pause,
 *           sigsuspend, getrusage, times
 *   select  select and poll on pipes and files: readiness, timeouts, waking, EBADF, POLLNVAL,
 *           POLLHUP, EINTR
 *
 * usage: posixtest [group ...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "posixtest.h"

static int passed, failed;

void check(const char *what, int ok, const char *why)
{
	if (ok) {
		printf("%s: ok\n", what);
		passed++;
	} else {
		printf("%s: FAILED: %s\n", what, why);
		failed++;
	}
	fflush(stdout);
}

int put_file(const char *path, const char *s, int n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	if (write(fd, s, n) != n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

int wait_exit(int pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const struct {
	const char *name;
	void (*fn)(void);
} groups[] = {
	{ "links", group_links },
	{ "attrs", group_attrs },
	{ "io", group_io },
	{ "locks", group_locks },
	{ "flock", group_flock },
	{ "mmap", group_mmap },
	{ "timers", group_timers },
	{ "select", group_select },
};

#define NGROUPS (int)(sizeof groups / sizeof groups[0])

int main(int argc, char **argv)
{
	int i, j;

	umask(022);
	for (i = 0; i < NGROUPS; i++) {
		int run = argc == 1;

		for (j = 1; j < argc; j++)
			if (strcmp(argv[j], groups[i].name) == 0)
				run = 1;
		if (run)
			groups[i].fn();
	}
	for (j = 1; j < argc; j++) {
		for (i = 0; i < NGROUPS && strcmp(argv[j], groups[i].name) != 0; i++)
			;
		if (i == NGROUPS) {
			fprintf(stderr, "posixtest: no group '%s'\n", argv[j]);
			return 2;
		}
	}
	printf("posixtest: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
