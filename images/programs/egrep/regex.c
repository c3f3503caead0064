/*
 * Extended regular expressions (POSIX ERE as egrep reads them) parsed into a syntax tree, then
 * compiled into a Thompson NFA.
 *
 * Syntax: alternation |, grouping ( ), the postfix operators * + ? {n} {n,} {n,m}, bracket
 * expressions [...] and [^...] with ranges and [:class:] names, '.', the anchors ^ and $, and
 * \c for a literal c. A '*' '+' '?' or '{' with nothing before it is literal, as in historical
 * egrep; '{' not followed by a valid interval is literal too.
 */
#include <stdlib.h>
#include <string.h>
#include "egrep.h"

enum node_op { N_SET, N_CAT, N_ALT, N_STAR, N_PLUS, N_QUEST, N_REP, N_BOL, N_EOL, N_EMPTY };

struct node {
	enum node_op op;
	struct node *l, *r;
	int set;
	int min, max;           /* N_REP; max < 0 means unbounded */
};

#define DUP_MAX 255
#define MAX_NFA_STATES 200000

static struct nfa *cur;
static int folding;
static const char *src;         /* parse position */
static const char *error;

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		error = "out of memory";
		return 0;
	}
	return p;
}

static struct node *mknode(enum node_op op, struct node *l, struct node *r)
{
	struct node *n = xmalloc(sizeof *n);
	if (!n)
		return 0;
	n->op = op;
	n->l = l;
	n->r = r;
	n->set = -1;
	n->min = n->max = 0;
	return n;
}

static void free_tree(struct node *n)
{
	if (!n)
		return;
	free_tree(n->l);
	free_tree(n->r);
	free(n);
}

/* ---- byte sets ---- */

static int is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(int c) { return c >= 'a' && c <= 'z'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int new_set(void)
{
	if ((cur->nsets & (cur->nsets - 1)) == 0) {     /* grow at powers of two */
		int cap = cur->nsets ? cur->nsets * 2 : 8;
		void *p = realloc(cur->sets, (size_t)cap * 32);
		if (!p) {
			error = "out of memory";
			return -1;
		}
		cur->sets = p;
	}
	memset(cur->sets[cur->nsets], 0, 32);
	return cur->nsets++;
}

static void set_add(int s, int c)
{
	cur->sets[s][c >> 3] |= (unsigned char)(1u << (c & 7));
	if (folding) {
		if (is_upper(c))
			c += 'a' - 'A';
		else if (is_lower(c))
			c -= 'a' - 'A';
		cur->sets[s][c >> 3] |= (unsigned char)(1u << (c & 7));
	}
}

static struct node *set_node(int s)
{
	struct node *n;
	if (s < 0)
		return 0;
	n = mknode(N_SET, 0, 0);
	if (n)
		n->set = s;
	return n;
}

static struct node *literal(int c)
{
	int s = new_set();
	if (s < 0)
		return 0;
	set_add(s, c);
	return set_node(s);
}

/* The character classes of the C locale, for ASCII; bytes >= 128 belong to none. */
static int in_class(const char *name, int c)
{
	if (!strcmp(name, "alpha")) return is_upper(c) || is_lower(c);
	if (!strcmp(name, "digit")) return is_digit(c);
	if (!strcmp(name, "alnum")) return is_upper(c) || is_lower(c) || is_digit(c);
	if (!strcmp(name, "upper")) return is_upper(c);
	if (!strcmp(name, "lower")) return is_lower(c);
	if (!strcmp(name, "space")) return c == ' ' || (c >= '\t' && c <= '\r');
	if (!strcmp(name, "blank")) return c == ' ' || c == '\t';
	if (!strcmp(name, "punct")) return c > ' ' && c < 127 && !is_upper(c) && !is_lower(c) && !is_digit(c);
	if (!strcmp(name, "print")) return c >= ' ' && c < 127;
	if (!strcmp(name, "graph")) return c > ' ' && c < 127;
	if (!strcmp(name, "cntrl")) return c < ' ' || c == 127;
	if (!strcmp(name, "xdigit")) return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	return -1;
}

/* Parses a bracket expression; src is just past the '['. */
static struct node *bracket(void)
{
	int s = new_set(), negate = 0, first = 1, c, i;
	unsigned char bits[32];
	if (s < 0)
		return 0;
	if (*src == '^') {
		negate = 1;
		src++;
	}
	for (;;) {
		if (*src == '\0') {
			error = "unmatched [";
			return 0;
		}
		if (*src == ']' && !first)
			break;
		first = 0;
		if (src[0] == '[' && src[1] == ':') {
			const char *end = strstr(src + 2, ":]");
			char name[16];
			size_t len;
			if (!end || (len = (size_t)(end - (src + 2))) >= sizeof name) {
				error = "bad character class";
				return 0;
			}
			memcpy(name, src + 2, len);
			name[len] = '\0';
			if (in_class(name, 'a') < 0) {
				error = "unknown character class";
				return 0;
			}
			for (c = 0; c < 256; c++)
				if (in_class(name, c))
					set_add(s, c);
			src = end + 2;
			continue;
		}
		c = (unsigned char)*src++;
		if (src[0] == '-' && src[1] != ']' && src[1] != '\0') {
			int hi = (unsigned char)src[1];
			if (hi < c) {
				error = "invalid range end";
				return 0;
			}
			for (; c <= hi; c++)
				set_add(s, c);
			src += 2;
		} else {
			set_add(s, c);
		}
	}
	src++;
	if (negate) {
		memcpy(bits, cur->sets[s], 32);
		for (i = 0; i < 32; i++)
			cur->sets[s][i] = (unsigned char)~bits[i];
		cur->sets[s]['\n' >> 3] &= (unsigned char)~(1u << ('\n' & 7));
	}
	return set_node(s);
}

static struct node *alternation(void);

static struct node *atom(void)
{
	int c = (unsigned char)*src;
	struct node *n;
	switch (c) {
	case '(':
		src++;
		if (*src == ')') {
			src++;
			return mknode(N_EMPTY, 0, 0);
		}
		n = alternation();
		if (!n)
			return 0;
		if (*src != ')') {
			error = "unmatched (";
			free_tree(n);
			return 0;
		}
		src++;
		return n;
	case '[':
		src++;
		return bracket();
	case '.': {
		int s = new_set(), i;
		if (s < 0)
			return 0;
		for (i = 0; i < 256; i++)
			if (i != '\n')
				set_add(s, i);
		src++;
		return set_node(s);
	}
	case '^':
		src++;
		return mknode(N_BOL, 0, 0);
	case '$':
		src++;
		return mknode(N_EOL, 0, 0);
	case '\\':
		if (src[1] == '\0') {
			error = "trailing backslash";
			return 0;
		}
		src += 2;
		return literal((unsigned char)src[-1]);
	default:
		src++;
		return literal(c);
	}
}

/* Reads "{n}", "{n,}", "{n,m}" or "{,m}" (= "{0,m}") at src; returns 0 (src unchanged) if it is not an interval. */
static int interval(int *min, int *max)
{
	const char *p = src + 1;
	int lo = 0, hi;
	if (!is_digit((unsigned char)*p) && !(p[0] == ',' && is_digit((unsigned char)p[1])))
		return 0;
	while (is_digit((unsigned char)*p) && lo <= DUP_MAX)
		lo = lo * 10 + (*p++ - '0');
	hi = lo;
	if (*p == ',') {
		p++;
		if (is_digit((unsigned char)*p)) {
			hi = 0;
			while (is_digit((unsigned char)*p) && hi <= DUP_MAX)
				hi = hi * 10 + (*p++ - '0');
		} else {
			hi = -1;
		}
	}
	if (*p != '}')
		return 0;
	if (lo > DUP_MAX || hi > DUP_MAX || (hi >= 0 && hi < lo)) {
		error = "invalid repetition count";
		return 0;
	}
	*min = lo;
	*max = hi;
	src = p + 1;
	return 1;
}

static struct node *repetition(void)
{
	struct node *n;
	int c = (unsigned char)*src;
	if (c == '*' || c == '+' || c == '?' || c == '{') {
		/* An operator with no operand stands for itself. */
		src++;
		n = literal(c);
	} else {
		n = atom();
	}
	while (n) {
		int min, max;
		c = (unsigned char)*src;
		if (c == '*') {
			n = mknode(N_STAR, n, 0);
			src++;
		} else if (c == '+') {
			n = mknode(N_PLUS, n, 0);
			src++;
		} else if (c == '?') {
			n = mknode(N_QUEST, n, 0);
			src++;
		} else if (c == '{' && interval(&min, &max)) {
			n = mknode(N_REP, n, 0);
			if (n) {
				n->min = min;
				n->max = max;
			}
		} else {
			break;
		}
	}
	return error ? 0 : n;
}

static struct node *concatenation(void)
{
	struct node *n = 0;
	while (*src && *src != '|' && *src != ')' && *src != '\n') {
		struct node *r = repetition();
		if (!r) {
			free_tree(n);
			return 0;
		}
		n = n ? mknode(N_CAT, n, r) : r;
		if (!n)
			return 0;
	}
	return n ? n : mknode(N_EMPTY, 0, 0);
}

static struct node *alternation(void)
{
	struct node *n = concatenation();
	while (n && (*src == '|' || *src == '\n')) {
		struct node *r;
		src++;
		r = concatenation();
		if (!r) {
			free_tree(n);
			return 0;
		}
		n = mknode(N_ALT, n, r);
	}
	return n;
}

/* ---- NFA construction: compile(node, next) builds the states for node with continuation next,
 * working right to left so no patch lists are needed. ---- */

static int add_state(int op, int set, int out, int out1)
{
	struct nfa_state *st;
	if (cur->nstates >= MAX_NFA_STATES) {
		error = "regular expression too big";
		return -1;
	}
	if ((cur->nstates & (cur->nstates - 1)) == 0) {
		int cap = cur->nstates ? cur->nstates * 2 : 16;
		void *p = realloc(cur->st, (size_t)cap * sizeof *cur->st);
		if (!p) {
			error = "out of memory";
			return -1;
		}
		cur->st = p;
	}
	st = &cur->st[cur->nstates];
	st->op = (unsigned char)op;
	st->set = set;
	st->out = out;
	st->out1 = out1;
	return cur->nstates++;
}

static int compile(const struct node *n, int next)
{
	int s, body, t, i;
	if (next < 0)
		return -1;
	switch (n->op) {
	case N_SET:
		return add_state(NFA_SET, n->set, next, -1);
	case N_CAT:
		return compile(n->l, compile(n->r, next));
	case N_ALT:
		body = compile(n->l, next);
		t = compile(n->r, next);
		if (body < 0 || t < 0)
			return -1;
		return add_state(NFA_SPLIT, -1, body, t);
	case N_QUEST:
		body = compile(n->l, next);
		return body < 0 ? -1 : add_state(NFA_SPLIT, -1, body, next);
	case N_STAR:
	case N_PLUS:
		s = add_state(NFA_SPLIT, -1, -1, next);
		if (s < 0)
			return -1;
		body = compile(n->l, s);
		if (body < 0)
			return -1;
		cur->st[s].out = body;
		return n->op == N_STAR ? s : body;
	case N_REP:
		/* x{min,max} = min copies of x, then (max - min) nested optional copies, or x* if
		 * unbounded. */
		if (n->max < 0) {
			s = add_state(NFA_SPLIT, -1, -1, next);
			if (s < 0)
				return -1;
			body = compile(n->l, s);
			if (body < 0)
				return -1;
			cur->st[s].out = body;
			t = s;
		} else {
			t = next;
			for (i = n->min; i < n->max; i++) {
				body = compile(n->l, t);
				if (body < 0)
					return -1;
				t = add_state(NFA_SPLIT, -1, body, next);
				if (t < 0)
					return -1;
			}
		}
		for (i = 0; i < n->min; i++) {
			t = compile(n->l, t);
			if (t < 0)
				return -1;
		}
		return t;
	case N_BOL:
		return add_state(NFA_BOL, -1, next, -1);
	case N_EOL:
		return add_state(NFA_EOL, -1, next, -1);
	case N_EMPTY:
		return next;
	}
	return -1;
}

const char *nfa_compile(struct nfa *nfa, char **patterns, int npatterns, int fold, int whole_line)
{
	struct node *tree = 0;
	int i, match;
	memset(nfa, 0, sizeof *nfa);
	cur = nfa;
	folding = fold;
	error = 0;
	for (i = 0; i < npatterns; i++) {
		struct node *t;
		src = patterns[i];
		t = alternation();
		if (t && *src == ')')
			error = "unmatched )";
		if (!t || error) {
			free_tree(t);
			free_tree(tree);
			return error ? error : "out of memory";
		}
		tree = tree ? mknode(N_ALT, tree, t) : t;
		if (!tree)
			return error;
	}
	if (whole_line) {
		tree = mknode(N_CAT, mknode(N_BOL, 0, 0), mknode(N_CAT, tree, mknode(N_EOL, 0, 0)));
		if (error)
			return error;
	}
	match = add_state(NFA_MATCH, -1, -1, -1);
	nfa->start = compile(tree, match);
	free_tree(tree);
	if (nfa->start < 0)
		return error ? error : "regular expression too big";
	return 0;
}
