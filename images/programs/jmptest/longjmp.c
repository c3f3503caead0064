/*
 * setjmp/longjmp across frames: from the bottom of a deep recursion, with values, with
 * longjmp(env, 0), preserving volatile locals, and out of a comparator called by qsort.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include "jmptest.h"

static jmp_buf env;
static volatile int deepest;

/* Recurses to the given depth, keeping a live local per frame, then jumps out from the bottom. */
static int descend(int depth, int target, u32 acc)
{
	u32 mine = acc * 31 + (u32)depth;

	if (depth > target)
		return 0;	/* never: the jump below leaves first */
	if (depth == target) {
		deepest = depth;
		longjmp(env, (int)(mine % 1000) + 1);
	}
	/* the addition after the call keeps this a real (non-tail) call */
	return descend(depth + 1, target, mine) + (int)(mine & 1);
}

static u32 expected_value(int target)
{
	u32 acc = 0;
	int d;

	for (d = 0; d <= target; d++)
		acc = acc * 31 + (u32)d;
	return acc % 1000 + 1;
}

static jmp_buf sortenv;
static volatile int compares;

static int cmp_poisoned(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	compares++;
	if (x == -1 || y == -1)
		longjmp(sortenv, 42);
	return (x > y) - (x < y);
}

void test_longjmp(int scale)
{
	static const int targets[] = { 0, 1, 2, 10, 100, 1000, 3000 };
	char detail[96];
	volatile size_t i;
	volatile int k;

	for (k = 0; k < scale; k++) {
		for (i = 0; i < sizeof targets / sizeof targets[0]; i++) {
			volatile int target = targets[i];
			int v = setjmp(env);

			if (v == 0) {
				descend(0, target, 0);
				check("longjmp from recursion: not reached", 0, "descend returned");
				continue;
			}
			if (k == 0) {
				snprintf(detail, sizeof detail, "got %d from depth %d", v, (int)deepest);
				printf("longjmp from depth %d returned %d\n", target, v);
				check("longjmp from the bottom of the recursion", v == (int)expected_value(target) &&
				    deepest == target, detail);
			}
		}
	}

	{
		volatile int count = 0;
		volatile int local = 1;

		if (setjmp(env) == 0) {
			local = 2;
			longjmp(env, 0);
		}
		count++;
		check("longjmp(env, 0) makes setjmp return 1 and keeps volatile locals",
		    count == 1 && local == 2, "wrong");
	}

	{
		int a[64];
		volatile int r;

		for (k = 0; k < 64; k++)
			a[k] = (k * 37) % 64;
		a[50] = -1;
		compares = 0;
		r = setjmp(sortenv);
		if (r == 0) {
			qsort(a, 64, sizeof a[0], cmp_poisoned);
			check("longjmp out of a qsort comparator", 0, "qsort returned");
		} else
			check("longjmp out of a qsort comparator", r == 42 && compares > 0, "wrong value");
	}
}
