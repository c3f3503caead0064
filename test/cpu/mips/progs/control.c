/* Calls, returns, recursion, switch tables (jr through a table), function pointers (jalr). */
#include "util.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int classify(int x)
{
	switch (x & 15) {
	case 0: return 11;
	case 1: return 23;
	case 2: return x * 3;
	case 3: return x - 7;
	case 4: return x ^ 0x55;
	case 5: return 5;
	case 6: return x << 2;
	case 7: return x >> 1;
	case 9: return -x;
	case 12: return x + 1000;
	default: return 0;
	}
}

static int add1(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int neg(int x) { return -x; }
static int (*const fns[])(int) = { add1, dbl, neg };

int main(void)
{
	mix(fib(15));
	for (int i = -40; i < 200; i++) mix(classify(i));
	int v = 1;
	for (int i = 0; i < 300; i++) { v = fns[(v & 0x7fffffff) % 3](v) + i; mix(v); }
	for (int i = 0; i < 100; i++) {
		if (i % 3 == 0) mix(i);
		else if (i % 5 == 1) mix(i * 7);
		if (i > 50 && (i & 4)) mix(i << 3);
		if (i <= 10 || i >= 90) mix(-i);
	}
	puthex(ck);
	return 0;
}
