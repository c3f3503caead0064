/*
 * Back propagation in a sparsely connected three-layer network (the "bp" program of the PDP
 * handbook). Each unit keeps two linked lists of connections: the ones coming in (used by the
 * forward pass and the weight update) and the ones going out (used to send error derivatives
 * back). Units and connections are placed in their pools in a random order, so walking a list
 * jumps around memory, and the patterns are presented in a new random order every epoch.
 *
 * The activation function is the rational sigmoid f(x) = 1/2 + x / (2 (1 + |x|)), with
 * f'(x) = 1 / (2 (1 + |x|)^2): like the logistic it maps onto (0, 1), but it needs only IEEE
 * basic operations, so every target computes bit-identical results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pdp.h"

struct conn {
	struct unit *from, *to;
	double w, dw;                   /* weight and its last change (momentum) */
	struct conn *next_in;           /* next connection into `to` */
	struct conn *next_out;          /* next connection out of `from` */
};

struct unit {
	double net, act, delta;
	double bias, dbias;
	struct conn *in, *out;
	int layer, index;
};

static double absd(double x)
{
	return x < 0.0 ? -x : x;
}

static double squash(double x)
{
	return 0.5 + 0.5 * x / (1.0 + absd(x));
}

static double squash_deriv(double x)
{
	double d = 1.0 + absd(x);
	return 0.5 / (d * d);
}

struct net {
	struct unit **layer[3];
	int size[3];
	long nconns;
};

static void build(struct net *n, const struct bp_options *o)
{
	int total = o->ninput + o->nhidden + o->noutput, l, i, j, k = 0;
	unsigned long maxconns = (unsigned long)o->ninput * o->nhidden + (unsigned long)o->nhidden * o->noutput;
	struct unit *upool = xcalloc((unsigned long)total, sizeof *upool);
	struct conn *cpool = xcalloc(maxconns, sizeof *cpool);
	unsigned int *uslot = rnd_permutation((unsigned int)total);
	unsigned int *cslot = rnd_permutation((unsigned int)maxconns);
	n->size[0] = o->ninput;
	n->size[1] = o->nhidden;
	n->size[2] = o->noutput;
	for (l = 0; l < 3; l++) {
		n->layer[l] = xcalloc((unsigned long)n->size[l], sizeof *n->layer[l]);
		for (i = 0; i < n->size[l]; i++) {
			struct unit *u = &upool[uslot[k++]];
			u->layer = l;
			u->index = i;
			if (l > 0)
				u->bias = rnd_weight(0.5);
			n->layer[l][i] = u;
		}
	}
	n->nconns = 0;
	for (l = 1; l < 3; l++)
		for (i = 0; i < n->size[l]; i++)
			for (j = 0; j < n->size[l - 1]; j++) {
				struct unit *to = n->layer[l][i], *from = n->layer[l - 1][j];
				struct conn *c;
				if (rnd_below(100) >= (unsigned int)o->density)
					continue;
				c = &cpool[cslot[n->nconns++]];
				c->from = from;
				c->to = to;
				c->w = rnd_weight(1.0);
				c->next_in = to->in;
				to->in = c;
				c->next_out = from->out;
				from->out = c;
			}
}

/* Every connection is on exactly the lists it claims: returns 0 if the structure is sound. */
static int check_structure(const struct net *n)
{
	long nin = 0, nout = 0;
	int l, i;
	for (l = 0; l < 3; l++)
		for (i = 0; i < n->size[l]; i++) {
			const struct unit *u = n->layer[l][i];
			const struct conn *c;
			for (c = u->in; c; c = c->next_in, nin++)
				if (c->to != u || c->from->layer != l - 1)
					return 1;
			for (c = u->out; c; c = c->next_out, nout++)
				if (c->from != u || c->to->layer != l + 1)
					return 1;
		}
	return nin != n->nconns || nout != n->nconns;
}

static void forward(struct net *n, const unsigned char *input)
{
	int l, i;
	for (i = 0; i < n->size[0]; i++)
		n->layer[0][i]->act = input[i] ? 1.0 : 0.0;
	for (l = 1; l < 3; l++)
		for (i = 0; i < n->size[l]; i++) {
			struct unit *u = n->layer[l][i];
			double net = u->bias;
			const struct conn *c;
			for (c = u->in; c; c = c->next_in)
				net = net + c->w * c->from->act;
			u->net = net;
			u->act = squash(net);
		}
}

/* Returns the pattern's sum of squared errors; *correct: outputs on the right side of 1/2. */
static double backward(struct net *n, const unsigned char *target, const struct bp_options *o, int *correct)
{
	double pss = 0.0;
	int l, i;
	*correct = 0;
	for (i = 0; i < n->size[2]; i++) {
		struct unit *u = n->layer[2][i];
		double t = target[i] ? 1.0 : 0.0, err = t - u->act;
		pss = pss + err * err;
		if ((u->act > 0.5) == (target[i] != 0))
			++*correct;
		u->delta = err * squash_deriv(u->net);
	}
	for (i = 0; i < n->size[1]; i++) {
		struct unit *u = n->layer[1][i];
		double sum = 0.0;
		const struct conn *c;
		for (c = u->out; c; c = c->next_out)
			sum = sum + c->w * c->to->delta;
		u->delta = sum * squash_deriv(u->net);
	}
	for (l = 1; l < 3; l++)
		for (i = 0; i < n->size[l]; i++) {
			struct unit *u = n->layer[l][i];
			struct conn *c;
			for (c = u->in; c; c = c->next_in) {
				c->dw = o->lrate * u->delta * c->from->act + o->momentum * c->dw;
				c->w = c->w + c->dw;
			}
			u->dbias = o->lrate * u->delta + o->momentum * u->dbias;
			u->bias = u->bias + u->dbias;
		}
	return pss;
}

/* FNV-1a over the IEEE 754 bit patterns of every weight and bias, in network order. */
static unsigned int weights_checksum(const struct net *n)
{
	unsigned int h = 2166136261u;
	int l, i, k;
	for (l = 1; l < 3; l++)
		for (i = 0; i < n->size[l]; i++) {
			const struct unit *u = n->layer[l][i];
			const struct conn *c = 0;
			double w = u->bias;
			for (;;) {
				unsigned long long bits;
				memcpy(&bits, &w, sizeof bits);
				for (k = 0; k < 8; k++) {
					h = (h ^ (unsigned int)(bits & 0xff)) * 16777619u;
					bits >>= 8;
				}
				c = c ? c->next_in : u->in;
				if (!c)
					break;
				w = c->w;
			}
		}
	return h;
}

int bp_run(const struct bp_options *o)
{
	struct net n;
	unsigned char *in = xcalloc((unsigned long)o->npatterns * o->ninput, 1);
	unsigned char *out = xcalloc((unsigned long)o->npatterns * o->noutput, 1);
	double first = 0.0, tss = 0.0;
	int p, i, e, ncorrect = 0;
	build(&n, o);
	for (p = 0; p < o->npatterns; p++) {
		for (i = 0; i < o->ninput; i++)
			in[p * o->ninput + i] = (unsigned char)(rnd16() >> 15);
		for (i = 0; i < o->noutput; i++)
			out[p * o->noutput + i] = (unsigned char)(rnd16() >> 15);
	}
	printf("bp: network %d-%d-%d, %ld connections (%d%% density), %d patterns\n",
	       o->ninput, o->nhidden, o->noutput, n.nconns, o->density, o->npatterns);
	for (e = 0; e < o->epochs; e++) {
		unsigned int *order = rnd_permutation((unsigned int)o->npatterns);
		tss = 0.0;
		ncorrect = 0;
		for (p = 0; p < o->npatterns; p++) {
			int q = (int)order[p], correct;
			forward(&n, &in[q * o->ninput]);
			tss = tss + backward(&n, &out[q * o->noutput], o, &correct);
			ncorrect += correct;
		}
		free(order);
		if (e == 0)
			first = tss;
		printf("epoch %3d: tss ", e + 1);
		print_fixed(tss, 6);
		printf(", %d/%d output bits right\n", ncorrect, o->npatterns * o->noutput);
	}
	printf("bp: weights checksum %08x\n", weights_checksum(&n));
	if (check_structure(&n)) {
		printf("bp: FAILED, connection lists are inconsistent\n");
		return 1;
	}
	if (o->epochs > 1 && !(tss < first)) {
		printf("bp: FAILED, the error did not fall\n");
		return 1;
	}
	printf("bp: connection lists consistent, error fell from ");
	print_fixed(first, 6);
	printf(" to ");
	print_fixed(tss, 6);
	printf("\n");
	return 0;
}
