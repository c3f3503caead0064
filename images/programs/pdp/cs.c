/*
 * Constraint satisfaction in a Hopfield network (the "cs" program of the PDP handbook used as a
 * content-addressable memory). Units take the values -1 and +1 and are joined by symmetric
 * integer weights on a sparse random graph; the weights store patterns by the Hebb rule
 * w_ij = sum over patterns of s_i s_j. A probe (a stored pattern with some units flipped) settles
 * by asynchronous updates, sweeping the units in a fresh random order each time, until a sweep
 * changes nothing.
 *
 * With symmetric weights and no self-connections each flip raises the goodness
 * G = sum over links (both directions) of w_ij a_i a_j by 4 |net_i|, so G is tracked exactly in
 * integers and checked: it must rise at every flip and equal a recount at the end, and the final
 * state must be stable.
 */
#include <stdio.h>
#include <stdlib.h>
#include "pdp.h"

struct link {
	struct csunit *other;
	int w;
	struct link *next;
};

struct csunit {
	int act;                        /* -1 or +1 */
	int index;
	struct link *links;
};

static long goodness(struct csunit **u, int n)
{
	long g = 0;
	int i;
	for (i = 0; i < n; i++) {
		const struct link *l;
		for (l = u[i]->links; l; l = l->next)
			g += (long)l->w * u[i]->act * l->other->act;
	}
	return g;
}

static int net_input(const struct csunit *u)
{
	int net = 0;
	const struct link *l;
	for (l = u->links; l; l = l->next)
		net += l->w * l->other->act;
	return net;
}

int cs_run(const struct cs_options *o)
{
	int n = o->nunits, i, j, k, p, probe, failures = 0, recalled = 0;
	unsigned long nlinks = 0, maxlinks = 2ul * (unsigned long)n * (unsigned long)o->fanout;
	struct csunit *pool = xcalloc((unsigned long)n, sizeof *pool);
	struct link *lpool = xcalloc(maxlinks, sizeof *lpool);
	struct csunit **u = xcalloc((unsigned long)n, sizeof *u);
	unsigned int *uslot = rnd_permutation((unsigned int)n);
	unsigned int *lslot = rnd_permutation((unsigned int)maxlinks);
	signed char *pat = xcalloc((unsigned long)o->npatterns * n, 1);
	for (i = 0; i < n; i++) {
		u[i] = &pool[uslot[i]];
		u[i]->index = i;
	}
	for (p = 0; p < o->npatterns; p++)
		for (i = 0; i < n; i++)
			pat[p * n + i] = (signed char)(rnd16() & 0x8000 ? 1 : -1);
	/* Each unit picks `fanout` partners; each pair gets one link in each direction. */
	for (i = 0; i < n; i++)
		for (k = 0; k < o->fanout; k++) {
			int w = 0;
			struct link *a, *b;
			j = (int)rnd_below((unsigned int)n);
			if (j == i)
				continue;
			for (p = 0; p < o->npatterns; p++)
				w += pat[p * n + i] * pat[p * n + j];
			a = &lpool[lslot[nlinks++]];
			b = &lpool[lslot[nlinks++]];
			a->other = u[j];
			a->w = w;
			a->next = u[i]->links;
			u[i]->links = a;
			b->other = u[i];
			b->w = w;
			b->next = u[j]->links;
			u[j]->links = b;
		}
	printf("cs: %d units, %lu links, %d patterns stored, %d probes with %d%% noise\n",
	       n, nlinks, o->npatterns, o->nprobes, o->noise);
	for (probe = 0; probe < o->nprobes; probe++) {
		int target = probe % o->npatterns, flipped = 0, sweeps = 0, changed, match = 0;
		long g, updates = 0, flips = 0;
		for (i = 0; i < n; i++) {
			u[i]->act = pat[target * n + i];
			if ((int)rnd_below(100) < o->noise) {
				u[i]->act = -u[i]->act;
				flipped++;
			}
		}
		g = goodness(u, n);
		do {
			unsigned int *order = rnd_permutation((unsigned int)n);
			changed = 0;
			for (k = 0; k < n; k++) {
				struct csunit *x = u[order[k]];
				int net = net_input(x), want = net > 0 ? 1 : net < 0 ? -1 : x->act;
				updates++;
				if (want != x->act) {
					long before = g;
					x->act = want;
					g += 4L * (net < 0 ? -net : net);
					if (g <= before)
						failures++;
					flips++;
					changed = 1;
				}
			}
			free(order);
			sweeps++;
		} while (changed);
		if (g != goodness(u, n))
			failures++;
		for (i = 0; i < n; i++) {
			int net = net_input(u[i]);
			if ((net > 0 && u[i]->act < 0) || (net < 0 && u[i]->act > 0))
				failures++;
			match += u[i]->act == pat[target * n + i];
		}
		if (match == n)
			recalled++;
		printf("probe %2d: pattern %d, %d units flipped, %ld flips in %d sweeps (%ld updates), goodness %ld, %d/%d units match\n",
		       probe, target, flipped, flips, sweeps, updates, g, match, n);
	}
	printf("cs: %d/%d probes recalled their pattern exactly\n", recalled, o->nprobes);
	if (failures) {
		printf("cs: FAILED, %d violations of the goodness or stability checks\n", failures);
		return 1;
	}
	printf("cs: goodness rose at every flip, matched a recount, and every final state is stable\n");
	return 0;
}
