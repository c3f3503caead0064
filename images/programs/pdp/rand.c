/* Deterministic random numbers and small helpers shared by the pdp models. */
#include <stdio.h>
#include <stdlib.h>
#include "pdp.h"

static unsigned int state = 1;

void rnd_seed(unsigned int s)
{
	state = s;
}

/* x' = 69069 x + 1 (mod 2^32); only the high half is used, the low bits being weak. */
unsigned int rnd16(void)
{
	state = state * 69069u + 1u;
	return state >> 16;
}

unsigned int rnd_below(unsigned int n)
{
	return (rnd16() * n) >> 16;
}

double rnd_weight(double range)
{
	return ((double)rnd16() - 32768.0) * (range / 32768.0);
}

unsigned int *rnd_permutation(unsigned int n)
{
	unsigned int *p = xcalloc(n ? n : 1, sizeof *p), i;
	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n; i > 1; i--) {               /* Fisher-Yates */
		unsigned int hi = rnd16(), j = (hi << 16 | rnd16()) % i, t = p[i - 1];
		p[i - 1] = p[j];
		p[j] = t;
	}
	return p;
}

void *xcalloc(unsigned long n, unsigned long size)
{
	void *p = calloc(n, size);
	if (!p) {
		fprintf(stderr, "pdp: out of memory\n");
		exit(1);
	}
	return p;
}

void print_fixed(double x, int places)
{
	double scale = 1.0, r;
	unsigned long v, p10 = 1;
	int i;
	if (x < 0.0) {
		putchar('-');
		x = -x;
	}
	for (i = 0; i < places; i++) {
		scale = scale * 10.0;
		p10 *= 10;
	}
	r = x * scale + 0.5;
	if (r >= 4.0e9) {
		printf("(too large)");
		return;
	}
	v = (unsigned long)r;
	printf("%lu.%0*lu", v / p10, places, v % p10);
}
