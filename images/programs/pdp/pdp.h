/*
 * pdp: a small connectionist simulator in the manner of the PDP programs (McClelland and
 * Rumelhart's "Explorations in Parallel Distributed Processing"): networks of units joined by
 * weighted connections held in linked lists, so that every pass over a network is irregular
 * pointer chasing through the heap.
 */
#ifndef PDP_H
#define PDP_H

/* ---- deterministic random numbers (rand.c): this program's own generator, never rand() ---- */
void rnd_seed(unsigned int s);
unsigned int rnd16(void);               /* 16 random bits */
unsigned int rnd_below(unsigned int n); /* in [0, n), n <= 65536 */
double rnd_weight(double range);        /* in [-range, range), a multiple of range / 32768 */

/* Slots 0..n-1 in a random order: heap objects are placed through it so that lists built in
 * creation order point all over their pool. */
unsigned int *rnd_permutation(unsigned int n);

void *xcalloc(unsigned long n, unsigned long size);

/* Prints x with `places` decimals, rounding half up, by integer formatting (no %f). */
void print_fixed(double x, int places);

/* ---- back propagation (bp.c) ---- */
struct bp_options {
	int ninput, nhidden, noutput;
	int npatterns;
	int density;            /* percent of possible connections that exist */
	int epochs;
	double lrate, momentum;
};
int bp_run(const struct bp_options *o);

/* ---- constraint satisfaction / content-addressable memory (cs.c) ---- */
struct cs_options {
	int nunits;
	int fanout;             /* connections made from each unit (symmetric, so about 2x in total) */
	int npatterns;          /* patterns stored */
	int nprobes;            /* noisy probes to settle */
	int noise;              /* percent of units flipped in a probe */
};
int cs_run(const struct cs_options *o);

#endif
