/*
 * Recursion: Ackermann's function (deep), Fibonacci (branching) against a loop, the towers of
 * Hanoi against 2^n - 1 moves, mutual recursion, McCarthy's 91 function, and the n-queens count
 * by two different recursive searches.
 */
#include <stdio.h>
#include "jmptest.h"

static int ack(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long moves;
static int pegs[3];

static void hanoi(int n, int from, int to, int via)
{
	if (n == 0)
		return;
	hanoi(n - 1, from, via, to);
	pegs[from]--;
	pegs[to]++;
	moves++;
	hanoi(n - 1, via, to, from);
}

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

static int mc91(int n)
{
	return n > 100 ? n - 10 : mc91(mc91(n + 11));
}

/* n-queens with arrays of attacked columns and diagonals */
static int cols[16], d1[32], d2[32];

static int queens_arrays(int row, int n)
{
	int c, total = 0;

	if (row == n)
		return 1;
	for (c = 0; c < n; c++) {
		if (cols[c] || d1[row + c] || d2[row - c + n])
			continue;
		cols[c] = d1[row + c] = d2[row - c + n] = 1;
		total += queens_arrays(row + 1, n);
		cols[c] = d1[row + c] = d2[row - c + n] = 0;
	}
	return total;
}

/* n-queens with bit masks */
static int queens_bits(u32 all, u32 c, u32 l, u32 r)
{
	u32 free_, bit;
	int total = 0;

	if (c == all)
		return 1;
	free_ = all & ~(c | l | r);
	while (free_) {
		bit = free_ & (0u - free_);
		free_ -= bit;
		total += queens_bits(all, c | bit, ((l | bit) << 1) & all, (r | bit) >> 1);
	}
	return total;
}

void test_recursion(int scale)
{
	char detail[96];
	int a, f, fl = 0, fprev = 1, i, q1, q2, n, nq = 7 + (scale > 1);
	long expect;

	a = ack(2, 3 * scale);
	printf("ack(2, %d) = %d\n", 3 * scale, a);
	check("ackermann(2, n) = 2n + 3", a == 2 * 3 * scale + 3, "wrong");
	a = ack(3, 5);
	printf("ack(3, 5) = %d\n", a);
	check("ackermann(3, 5) = 2^8 - 3", a == (1 << 8) - 3, "wrong");

	n = 20 + (scale > 1 ? 2 : 0);
	f = fib(n);
	for (i = 0; i < n; i++) {
		int t = fl + fprev;
		fprev = fl;
		fl = t;
	}
	printf("fib(%d) = %d\n", n, f);
	check("recursive fib equals the loop", f == fl, "differs");

	n = 14 + scale;
	moves = 0;
	pegs[0] = n;
	pegs[1] = pegs[2] = 0;
	hanoi(n, 0, 2, 1);
	expect = (1L << n) - 1;
	printf("hanoi(%d): %ld moves\n", n, moves);
	snprintf(detail, sizeof detail, "%ld moves, pegs %d %d %d", moves, pegs[0], pegs[1], pegs[2]);
	check("hanoi moves 2^n - 1 and ends on the last peg", moves == expect && pegs[2] == n && pegs[0] == 0, detail);

	check("mutual recursion even/odd", is_even(1000) && !is_odd(1000) && is_odd(777) && !is_even(777), "wrong");

	for (i = 0, f = 1; i <= 100; i++)
		if (mc91(i) != 91)
			f = 0;
	check("mccarthy 91 for 0..100", f && mc91(150) == 140, "wrong");

	q1 = queens_arrays(0, nq);
	q2 = queens_bits((1u << nq) - 1, 0, 0, 0);
	printf("queens(%d) = %d\n", nq, q1);
	check("n-queens by two searches agree", q1 == q2, "differ");
	q1 = queens_arrays(0, 8);
	q2 = queens_bits(0xff, 0, 0, 0);
	printf("queens(8) = %d\n", q1);
	check("8 queens by two searches agree", q1 == q2, "differ");
}
