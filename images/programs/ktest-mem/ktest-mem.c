/*
 * ktest-mem: virtual memory on emu's kernel, checked by the program itself.
 *
 * Groups (all by default, in this order):
 *   cow      after fork, parent and child write the same page of data, bss, heap and stack and
 *            each sees its own values; a page neither writes stays shared in content
 *   sbrk     the break grows page by page with zero-filled memory, shrinks, and grows again; a
 *            request past memory fails with ENOMEM and leaves the break where it was, and the
 *            machine can still fork afterwards
 *   stack    the stack grows on demand through deep recursion with large frames; running past
 *            the stack limit kills the process with SIGSEGV
 *   segv     stores to a null pointer, to the text segment and to an unmapped address raise
 *            SIGSEGV, recovered with siglongjmp
 *
 * Output: one line per check, "<check>: ok" or "<check>: FAILED: <why>", then a summary.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096

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

/* ---- cow ---- */

static int data_page[PAGE / sizeof(int)] = { 1 };
static int bss_page[PAGE / sizeof(int)];

static unsigned sum(const int *p, int n)
{
	unsigned s = 0;
	int i;

	for (i = 0; i < n; i++)
		s = s * 31 + (unsigned)p[i];
	return s;
}

static void fill(int *p, int n, int v)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = v + i;
}

static void group_cow(void)
{
	int n = PAGE / sizeof(int);
	int stack_page[PAGE / sizeof(int)];
	int *heap = malloc(PAGE * 2);
	int *areas[4];
	const char *names[4] = { "data", "bss", "heap", "stack" };
	int p[2], st, i;
	unsigned childsum[4], want;
	pid_t pid;
	char name[80], why[80];

	areas[0] = data_page;
	areas[1] = bss_page;
	areas[2] = heap;
	areas[3] = stack_page;
	for (i = 0; i < 4; i++)
		fill(areas[i], n, 1000 * i);
	pipe(p);
	if ((pid = fork()) == 0) {
		close(p[0]);
		for (i = 0; i < 4; i++)
			fill(areas[i], n, 7000 + i);
		for (i = 0; i < 4; i++)
			childsum[i] = sum(areas[i], n);
		write(p[1], childsum, sizeof childsum);
		_exit(0);
	}
	close(p[1]);
	for (i = 0; i < 4; i++)
		fill(areas[i], n, 9000 + i);
	read(p[0], childsum, sizeof childsum);
	close(p[0]);
	waitpid(pid, &st, 0);
	for (i = 0; i < 4; i++) {
		int tmp[PAGE / sizeof(int)];

		fill(tmp, n, 7000 + i);
		want = sum(tmp, n);
		snprintf(name, sizeof name, "copy on write (%s): the child sees its own writes", names[i]);
		snprintf(why, sizeof why, "child checksum %08x, expected %08x", childsum[i], want);
		check(name, childsum[i] == want, why);
		fill(tmp, n, 9000 + i);
		snprintf(name, sizeof name, "copy on write (%s): the parent sees its own writes", names[i]);
		check(name, sum(areas[i], n) == sum(tmp, n), "parent's page changed");
	}
	free(heap);
}

/* ---- sbrk ---- */

static void group_sbrk(void)
{
	char *base, *p, why[96];
	int i, ok = 1, grows = 0, st;
	size_t chunk = 1 << 20, total = 0;
	pid_t pid;

	/* Page-align the break first: the page holding the end of bss is never given back. */
	base = sbrk(0);
	if ((uintptr_t)base % PAGE)
		sbrk(PAGE - (uintptr_t)base % PAGE);
	base = sbrk(0);
	for (i = 0; i < 16; i++) {
		p = sbrk(PAGE);
		if (p == (char *)-1 || p != base + i * PAGE) {
			ok = 0;
			break;
		}
		if (p[0] != 0 || p[PAGE - 1] != 0)
			ok = 0;
		memset(p, i + 1, PAGE);
	}
	for (i = 0; i < 16; i++)
		if (base[i * PAGE] != i + 1 || base[i * PAGE + PAGE - 1] != i + 1)
			ok = 0;
	check("the break grows page by page with zero-filled, writable memory", ok, "bad contents");
	ok = sbrk(-8 * PAGE) != (char *)-1 && sbrk(0) == base + 8 * PAGE;
	ok = ok && sbrk(8 * PAGE) == base + 8 * PAGE && base[8 * PAGE] == 0;
	check("sbrk(-n) gives memory back; growing again gives zeroed pages", ok, "bad break or stale contents");
	sbrk(-16 * PAGE);

	/* Grow by 1 MiB steps, touching every page, until the kernel says no. */
	for (;;) {
		p = sbrk(chunk);
		if (p == (char *)-1)
			break;
		for (i = 0; i < (int)(chunk / PAGE); i++)
			p[i * PAGE] = (char)i;
		total += chunk;
		grows++;
		if (total > (size_t)1 << 30)
			break;
	}
	snprintf(why, sizeof why, "errno %d after %d MiB", errno, grows);
	check("growing the break past memory fails with ENOMEM", p == (char *)-1 && errno == ENOMEM && grows >= 4, why);
	check("a failed sbrk leaves the break where it was", sbrk(0) == base + total, "the break moved");
	if ((pid = fork()) == 0)
		_exit(4);
	ok = pid < 0 && errno == ENOMEM;	/* memory is committed, not overcommitted */
	if (pid > 0)
		waitpid(pid, &st, 0);
	check("with all memory committed, fork fails with ENOMEM", ok, pid > 0 ? "fork succeeded" : strerror(errno));
	sbrk(-(intptr_t)total);
	pid = fork();
	if (pid == 0)
		_exit(4);
	ok = pid > 0 && waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == 4;
	check("after giving the memory back, fork works", ok, strerror(errno));
}

/* ---- stack ---- */

static int recurse(int n)
{
	volatile char frame[16384];

	frame[0] = (char)n;
	frame[sizeof frame - 1] = (char)n;
	if (n == 0)
		return frame[0];
	return recurse(n - 1) + frame[sizeof frame - 1];
}

static void group_stack(void)
{
	int st, ok;
	pid_t pid;
	char why[64];

	ok = recurse(100) == (100 * 101) / 2;
	check("the stack grows through 1.6 MB of recursion", ok, "wrong result");
	if ((pid = fork()) == 0) {
		recurse(4000);	/* 64 MB: beyond the stack limit */
		_exit(0);
	}
	waitpid(pid, &st, 0);
	snprintf(why, sizeof why, "status 0x%x", st);
	check("running past the stack limit kills with SIGSEGV", WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, why);
}

/* ---- segv ---- */

static sigjmp_buf jb;
static volatile int segvs;

static void on_segv(int sig)
{
	(void)sig;
	segvs++;
	siglongjmp(jb, 1);
}

static void group_segv(void)
{
	volatile int *targets[3];
	const char *names[3] = { "a null pointer", "the text segment", "an unmapped address" };
	char name[80];
	int i;

	targets[0] = (volatile int *)0;
	targets[1] = (volatile int *)(uintptr_t)&group_segv;
	targets[2] = (volatile int *)0x30000000;
	signal(SIGSEGV, on_segv);
	for (i = 0; i < 3; i++) {
		int before = segvs;

		if (sigsetjmp(jb, 1) == 0)
			*targets[i] = 1;
		snprintf(name, sizeof name, "a store to %s raises SIGSEGV", names[i]);
		check(name, segvs == before + 1, "no signal");
	}
	signal(SIGSEGV, SIG_DFL);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } groups[] = {
		{ "cow", group_cow }, { "sbrk", group_sbrk }, { "stack", group_stack }, { "segv", group_segv },
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
	printf("ktest-mem: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
