/* posixtest group mmap: mappings of anonymous memory and of files, protections, unmapping. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "posixtest.h"

static sigjmp_buf env;
static volatile int faults;

static void onsegv(int sig)
{
	(void)sig;
	faults++;
	siglongjmp(env, 1);
}

/* 1 when reading (write 0) or writing (write 1) *p faults with SIGSEGV, 0 when it works. */
static int faults_at(volatile char *p, int write)
{
	struct sigaction sa, old;
	int r;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onsegv;
	sigaction(SIGSEGV, &sa, &old);
	faults = 0;
	if (sigsetjmp(env, 1) == 0) {
		if (write)
			*p = 1;
		else
			(void)*p;
	}
	r = faults;
	sigaction(SIGSEGV, &old, NULL);
	return r;
}

void group_mmap(void)
{
	long pg = getpagesize();
	char *a, *b, *f;
	int i, ok, fd, pid;

	a = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
	ok = a != MAP_FAILED && ((unsigned long)a & (pg - 1)) == 0;
	for (i = 0; ok && i < 3 * pg; i++)
		ok = a[i] == 0;
	check("anonymous memory: page-aligned, zero-filled", ok, strerror(errno));
	memset(a, 'a', 3 * pg);
	ok = munmap(a + pg, pg) == 0 && a[0] == 'a' && a[2 * pg] == 'a' && faults_at(a + pg, 0);
	check("munmap of the middle page leaves its neighbours", ok, "wrong");
	b = mmap(a + pg, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON | MAP_FIXED, -1, 0);
	ok = b == a + pg && b[0] == 0 && !faults_at(b, 1);
	b = mmap(a, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON | MAP_FIXED, -1, 0);
	ok = ok && b == a && a[1] == 0 && a[2 * pg] == 'a';
	check("MAP_FIXED maps at the address, replacing what was there", ok, strerror(errno));
	ok = mprotect(a, pg, PROT_READ) == 0 && !faults_at(a, 0) && faults_at(a, 1);
	ok = ok && mprotect(a, pg, PROT_READ | PROT_WRITE) == 0 && !faults_at(a, 1);
	check("mprotect read-only: writes fault with SIGSEGV; back to read-write", ok, strerror(errno));
	ok = mprotect(a + 2 * pg, pg, PROT_NONE) == 0 && faults_at(a + 2 * pg, 0) && !faults_at(a + pg, 0);
	check("PROT_NONE: reads fault", ok, strerror(errno));
	ok = munmap(a, 3 * pg) == 0 && faults_at(a, 0);
	check("munmap: the pages are gone", ok, strerror(errno));

	a = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON, -1, 0);
	b = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
	a[0] = 'p';
	b[0] = 'p';
	if ((pid = fork()) == 0) {
		a[0] = 'c';
		b[0] = 'c';
		_exit(0);
	}
	wait_exit(pid);
	check("MAP_SHARED anonymous memory is shared with a child, MAP_PRIVATE is not", a[0] == 'c' && b[0] == 'p', "wrong");
	munmap(a, pg);
	munmap(b, pg);

	fd = open("pm-f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	b = malloc(2 * pg);
	memset(b, '0', pg);
	memset(b + pg, '1', pg);
	write(fd, b, 2 * pg);
	free(b);
	write(fd, "tail", 4);
	f = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ok = f != MAP_FAILED && f[0] == '0' && f[pg] == '1' && memcmp(f + 2 * pg, "tail\0\0", 6) == 0;
	check("a private file mapping holds the file; the last page past the end is zeros", ok, strerror(errno));
	f[0] = 'X';
	{
		char c = 0;

		ok = pread(fd, &c, 1, 0) == 1 && c == '0';
	}
	check("writes to a private mapping do not reach the file", ok, "the file changed");
	munmap(f, 3 * pg);
	f = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, pg);
	ok = f != MAP_FAILED && f[0] == '1' && f[pg - 1] == '1';
	check("a mapping at a file offset", ok, strerror(errno));
	munmap(f, pg);
	errno = 0;
	ok = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, 1) == MAP_FAILED && errno == EINVAL;
	errno = 0;
	ok = ok && mmap(NULL, 0, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED && errno == EINVAL;
	errno = 0;
	ok = ok && mmap(NULL, pg, PROT_READ, MAP_PRIVATE, 99, 0) == MAP_FAILED && errno == EBADF;
	errno = 0;
	ok = ok && munmap((char *)0 + pg + 1, pg) < 0 && errno == EINVAL;
	check("errors: unaligned offset, zero length, bad descriptor, unaligned munmap", ok, strerror(errno));
	close(fd);
	unlink("pm-f");

	fd = open("/dev/zero", O_RDWR);
	a = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	ok = a != MAP_FAILED && a[0] == 0 && a[pg - 1] == 0;
	if (ok)
		a[5] = 5;
	check("a private mapping of /dev/zero is anonymous memory", ok && a[5] == 5, strerror(errno));
	munmap(a, pg);

	for (i = 0; i < 64; i++) {
		a = mmap(NULL, 16 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
		if (a == MAP_FAILED)
			break;
		a[15 * pg] = 1;
		munmap(a, 16 * pg);
	}
	check("64 map/touch/unmap cycles of 64 KB", i == 64, strerror(errno));
	a = malloc(100000);
	check("malloc still works next to mappings", a != NULL, "NULL");
	free(a);
}
