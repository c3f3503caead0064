/*
 * qsort and bsearch with comparators chosen from a table of function pointers; results are
 * verified in order and summarised by an order-sensitive checksum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jmptest.h"

struct rec {
	int key;
	char name[8];
	int id;
};

/* key ascending, then name descending, then id ascending: a total order (ids are unique). */
static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	c = strcmp(y->name, x->name);
	if (c != 0)
		return c;
	return (x->id > y->id) - (x->id < y->id);
}

static int cmp_up(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

static int cmp_abs(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
	return ax != ay ? (ax > ay) - (ax < ay) : cmp_up(a, b);
}

static int popcount(u32 v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static int cmp_pop(const void *a, const void *b)
{
	int px = popcount((u32) * (const int *)a), py = popcount((u32) * (const int *)b);
	return px != py ? (px > py) - (px < py) : cmp_up(a, b);
}

typedef int (*cmp_fn)(const void *, const void *);

static const struct {
	const char *name;
	cmp_fn cmp;
} orders[] = {
	{ "ascending", cmp_up },
	{ "descending", cmp_down },
	{ "by magnitude", cmp_abs },
	{ "by bit count", cmp_pop },
};

void test_sort(int scale)
{
	int nrec = 2000 * scale, nint = 3000 * scale;
	struct rec *r = malloc(sizeof *r * (size_t)nrec);
	int *v = malloc(sizeof *v * (size_t)nint), *w = malloc(sizeof *w * (size_t)nint);
	char detail[96];
	size_t o;
	int i, bad;
	u32 h;

	if (!r || !v || !w) {
		check("sort: memory", 0, "malloc failed");
		return;
	}
	xorshift_seed(12345);
	for (i = 0; i < nrec; i++) {
		int k;
		r[i].key = (int)(xorshift() % 50);
		for (k = 0; k < 3; k++)
			r[i].name[k] = (char)('a' + xorshift() % 4);
		r[i].name[3] = '\0';
		r[i].id = i;
	}
	qsort(r, (size_t)nrec, sizeof *r, cmp_rec);
	bad = 0;
	h = 2166136261u;
	for (i = 0; i < nrec; i++) {
		if (i > 0 && cmp_rec(&r[i - 1], &r[i]) >= 0)
			bad++;
		h = fnv(h, (u32)r[i].id);
	}
	printf("qsort %d records by key, name, id: checksum %08x\n", nrec, h);
	snprintf(detail, sizeof detail, "%d out of order", bad);
	check("qsort of records", bad == 0, detail);

	/* distinct values, so every order is total and bsearch has one answer */
	for (i = 0; i < nint; i++)
		v[i] = (int)(i * 7919 % (nint * 2 + 1)) - nint;
	for (o = 0; o < sizeof orders / sizeof orders[0]; o++) {
		char name[64];
		memcpy(w, v, sizeof *v * (size_t)nint);
		for (i = nint - 1; i > 0; i--) {
			int j = (int)(xorshift() % (u32)(i + 1)), t = w[i];
			w[i] = w[j];
			w[j] = t;
		}
		qsort(w, (size_t)nint, sizeof *w, orders[o].cmp);
		bad = 0;
		h = 2166136261u;
		for (i = 0; i < nint; i++) {
			if (i > 0 && orders[o].cmp(&w[i - 1], &w[i]) >= 0)
				bad++;
			h = fnv(h, (u32)w[i]);
		}
		for (i = 0; i < nint; i += 97) {
			int *p = bsearch(&v[i], w, (size_t)nint, sizeof *w, orders[o].cmp);
			if (p == NULL || *p != v[i])
				bad++;
		}
		{
			int missing = nint + 5;
			if (bsearch(&missing, w, (size_t)nint, sizeof *w, orders[o].cmp) != NULL)
				bad++;
		}
		printf("qsort %d ints %s: first %d last %d checksum %08x\n", nint, orders[o].name, w[0], w[nint - 1], h);
		snprintf(name, sizeof name, "qsort and bsearch %s", orders[o].name);
		snprintf(detail, sizeof detail, "%d errors", bad);
		check(name, bad == 0, detail);
	}
	free(r);
	free(v);
	free(w);
}
