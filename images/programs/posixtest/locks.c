/*
 * posixtest groups locks and flock: advisory locks between processes. Every step that depends
 * on another process's state waits for that process to report it through a pipe, so the
 * outcome does not depend on scheduling.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "posixtest.h"

static int lk(int fd, int cmd, int type, int whence, long start, long len)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = type;
	fl.l_whence = whence;
	fl.l_start = start;
	fl.l_len = len;
	return fcntl(fd, cmd, &fl);
}

/* F_GETLK for a write lock over [start, start + len): the blocking lock, or l_type F_UNLCK. */
static struct flock getlk(int fd, long start, long len)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = len;
	if (fcntl(fd, F_GETLK, &fl) < 0)
		fl.l_type = -1;
	return fl;
}

/* A short real or virtual pause, for a child to get where it waits. */
static void nap(void)
{
	struct timespec ts = { 0, 50000000 };

	nanosleep(&ts, NULL);
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

void group_locks(void)
{
	int fd, fd2, p[2], q[2], pid, ok, st;
	pid_t me = getpid();
	struct flock fl;

	fd = open("pk-f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	ftruncate(fd, 100);
	ok = lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10) == 0;
	check("F_SETLK takes a write lock", ok, strerror(errno));
	pipe(p);
	if ((pid = fork()) == 0) {
		int r = 0;

		fl = getlk(fd, 5, 1);
		if (fl.l_type != F_WRLCK || fl.l_pid != me || fl.l_start != 0 || fl.l_len != 10 || fl.l_whence != SEEK_SET)
			r |= 1;
		if (getlk(fd, 10, 5).l_type != F_UNLCK)
			r |= 2;
		errno = 0;
		if (lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 9, 2) == 0 || (errno != EAGAIN && errno != EACCES))
			r |= 4;
		if (lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 10, 5) != 0)
			r |= 8;
		say(p[1]);
		/* Waits until the parent lets go; the parent writes "W" at 50 first. */
		if (lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1) != 0)
			r |= 16;
		{
			char c = 0;

			if (pread(fd, &c, 1, 50) != 1 || c != 'W')
				r |= 32;
		}
		_exit(r);
	}
	hear(p[0]);
	nap();
	pwrite(fd, "W", 1, 50);
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 10);
	st = wait_exit(pid);
	check("F_GETLK reports the blocking lock: type, range, pid", st >= 0 && (st & 3) == 0, "wrong lock reported");
	check("F_SETLK of a locked range fails (EAGAIN); a free range locks", st >= 0 && (st & 12) == 0, "wrong result");
	check("F_SETLKW waits until the lock is released", st >= 0 && (st & 48) == 0, "did not wait");
	check("a child's locks go away when it exits", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 20) == 0, strerror(errno));
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0);

	ok = lk(fd, F_SETLK, F_RDLCK, SEEK_SET, 0, 10) == 0;
	if ((pid = fork()) == 0) {
		int r = 0;

		if (lk(fd, F_SETLK, F_RDLCK, SEEK_SET, 5, 10) != 0)
			r |= 1;
		if (lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 1) == 0)
			r |= 2;
		_exit(r);
	}
	st = wait_exit(pid);
	check("read locks are shared; a write lock over one is refused", ok && st == 0, "wrong result");
	ok = lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10) == 0;
	check("a process upgrades its own read lock", ok, strerror(errno));

	lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 100);
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 40, 20);
	if ((pid = fork()) == 0) {
		int r = 0;

		if (getlk(fd, 45, 5).l_type != F_UNLCK)
			r |= 1;
		fl = getlk(fd, 30, 5);
		if (fl.l_type != F_WRLCK || fl.l_start != 0 || fl.l_len != 40)
			r |= 2;
		fl = getlk(fd, 70, 0);
		if (fl.l_type != F_WRLCK || fl.l_start != 60 || fl.l_len != 40)
			r |= 4;
		_exit(r);
	}
	st = wait_exit(pid);
	check("unlocking the middle of a lock splits it", st == 0, "wrong ranges");
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0);

	lseek(fd, 20, SEEK_SET);
	lk(fd, F_SETLK, F_WRLCK, SEEK_CUR, 5, 5);
	lk(fd, F_SETLK, F_WRLCK, SEEK_END, -10, 0);
	if ((pid = fork()) == 0) {
		int r = 0;

		fl = getlk(fd, 0, 0);
		if (fl.l_type != F_WRLCK || fl.l_start != 25 || fl.l_len != 5)
			r |= 1;
		fl = getlk(fd, 50, 0);
		if (fl.l_type != F_WRLCK || fl.l_start != 90 || fl.l_len != 0)
			r |= 2;
		_exit(r);
	}
	st = wait_exit(pid);
	check("SEEK_CUR and SEEK_END starts; l_len 0 reaches the end", st == 0, "wrong ranges");

	fd2 = open("pk-f", O_RDONLY);
	close(fd2);
	if ((pid = fork()) == 0)
		_exit(getlk(fd, 0, 0).l_type == F_UNLCK ? 0 : 1);
	check("closing any descriptor of the file releases the process's locks", wait_exit(pid) == 0, "still locked");

	/* Deadlock: the parent holds byte 0, the child byte 1, each then waits for the other's. */
	lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 1);
	pipe(q);
	if ((pid = fork()) == 0) {
		int r;

		lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 1, 1);
		say(q[1]);
		r = lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1);
		_exit(r == 0 ? 0 : errno == EDEADLK ? 2 : 1);
	}
	hear(q[0]);
	nap();
	errno = 0;
	ok = lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 1, 1);
	st = errno;
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0);
	ok = (ok < 0 && st == EDEADLK) + (wait_exit(pid) == 2) == 1;
	check("a wait that would close a cycle fails with EDEADLK", ok, "no deadlock detected");

	errno = 0;
	ok = lk(fd, F_SETLK, 99, SEEK_SET, 0, 1) < 0 && errno == EINVAL;
	check("a bad lock type: EINVAL", ok, strerror(errno));
	fd2 = open("pk-f", O_RDONLY);
	errno = 0;
	ok = lk(fd2, F_SETLK, F_WRLCK, SEEK_SET, 0, 1) < 0 && errno == EBADF;
	check("a write lock through a read-only descriptor: EBADF", ok, strerror(errno));
	close(fd2);
	close(fd);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	unlink("pk-f");
}

void group_flock(void)
{
	int fd, fd2, p[2], pid, ok, st;

	fd = open("pf-f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	fd2 = open("pf-f", O_RDWR);
	ok = flock(fd, LOCK_EX) == 0;
	errno = 0;
	ok = ok && flock(fd2, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	errno = 0;
	ok = ok && flock(fd2, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	check("an exclusive flock excludes another open file, even of the same process", ok, strerror(errno));
	if ((pid = fork()) == 0)
		_exit(flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : 1);
	check("a child shares the lock through the inherited open file", wait_exit(pid) == 0, "refused");
	pipe(p);
	if ((pid = fork()) == 0) {
		int f = open("pf-f", O_RDWR);
		char c = 0;

		say(p[1]);
		if (flock(f, LOCK_SH) != 0)
			_exit(1);
		if (pread(f, &c, 1, 0) != 1 || c != 'U')
			_exit(2);
		_exit(0);
	}
	hear(p[0]);
	nap();
	pwrite(fd, "U", 1, 0);
	ok = flock(fd, LOCK_UN) == 0;
	st = wait_exit(pid);
	check("flock waits for LOCK_UN", ok && st == 0, "did not wait");
	ok = flock(fd, LOCK_SH) == 0 && flock(fd2, LOCK_SH | LOCK_NB) == 0;
	check("shared flocks coexist", ok, strerror(errno));
	errno = 0;
	ok = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd2);
	ok = ok && flock(fd, LOCK_EX | LOCK_NB) == 0;
	check("closing the last descriptor of an open file releases its flock", ok, strerror(errno));
	close(fd);
	close(p[0]);
	close(p[1]);
	unlink("pf-f");
}
