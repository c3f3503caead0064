/*
 * Lazy subset construction. A DFA state is the set of NFA states that are "important" (byte
 * consumers, NFA_EOL assertions not yet passed, and NFA_MATCH) reachable at one point of a line.
 * Unanchored search is built into the transition: after every byte the closure of the NFA start
 * (mid-line, so NFA_BOL blocks) is added, so a match may begin anywhere.
 *
 * Transitions are computed on first use and cached in a 256-entry row per state. When the cache
 * holds maxstates states it is thrown away and rebuilt on demand, so memory stays bounded for
 * patterns whose DFA would be exponential.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "egrep.h"

#define MAX_DFA_STATES 1024

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "egrep: out of memory\n");
		exit(2);
	}
	return p;
}

/* Adds NFA state s and its epsilon closure to d->work (bol: the position is a line start). */
static void closure(struct dfa *d, int s, int bol)
{
	const struct nfa_state *st = d->nfa->st;
	while (s >= 0 && d->mark[s] != d->gen) {
		d->mark[s] = d->gen;
		switch (st[s].op) {
		case NFA_SPLIT:
			closure(d, st[s].out1, bol);
			s = st[s].out;
			break;
		case NFA_BOL:
			if (!bol)
				return;
			s = st[s].out;
			break;
		default:                /* NFA_SET, NFA_EOL, NFA_MATCH */
			d->work[d->nwork++] = s;
			return;
		}
	}
}

/* Could the line match at its end from NFA state s: passes NFA_EOL and splits. */
static int matches_at_eol(struct dfa *d, int s)
{
	const struct nfa_state *st = d->nfa->st;
	while (s >= 0 && d->mark[s] != d->gen) {
		d->mark[s] = d->gen;
		switch (st[s].op) {
		case NFA_MATCH:
			return 1;
		case NFA_SPLIT:
			if (matches_at_eol(d, st[s].out1))
				return 1;
			s = st[s].out;
			break;
		case NFA_EOL:
			s = st[s].out;
			break;
		default:                /* NFA_SET consumes a byte; NFA_BOL cannot pass mid-line */
			return 0;
		}
	}
	return 0;
}

static void sort_ints(int *a, int n)
{
	int i, j;
	for (i = 1; i < n; i++) {
		int v = a[i];
		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static unsigned int hash_set(const int *a, int n)
{
	unsigned int h = 2166136261u;
	int i;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned int)a[i]) * 16777619u;
	return h;
}

static void reset(struct dfa *d)
{
	d->nstates = 0;
	d->poolused = 0;
	memset(d->hash, -1, (size_t)d->hashcap * sizeof *d->hash);
}

/* Finds or makes the DFA state for the NFA set in d->work[0..nwork). Returns its number, or
 * DFA_ACCEPT if the set holds NFA_MATCH (such a state ends the search of its line). The caller
 * must have room: d->nstates < d->maxstates. */
static int intern(struct dfa *d)
{
	const struct nfa_state *st = d->nfa->st;
	int *w = d->work, n = d->nwork, i, s;
	unsigned int h;
	for (i = 0; i < n; i++)
		if (st[w[i]].op == NFA_MATCH)
			return DFA_ACCEPT;
	sort_ints(w, n);
	h = hash_set(w, n) & (unsigned int)(d->hashcap - 1);
	while ((s = d->hash[h]) >= 0) {
		if (d->setlen[s] == n && !memcmp(d->setpool + d->setoff[s], w, (size_t)n * sizeof *w))
			return s;
		h = (h + 1) & (unsigned int)(d->hashcap - 1);
	}
	s = d->nstates++;
	d->hash[h] = s;
	if (d->poolused + n > d->poolcap) {
		while (d->poolused + n > d->poolcap)
			d->poolcap *= 2;
		d->setpool = xrealloc(d->setpool, (size_t)d->poolcap * sizeof *d->setpool);
	}
	d->setoff[s] = d->poolused;
	d->setlen[s] = n;
	memcpy(d->setpool + d->poolused, w, (size_t)n * sizeof *w);
	d->poolused += n;
	for (i = 0; i < 256; i++)
		d->trans[s * 256 + i] = DFA_UNKNOWN;
	d->trans[s * 256 + '\n'] = DFA_NEWLINE;
	d->acc_eol[s] = 0;
	d->gen++;
	for (i = 0; i < n; i++)
		if (st[w[i]].op == NFA_EOL && matches_at_eol(d, w[i])) {
			d->acc_eol[s] = 1;
			break;
		}
	return s;
}

static void make_start(struct dfa *d)
{
	d->gen++;
	d->nwork = 0;
	closure(d, d->nfa->start, 1);
	d->start = intern(d);
	d->start_accepts = d->start == DFA_ACCEPT;
	if (d->start_accepts) {
		/* Every line matches; keep a real state 0 so callers can still index trans. */
		d->nwork = 0;
		d->start = intern(d);
	}
}

void dfa_init(struct dfa *d, const struct nfa *nfa)
{
	memset(d, 0, sizeof *d);
	d->nfa = nfa;
	d->maxstates = MAX_DFA_STATES;
	d->trans = xrealloc(0, (size_t)d->maxstates * 256 * sizeof *d->trans);
	d->acc_eol = xrealloc(0, (size_t)d->maxstates);
	d->setoff = xrealloc(0, (size_t)d->maxstates * sizeof *d->setoff);
	d->setlen = xrealloc(0, (size_t)d->maxstates * sizeof *d->setlen);
	d->hashcap = 2 * d->maxstates;
	d->hash = xrealloc(0, (size_t)d->hashcap * sizeof *d->hash);
	d->poolcap = 1024;
	d->setpool = xrealloc(0, (size_t)d->poolcap * sizeof *d->setpool);
	d->work = xrealloc(0, (size_t)(nfa->nstates + 1) * sizeof *d->work);
	d->mark = xrealloc(0, (size_t)nfa->nstates * sizeof *d->mark);
	memset(d->mark, 0, (size_t)nfa->nstates * sizeof *d->mark);
	reset(d);
	make_start(d);
}

int dfa_step(struct dfa *d, int s, int c)
{
	const struct nfa_state *st = d->nfa->st;
	const int *set;
	int i, n, t;
	if (c == '\n')
		return DFA_NEWLINE;
	d->gen++;
	d->nwork = 0;
	set = d->setpool + d->setoff[s];
	n = d->setlen[s];
	for (i = 0; i < n; i++) {
		const struct nfa_state *x = &st[set[i]];
		if (x->op == NFA_SET && (d->nfa->sets[x->set][c >> 3] & (1u << (c & 7))))
			closure(d, x->out, 0);
	}
	closure(d, d->nfa->start, 0);
	if (d->nstates + 2 > d->maxstates) {
		/* Cache full: keep nothing but what the caller needs, the new state and the start. */
		int *keep = xrealloc(0, (size_t)d->nwork * sizeof *keep);
		int nkeep = d->nwork;
		memcpy(keep, d->work, (size_t)nkeep * sizeof *keep);
		d->flushes++;
		reset(d);
		make_start(d);
		memcpy(d->work, keep, (size_t)nkeep * sizeof *keep);
		d->nwork = nkeep;
		free(keep);
		return intern(d);
	}
	t = intern(d);
	d->trans[s * 256 + c] = t;
	return t;
}
