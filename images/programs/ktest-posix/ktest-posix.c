/*
 * ktest-posix: what emu's kernel promises beyond the POSIX semantics that posixtest checks on
 * every system (4.4BSD or emu specifics), checked by the program itself.
 *
 * Groups (all by default, in this order):
 *   nosys   a call the kernel does not implement: SIGSYS kills by default; ignored, the call
 *           fails with ENOSYS (the kernel names the call on standard error); syscall() reaches
 *           implemented calls by number
 *   vm      mmap places mappings below the stack's growth zone and never in the trace-buffer
 *           range; MAP_SHARED of a file is refused (EINVAL); mprotect of unmapped memory
 *           (ENOMEM); the break still grows next to mappings; a private file mapping keeps the
 *           file's contents of the time of the call
 *   locks   locks on a pipe (EBADF, EOPNOTSUPP); F_GETLK reports a flock lock (pid -1); a cycle
 *           of three processes waiting for each other's locks (EDEADLK for the one closing it);
 *           F_GETFL shows no lock bit
 *   names   MAXSYMLINKS (32 links followed, the 33rd fails with ELOOP), getdirentries d_type of
 *           a link, utimes microseconds out of range
 *   tty     (only when named) prints isatty of descriptors 0, 1 and 2 and of a pipe, which
 *           depends on the host's streams (docs/kernel.md): for test/os/ktest.test.ts
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
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
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

static void say(int fd)
{
	write(fd, "x", 1);
}

static void hear(int fd)
{
	char c;

	read(fd, &c, 1);
}

/* 4.4BSD's socket(2): a number the kernel does not implement. */
#define SYS_socket_44bsd	97

static void group_nosys(void)
{
	int pid, st, ok;
	long r;

	if ((pid = fork()) == 0) {
		syscall(SYS_socket_44bsd, 2, 1, 0);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check("an unimplemented call raises SIGSYS, which kills by default", WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
	    "not killed by SIGSYS");
	signal(SIGSYS, SIG_IGN);
	errno = 0;
	r = syscall(SYS_socket_44bsd, 2, 1, 0);
	ok = r == -1 && errno == ENOSYS;
	errno = 0;
	ok = ok && syscall(4000, 0) == -1 && errno == ENOSYS;
	check("with SIGSYS ignored the call fails with ENOSYS", ok, strerror(errno));
	signal(SIGSYS, SIG_DFL);
	ok = syscall(SYS_getpid) == getpid() && syscall(SYS_write, 1, "", 0) == 0;
	check("syscall() reaches implemented calls by number", ok, strerror(errno));
}

static void group_vm(void)
{
	long pg = getpagesize();
	char *a, *b, *brk0, here;
	int fd, ok;

	a = mmap(NULL, 16 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
	/* The stack's top (USRSTACK) is within 64 KB above this frame. */
	ok = a != MAP_FAILED && (unsigned long)a > 0x20001000UL;
	ok = ok && (unsigned long)(a + 16 * pg) <= (unsigned long)&here + 65536 - 8 * 1024 * 1024;
	ok = ok && (unsigned long)(a + 16 * pg) > (unsigned long)&here - 9 * 1024 * 1024;
	check("mmap places memory right below the stack's 8 MB growth zone", ok, "wrong place");
	b = mmap((void *)0x1ff00000, pg, PROT_READ, MAP_PRIVATE | MAP_ANON, -1, 0);
	ok = b != MAP_FAILED && ((unsigned long)b + pg <= 0x1ff00000UL || (unsigned long)b >= 0x20001000UL);
	errno = 0;
	ok = ok && mmap((void *)0x1ff00000, pg, PROT_READ, MAP_PRIVATE | MAP_ANON | MAP_FIXED, -1, 0) == MAP_FAILED && errno == EINVAL;
	errno = 0;
	ok = ok && munmap((void *)0x1ff00000, pg) < 0 && errno == EINVAL;
	check("the trace-buffer range stays free: a hint there is moved, MAP_FIXED and munmap fail", ok, strerror(errno));
	munmap(b, pg);
	brk0 = sbrk(0);
	ok = sbrk(1 << 20) == brk0 && (brk0[(1 << 20) - 1] = 1) == 1 && sbrk(-(1 << 20)) != (void *)-1;
	check("the break still grows next to mappings", ok, strerror(errno));
	munmap(a, 16 * pg);
	errno = 0;
	ok = mprotect(a, pg, PROT_READ) < 0 && errno == ENOMEM;
	check("mprotect of unmapped memory: ENOMEM", ok, strerror(errno));

	fd = open("kp-f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "before", 6);
	errno = 0;
	ok = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EINVAL;
	check("MAP_SHARED of a file is refused with EINVAL", ok, strerror(errno));
	a = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, 0);
	pwrite(fd, "AFTER!", 6, 0);
	ok = a != MAP_FAILED && memcmp(a, "before", 6) == 0;
	check("a private file mapping keeps the contents of the time of the call", ok, "changed");
	munmap(a, pg);
	close(fd);
	unlink("kp-f");
}

static int lk(int fd, int cmd, int type, long start, long len)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = len;
	return fcntl(fd, cmd, &fl);
}

static void group_locks(void)
{
	struct flock fl;
	int p[2], q[3][2], fd, pid[2], ok, i, st;

	pipe(p);
	errno = 0;
	ok = lk(p[0], F_SETLK, F_RDLCK, 0, 0) < 0 && errno == EBADF;
	errno = 0;
	ok = ok && flock(p[0], LOCK_SH) < 0 && errno == EOPNOTSUPP;
	check("no locks on a pipe: fcntl EBADF, flock EOPNOTSUPP", ok, strerror(errno));
	close(p[0]);
	close(p[1]);

	fd = open("kp-l", O_RDWR | O_CREAT | O_TRUNC, 0644);
	flock(fd, LOCK_EX);
	ok = fcntl(fd, F_GETFL) == O_RDWR;
	check("F_GETFL shows no lock bit", ok, "extra bits");
	if ((pid[0] = fork()) == 0) {
		int f = open("kp-l", O_RDWR);

		memset(&fl, 0, sizeof fl);
		fl.l_type = F_RDLCK;
		fl.l_whence = SEEK_SET;
		fcntl(f, F_GETLK, &fl);
		_exit(fl.l_type == F_WRLCK && fl.l_pid == -1 && fl.l_start == 0 && fl.l_len == 0 ? 0 : 1);
	}
	waitpid(pid[0], &st, 0);
	check("F_GETLK sees a flock lock (one lock list, 4.4BSD): whole file, pid -1", WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "not seen");
	flock(fd, LOCK_UN);

	/* A cycle of three: this process holds byte 0, child 1 byte 1, child 2 byte 2; child 1
	 * waits for byte 2, child 2 for byte 0, and then this process asks for byte 1. */
	for (i = 0; i < 3; i++)
		pipe(q[i]);
	lk(fd, F_SETLK, F_WRLCK, 0, 1);
	for (i = 0; i < 2; i++) {
		if ((pid[i] = fork()) == 0) {
			lk(fd, F_SETLK, F_WRLCK, i + 1, 1);
			say(q[i][1]);
			hear(q[2][0]);
			say(q[i][1]);
			_exit(lk(fd, F_SETLKW, F_WRLCK, (i + 2) % 3, 1) == 0 ? 0 : errno == EDEADLK ? 2 : 1);
		}
	}
	hear(q[0][0]);
	hear(q[1][0]);
	say(q[2][1]);
	say(q[2][1]);
	hear(q[0][0]);
	hear(q[1][0]);
	sched_yield();
	sched_yield();
	errno = 0;
	ok = lk(fd, F_SETLKW, F_WRLCK, 1, 1) < 0 && errno == EDEADLK;
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	for (i = 0; i < 2; i++)
		waitpid(pid[i], &st, 0);
	check("a cycle of three waiting processes: EDEADLK for the one that would close it", ok, strerror(errno));
	close(fd);
	unlink("kp-l");
	for (i = 0; i < 3; i++) {
		close(q[i][0]);
		close(q[i][1]);
	}
}

static void group_names(void)
{
	char from[16], to[16], buf[512];
	struct timeval tv[2];
	int i, fd, ok, n;
	long base;

	close(open("kn-0", O_WRONLY | O_CREAT, 0644));
	for (i = 1; i <= 33; i++) {
		snprintf(from, sizeof from, "kn-%d", i - 1);
		snprintf(to, sizeof to, "kn-%d", i);
		symlink(from, to);
	}
	fd = open("kn-32", O_RDONLY);
	ok = fd >= 0;
	close(fd);
	errno = 0;
	ok = ok && open("kn-33", O_RDONLY) < 0 && errno == ELOOP;
	check("32 links are followed, a 33rd fails with ELOOP (MAXSYMLINKS)", ok, strerror(errno));
	for (i = 0; i <= 33; i++) {
		snprintf(to, sizeof to, "kn-%d", i);
		unlink(to);
	}

	mkdir("kn-d", 0755);
	symlink("nowhere", "kn-d/l");
	fd = open("kn-d", O_RDONLY);
	n = getdirentries(fd, buf, sizeof buf, &base);
	ok = 0;
	for (i = 0; i < n; ) {
		struct dirent *d = (struct dirent *)(buf + i);

		if (strcmp(d->d_name, "l") == 0)
			ok = d->d_type == DT_LNK;
		i += d->d_reclen;
	}
	close(fd);
	check("getdirentries: d_type DT_LNK", ok, "wrong type");
	tv[0].tv_sec = tv[1].tv_sec = 0;
	tv[0].tv_usec = 1000000;
	tv[1].tv_usec = 0;
	errno = 0;
	ok = utimes("kn-d", tv) < 0 && errno == EINVAL;
	check("utimes with microseconds out of range: EINVAL", ok, strerror(errno));
	unlink("kn-d/l");
	rmdir("kn-d");
}

static void group_tty(void)
{
	int p[2];

	pipe(p);
	printf("isatty: stdin %d stdout %d stderr %d pipe %d\n", isatty(0), isatty(1), isatty(2), isatty(p[0]));
	close(p[0]);
	close(p[1]);
}

static const struct {
	const char *name;
	void (*fn)(void);
	int byname;		/* run only when named */
} groups[] = {
	{ "nosys", group_nosys, 0 },
	{ "vm", group_vm, 0 },
	{ "locks", group_locks, 0 },
	{ "names", group_names, 0 },
	{ "tty", group_tty, 1 },
};

int main(int argc, char **argv)
{
	int i, j;

	for (i = 0; i < (int)(sizeof groups / sizeof groups[0]); i++) {
		int run = argc == 1 && !groups[i].byname;

		for (j = 1; j < argc; j++)
			if (strcmp(argv[j], groups[i].name) == 0)
				run = 1;
		if (run)
			groups[i].fn();
	}
	printf("ktest-posix: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
