/*
 * Non-local gotos whose receiver runs with a stack pointer other than the one at the call that
 * left its function (test/tracer/nonlocal.test.ts): __builtin_longjmp restores the setjmp's
 * stack pointer, above an alloca made after it; and a setjmp in an outer activation of a
 * recursive function is resumed from a deeper one. After each, the receiver calls a function
 * whose frame lies below the restored stack pointer. Exits 0 when every result is the one a
 * plain reading of the C gives.
 */
#include <stdio.h>
#include <string.h>

static void *buf[5];

__attribute__((noinline)) static void leave(void) { __builtin_longjmp(buf, 1); }

/* Its frame (the volatile array) follows the caller's stack pointer. */
__attribute__((noinline)) static int sum(const char *s, int n) {
	volatile int a[16];
	int i, t = 0;
	for (i = 0; i < 16; i++) a[i] = s[i % n] + i;
	for (i = 0; i < 16; i++) t += a[i];
	return t;
}

/* The jump leaves from below a second alloca; the receiver runs above it. */
__attribute__((noinline)) static int receiver(int n) {
	char *p = __builtin_alloca(n);
	int i;
	memset(p, 'a', n);
	if (__builtin_setjmp(buf)) return sum(p, n);
	{
		int *q = __builtin_alloca(n * 16 * sizeof(int));
		for (i = 0; i < n * 16; i++) q[i] = i;
		leave();
	}
	return -1;
}

/* The setjmp is in the activation d == 2; the jump leaves from d == 0. */
__attribute__((noinline)) static int recurse(int d) {
	volatile int mine[4] = { d, d + 1, d + 2, d + 3 };
	if (d == 2 && __builtin_setjmp(buf)) return mine[0] + mine[3] + sum("xyz", 3);
	if (d == 0) leave();
	return recurse(d - 1) + 1000;
}

int main(void) {
	int a = receiver(5), b = receiver(37), c = recurse(4);
	printf("receiver %d %d recurse %d\n", a, b, c);
	return a == sum("a", 1) && b == a && c == 2 + 5 + sum("xyz", 3) + 2000 ? 0 : 1;
}
