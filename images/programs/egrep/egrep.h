/*
 * egrep: extended regular expressions compiled to a Thompson NFA, searched with a lazily built
 * DFA (each DFA state is a set of NFA states, made on first use and cached).
 */
#ifndef EGREP_H
#define EGREP_H

/* ---- NFA (regex.c) ---- */

enum nfa_op {
	NFA_SET,        /* consume one byte that is in sets[set], then go to out */
	NFA_SPLIT,      /* epsilon to out and to out1 */
	NFA_BOL,        /* epsilon to out, only at the start of a line */
	NFA_EOL,        /* epsilon to out, only at the end of a line */
	NFA_MATCH,
};

struct nfa_state {
	unsigned char op;
	int set;
	int out, out1;
};

struct nfa {
	struct nfa_state *st;
	int nstates;
	int start;
	unsigned char (*sets)[32];      /* 256-bit byte sets, bit c of set s: sets[s][c>>3] & 1<<(c&7) */
	int nsets;
};

/* Compiles the patterns (each an ERE; a newline inside one separates alternatives) into nfa.
 * fold: case-insensitive; whole_line: the -x option. On a syntax error returns a message (static
 * storage) and leaves nfa unusable; returns 0 on success. */
const char *nfa_compile(struct nfa *nfa, char **patterns, int npatterns, int fold, int whole_line);

/* ---- lazy DFA (dfa.c) ---- */

/* Transition codes below 0; codes >= 0 are DFA state numbers. */
#define DFA_UNKNOWN (-1)        /* not computed yet: call dfa_step */
#define DFA_NEWLINE (-2)        /* the byte is '\n': the line ends here */
#define DFA_ACCEPT (-3)         /* the line matches whatever follows */

struct dfa {
	const struct nfa *nfa;
	int *trans;                     /* trans[state * 256 + byte] */
	unsigned char *acc_eol;         /* per state: would the line match if it ended here */
	int nstates, maxstates;
	int start;                      /* state at the beginning of a line */
	int start_accepts;              /* the empty string at line start already matches */
	long flushes;                   /* times the cache was thrown away */
	/* private */
	int *setpool;                   /* NFA state lists of all DFA states, back to back */
	int poolused, poolcap;
	int *setoff, *setlen;
	int *hash;                      /* open-addressed table of DFA states by their NFA set */
	int hashcap;
	int *work, *mark, gen;          /* scratch for closures */
	int nwork;
};

void dfa_init(struct dfa *d, const struct nfa *nfa);
/* The transition from state s on byte c (also stores it in d->trans); may flush the cache, after
 * which only the returned state number and d->start are valid. */
int dfa_step(struct dfa *d, int s, int c);

#endif
