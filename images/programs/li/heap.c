/*
 * The heap: cells come in segments of SEGMENT_CELLS and are handed out from a free list. When the
 * list is empty a mark-and-sweep collection runs; roots are the symbol table (values and property
 * lists) and the addresses registered with PROTECT. If less than a quarter of the heap is free
 * after a collection, a new segment is added. Collections depend only on cell counts, so they
 * happen at the same points on every target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "li.h"

#ifndef SEGMENT_CELLS
#define SEGMENT_CELLS 16384         /* -DSEGMENT_CELLS=64 stresses the collector */
#endif
#define SYMTAB_SIZE 1021
#define FIX_MIN (-128)
#define FIX_MAX 1023

obj nil, t_sym;
long gc_count, cells_total;
obj **gc_roots;
int gc_nroots, gc_maxroots;

static obj freelist;
static long nfree;
static struct cell **segments;
static int nsegments;
static obj symchain[SYMTAB_SIZE];       /* lists (conses) of the symbols in each bucket */
static struct cell small_fix[FIX_MAX - FIX_MIN + 1];

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "li: out of memory\n");
		exit(1);
	}
	return p;
}

void gc_roots_overflow(void)
{
	fprintf(stderr, "li: evaluation too deep (root stack of %d entries full)\n", gc_maxroots);
	exit(1);
}

static void add_segment(void)
{
	struct cell *seg = xmalloc(sizeof *seg * SEGMENT_CELLS);
	int i;
	segments = realloc(segments, sizeof *segments * (size_t)(nsegments + 1));
	if (!segments) {
		fprintf(stderr, "li: out of memory\n");
		exit(1);
	}
	segments[nsegments++] = seg;
	for (i = SEGMENT_CELLS - 1; i >= 0; i--) {
		seg[i].type = T_FREE;
		seg[i].mark = 0;
		seg[i].u.cons.car = 0;
		seg[i].u.cons.cdr = freelist;
		freelist = &seg[i];
	}
	nfree += SEGMENT_CELLS;
	cells_total += SEGMENT_CELLS;
}

/* Marks x and everything reachable from it: iterates along cdrs, recurses into cars. */
static void mark(obj x)
{
	while (x && !x->mark) {
		x->mark = 1;
		switch (x->type) {
		case T_CONS:
			mark(car(x));
			x = cdr(x);
			break;
		case T_SYMBOL:
			mark(x->u.sym.value);
			x = x->u.sym.plist;
			break;
		case T_CLOSURE:
			mark(x->u.closure.params);
			mark(x->u.closure.body);
			x = x->u.closure.env;
			break;
		default:
			return;
		}
	}
}

void gc(void)
{
	int i, s;
	gc_count++;
	for (i = 0; i < SYMTAB_SIZE; i++)
		mark(symchain[i]);
	for (i = 0; i < gc_nroots; i++)
		mark(*gc_roots[i]);
	nfree = 0;
	freelist = 0;
	for (s = nsegments - 1; s >= 0; s--) {
		struct cell *seg = segments[s];
		for (i = SEGMENT_CELLS - 1; i >= 0; i--) {
			obj c = &seg[i];
			if (c->mark) {
				c->mark = 0;
				continue;
			}
			if (c->type == T_STRING)
				free(c->u.str.chars);
			c->type = T_FREE;
			c->u.cons.car = 0;
			c->u.cons.cdr = freelist;
			freelist = c;
			nfree++;
		}
	}
	if (nfree < cells_total / 4)
		add_segment();
}

static obj alloc(int type)
{
	obj c;
	if (!freelist)
		gc();
	c = freelist;
	freelist = cdr(c);
	nfree--;
	c->type = (unsigned char)type;
	return c;
}

obj cons(obj a, obj d)
{
	obj c;
	if (!freelist) {
		PROTECT(a);
		PROTECT(d);
		gc();
		UNPROTECT(2);
	}
	c = alloc(T_CONS);
	car(c) = a;
	cdr(c) = d;
	return c;
}

obj mkfix(long v)
{
	obj c;
	if (v >= FIX_MIN && v <= FIX_MAX)
		return &small_fix[v - FIX_MIN];
	c = alloc(T_FIXNUM);
	c->u.fixnum = v;
	return c;
}

obj mkstring(const char *s, long len)
{
	obj c = alloc(T_STRING);
	c->u.str.chars = xmalloc((size_t)len + 1);
	memcpy(c->u.str.chars, s, (size_t)len);
	c->u.str.chars[len] = '\0';
	c->u.str.len = len;
	return c;
}

static unsigned int hash_name(const char *s)
{
	unsigned int h = 0;
	while (*s)
		h = h * 31 + (unsigned char)*s++;
	return h % SYMTAB_SIZE;
}

obj intern(const char *name)
{
	unsigned int h = hash_name(name);
	obj l, sym;
	char *copy;
	for (l = symchain[h]; l && l != nil; l = cdr(l))
		if (!strcmp(car(l)->u.sym.name, name))
			return car(l);
	copy = xmalloc(strlen(name) + 1);
	strcpy(copy, name);
	sym = alloc(T_SYMBOL);
	sym->u.sym.name = copy;
	sym->u.sym.value = 0;           /* unbound */
	sym->u.sym.plist = nil;
	PROTECT(sym);
	symchain[h] = cons(sym, symchain[h] ? symchain[h] : nil);
	UNPROTECT(1);
	return sym;
}

void heap_init(void)
{
	long v;
	gc_maxroots = 100000;
	gc_roots = xmalloc(sizeof *gc_roots * (size_t)gc_maxroots);
	for (v = FIX_MIN; v <= FIX_MAX; v++) {
		small_fix[v - FIX_MIN].type = T_FIXNUM;
		small_fix[v - FIX_MIN].mark = 1;        /* static: never swept */
		small_fix[v - FIX_MIN].u.fixnum = v;
	}
	add_segment();
	nil = 0;
	nil = intern("nil");
	nil->u.sym.value = nil;
	nil->u.sym.plist = nil;
	/* the bucket list made before nil existed ends in 0; make it end in nil */
	{
		int i;
		for (i = 0; i < SYMTAB_SIZE; i++)
			if (symchain[i] && cdr(symchain[i]) == 0)
				cdr(symchain[i]) = nil;
	}
	t_sym = intern("t");
	t_sym->u.sym.value = t_sym;
}
