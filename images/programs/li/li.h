/*
 * li: a small Lisp interpreter in the manner of xlisp (the SPEC "li" benchmark): a reader, cons
 * cells in a mark-and-sweep heap, interned symbols with global values, lexical closures over
 * association-list environments, and the special forms and primitives a program like the
 * N-queens solver needs.
 */
#ifndef LI_H
#define LI_H

#include <stddef.h>

typedef struct cell *obj;

enum type { T_CONS, T_FIXNUM, T_SYMBOL, T_STRING, T_SUBR, T_FSUBR, T_CLOSURE, T_FREE };

typedef obj (*subr_fn)(obj args);               /* arguments evaluated, as a list */
typedef obj (*fsubr_fn)(obj args, obj env);     /* special form: unevaluated arguments */

struct cell {
	unsigned char type;
	unsigned char mark;
	union {
		struct { obj car, cdr; } cons;
		long fixnum;
		struct { obj value; obj plist; const char *name; } sym;
		struct { char *chars; long len; } str;
		struct { subr_fn fn; const char *name; } subr;
		struct { fsubr_fn fn; const char *name; } fsubr;
		struct { obj params, body, env; } closure;
	} u;
};

/* ---- heap.c ---- */
extern obj nil, t_sym;
obj cons(obj car, obj cdr);
obj mkfix(long v);
obj mkstring(const char *s, long len);
obj intern(const char *name);
void heap_init(void);
void gc(void);
extern long gc_count, cells_total;

/* GC roots on the C stack: every obj variable that must survive an allocation is pushed by
 * address. PROTECT/UNPROTECT pairs must nest. */
extern obj **gc_roots;
extern int gc_nroots, gc_maxroots;
#define PROTECT(v) do { if (gc_nroots >= gc_maxroots) gc_roots_overflow(); gc_roots[gc_nroots++] = &(v); } while (0)
#define UNPROTECT(n) (gc_nroots -= (n))
void gc_roots_overflow(void);

#define car(x) ((x)->u.cons.car)
#define cdr(x) ((x)->u.cons.cdr)
#define consp(x) ((x)->type == T_CONS)
#define fixp(x) ((x)->type == T_FIXNUM)
#define symbolp(x) ((x)->type == T_SYMBOL)
#define fixval(x) ((x)->u.fixnum)

/* ---- errors (main.c) ---- */
void fatal(const char *msg, obj culprit);

/* ---- read.c / print.c ---- */
struct reader {
	const char *buf;
	long pos, len;
	int line;
	const char *name;
};
/* Reads one expression; returns 0 at end of input. */
int lisp_read(struct reader *r, obj *out);
void lisp_print(obj x, int escape);     /* escape: strings in quotes (prin1) or bare (princ) */

/* ---- eval.c ---- */
obj eval(obj x, obj env);
obj apply(obj f, obj args);
obj progn(obj body, obj env);
void eval_init(void);

/* ---- builtins.c ---- */
void builtins_init(void);

#endif
