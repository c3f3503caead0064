/*
 * jmptest [scale]: see jmptest.h. scale (default 1) multiplies the work of every part.
 * Output: results and one line per check, then a summary; exit status 1 if a check failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include "jmptest.h"

static int passed, failed;
static u32 state = 0x9e3779b9u;

void check(const char *name, int ok, const char *detail)
{
	if (ok) {
		printf("%s: ok\n", name);
		passed++;
	} else {
		printf("%s: FAILED: %s\n", name, detail);
		failed++;
	}
}

void xorshift_seed(u32 s)
{
	state = s ? s : 1;
}

u32 xorshift(void)
{
	state ^= state << 13;
	state ^= state >> 17;
	state ^= state << 5;
	return state;
}

/* FNV-1a over the four bytes of a word, least significant first (same on every byte order). */
u32 fnv(u32 h, u32 word)
{
	int i;

	for (i = 0; i < 4; i++) {
		h ^= (word >> (8 * i)) & 0xff;
		h *= 16777619u;
	}
	return h;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 1;

	if (scale < 1)
		scale = 1;
	test_longjmp(scale);
	test_exceptions(scale);
	test_vm(scale);
	test_sort(scale);
	test_recursion(scale);
	printf("jmptest: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
