/*
 * Expressions: precedence-climbing parser producing typed nodes. Arrays decay to pointers,
 * pointer arithmetic is made explicit (the index is multiplied by the element size), lvalues and
 * calls are checked, and constant subexpressions are folded with the target's 32-bit int
 * arithmetic.
 */
#include <stdio.h>
#include <string.h>
#include "cc1.h"

long folded_count;

struct node *new_node(enum nodeop op, int line)
{
	struct node *n = arena_alloc(sizeof *n);
	n->op = op;
	n->line = line;
	n->type = &ty_int;
	return n;
}

static struct node *num(long v, int line)
{
	struct node *n = new_node(N_NUM, line);
	n->value = (long)(int)(unsigned int)(unsigned long)v;
	return n;
}

/* The type a value of type t has when used (arrays decay to pointers, char promotes to int). */
static struct type *rvalue_type(struct type *t)
{
	if (t->kind == TY_ARRAY)
		return ptr_to(t->base);
	if (t->kind == TY_CHAR)
		return &ty_int;
	return t;
}

static int is_lvalue(const struct node *n)
{
	return (n->op == N_VAR && n->type->kind != TY_ARRAY && n->type->kind != TY_FUNC) || n->op == N_DEREF;
}

static int pure(const struct node *n)
{
	return n->op == N_NUM || n->op == N_VAR || n->op == N_STR;
}

static void check_value(struct parser *ps, struct node *n)
{
	if (n->type->kind == TY_VOID)
		error_at(ps, n->line, "void value used in an expression", 0);
}

/* Folds op on two constants; *ok = 0 if the result is undefined in C (left unfolded). */
static long fold(enum binop op, long x, long y, int *ok)
{
	unsigned int a = (unsigned int)x, b = (unsigned int)y;
	int sa = (int)a, sb = (int)b;
	*ok = 1;
	switch (op) {
	case B_ADD: return (int)(a + b);
	case B_SUB: return (int)(a - b);
	case B_MUL: return (int)(a * b);
	case B_DIV:
	case B_MOD:
		if (sb == 0 || (sa == -2147483647 - 1 && sb == -1)) {
			*ok = 0;
			return 0;
		}
		return op == B_DIV ? sa / sb : sa % sb;
	case B_AND: return (int)(a & b);
	case B_OR: return (int)(a | b);
	case B_XOR: return (int)(a ^ b);
	case B_SHL:
	case B_SHR:
		if (sb < 0 || sb > 31) {
			*ok = 0;
			return 0;
		}
		return op == B_SHL ? (int)(a << sb) : sa < 0 ? (int)~(~a >> sb) : (int)(a >> sb);
	case B_EQ: return sa == sb;
	case B_NE: return sa != sb;
	case B_LT: return sa < sb;
	case B_GT: return sa > sb;
	case B_LE: return sa <= sb;
	case B_GE: return sa >= sb;
	}
	*ok = 0;
	return 0;
}

/* Makes a binary node, folding constants and trivial identities. */
static struct node *binary(enum binop op, struct node *l, struct node *r, struct type *type, int line)
{
	struct node *n;
	if (l->op == N_NUM && r->op == N_NUM) {
		int ok;
		long v = fold(op, l->value, r->value, &ok);
		if (ok) {
			folded_count++;
			n = num(v, line);
			n->type = type;
			return n;
		}
	}
	if (r->op == N_NUM && type->kind == l->type->kind) {
		if ((r->value == 0 && (op == B_ADD || op == B_SUB || op == B_OR || op == B_XOR || op == B_SHL || op == B_SHR)) ||
		    (r->value == 1 && (op == B_MUL || op == B_DIV))) {
			folded_count++;
			return l;
		}
		if (r->value == 0 && (op == B_MUL || op == B_AND) && pure(l)) {
			folded_count++;
			n = num(0, line);
			n->type = type;
			return n;
		}
	}
	if (l->op == N_NUM && op == B_ADD && l->value == 0 && type->kind == r->type->kind) {
		folded_count++;
		return r;
	}
	n = new_node(N_BINARY, line);
	n->bop = op;
	n->a = l;
	n->b = r;
	n->type = type;
	return n;
}

/* ptr + int or int + ptr with the scaling made explicit; ptr - ptr divided by the element size. */
static struct node *additive(struct parser *ps, enum binop op, struct node *l, struct node *r, int line)
{
	struct type *lt = rvalue_type(l->type), *rt = rvalue_type(r->type);
	check_value(ps, l);
	check_value(ps, r);
	if (op == B_ADD && is_integer(lt) && lt->kind != TY_PTR && rt->kind == TY_PTR) {
		struct node *t = l;             /* int + ptr: make it ptr + int */
		struct type *tt = lt;
		l = r;
		r = t;
		lt = rt;
		rt = tt;
	}
	if (lt->kind == TY_PTR && is_integer(rt)) {
		int size = type_size(lt->base);
		if (size > 1)
			r = binary(B_MUL, r, num(size, line), &ty_int, line);
		return binary(op, l, r, lt, line);
	}
	if (op == B_SUB && lt->kind == TY_PTR && rt->kind == TY_PTR) {
		int size = type_size(lt->base);
		struct node *d = binary(B_SUB, l, r, &ty_int, line);
		return size > 1 ? binary(B_DIV, d, num(size, line), &ty_int, line) : d;
	}
	if (!is_integer(lt) || !is_integer(rt))
		error_at(ps, line, "invalid operands to %s", op == B_ADD ? "+" : "-");
	return binary(op, l, r, &ty_int, line);
}

static struct node *arith(struct parser *ps, enum binop op, struct node *l, struct node *r, int line)
{
	struct type *lt, *rt;
	if (op == B_ADD || op == B_SUB)
		return additive(ps, op, l, r, line);
	check_value(ps, l);
	check_value(ps, r);
	lt = rvalue_type(l->type);
	rt = rvalue_type(r->type);
	if (op >= B_EQ) {
		if ((lt->kind == TY_PTR) != (rt->kind == TY_PTR) && !(l->op == N_NUM && l->value == 0) && !(r->op == N_NUM && r->value == 0))
			error_at(ps, line, "comparison between pointer and integer", 0);
	} else if (lt->kind == TY_PTR || rt->kind == TY_PTR) {
		error_at(ps, line, "invalid operands to a binary operator", 0);
	}
	return binary(op, l, r, &ty_int, line);
}

static struct node *deref(struct parser *ps, struct node *p, int line)
{
	struct type *t = rvalue_type(p->type);
	struct node *n;
	if (t->kind != TY_PTR) {
		error_at(ps, line, "indirection through a non-pointer", 0);
		return p;
	}
	n = new_node(N_DEREF, line);
	n->a = p;
	n->type = t->base;
	return n;
}

static struct node *call(struct parser *ps, struct sym *f, int line)
{
	struct node *n = new_node(N_CALL, line), **tail = &n->a;
	int nargs = 0;
	n->sym = f;
	n->type = f->type->base;
	if (ps->lx.tok.kind != TK_RPAREN) {
		for (;;) {
			struct node *arg = parse_assign(ps);
			check_value(ps, arg);
			if (f->type->nparams >= 0 && nargs < f->type->nparams) {
				struct type *pt = f->type->params[nargs], *at = rvalue_type(arg->type);
				if ((pt->kind == TY_PTR) != (at->kind == TY_PTR) && !(arg->op == N_NUM && arg->value == 0))
					error_at(ps, arg->line, "argument type mismatch in call to %s", f->name);
			}
			*tail = arg;
			tail = &arg->next;
			nargs++;
			if (ps->lx.tok.kind != TK_COMMA)
				break;
			lex_next(&ps->lx);
		}
	}
	expect(ps, TK_RPAREN);
	if (f->type->nparams >= 0 && nargs != f->type->nparams)
		error_at(ps, line, "wrong number of arguments to %s", f->name);
	n->value = nargs;
	return n;
}

static struct node *unary(struct parser *ps);

static struct node *primary(struct parser *ps)
{
	struct token t = ps->lx.tok;
	struct node *n;
	switch (t.kind) {
	case TK_NUM:
	case TK_CHARLIT:
		lex_next(&ps->lx);
		return num(t.value, t.line);
	case TK_STR: {
		struct program *pg = ps->prog;
		n = new_node(N_STR, t.line);
		n->str = t.name;
		n->len = t.len;
		n->value = pg->nstrings++;
		n->type = ptr_to(&ty_char);
		/* remember it for the data section (a separate node: n itself may be linked elsewhere) */
		{
			struct node *s = new_node(N_STR, t.line);
			*s = *n;
			s->next = pg->strings;
			pg->strings = s;
		}
		lex_next(&ps->lx);
		return n;
	}
	case TK_IDENT: {
		struct sym *s = lookup(ps, t.name);
		lex_next(&ps->lx);
		if (!s) {
			error_at(ps, t.line, "'%s' undeclared", t.name);
			s = arena_alloc(sizeof *s);
			s->name = t.name;
			s->type = &ty_int;
			s->kind = SYM_GLOBAL;
		}
		if (ps->lx.tok.kind == TK_LPAREN) {
			if (s->type->kind != TY_FUNC) {
				error_at(ps, t.line, "'%s' is not a function", t.name);
				s = arena_alloc(sizeof *s);
				s->name = t.name;
				s->type = arena_alloc(sizeof *s->type);
				s->type->kind = TY_FUNC;
				s->type->base = &ty_int;
				s->type->nparams = -1;
			}
			lex_next(&ps->lx);
			return call(ps, s, t.line);
		}
		if (s->type->kind == TY_FUNC)
			error_at(ps, t.line, "function '%s' used as a value", t.name);
		n = new_node(N_VAR, t.line);
		n->sym = s;
		n->type = s->type;
		{
			/* a use inside k nested loops counts 10^k (at most 4 levels), as the paper's
			 * weighting heuristic counts loop bodies ten times */
			long w = 1;
			int i;
			for (i = 0; i < ps->loop_depth && i < 4; i++)
				w *= 10;
			s->weight += w;
		}
		return n;
	}
	case TK_LPAREN:
		lex_next(&ps->lx);
		n = parse_expr(ps);
		expect(ps, TK_RPAREN);
		return n;
	default:
		error_at(ps, t.line, "expected an expression before '%s'", tok_name(t.kind));
		lex_next(&ps->lx);
		return num(0, t.line);
	}
}

static struct node *incdec(struct parser *ps, enum nodeop op, struct node *x, int line)
{
	struct node *n = new_node(op, line);
	if (!is_lvalue(x))
		error_at(ps, line, "operand of ++/-- is not an lvalue", 0);
	n->a = x;
	n->type = rvalue_type(x->type);
	/* the step: 1, or the element size for pointers */
	n->value = n->type->kind == TY_PTR ? type_size(n->type->base) : 1;
	return n;
}

static struct node *postfix(struct parser *ps)
{
	struct node *n = primary(ps);
	for (;;) {
		int line = ps->lx.tok.line;
		if (ps->lx.tok.kind == TK_LBRACKET) {
			struct node *i;
			lex_next(&ps->lx);
			i = parse_expr(ps);
			expect(ps, TK_RBRACKET);
			n = deref(ps, additive(ps, B_ADD, n, i, line), line);
		} else if (ps->lx.tok.kind == TK_INC || ps->lx.tok.kind == TK_DEC) {
			n = incdec(ps, ps->lx.tok.kind == TK_INC ? N_POSTINC : N_POSTDEC, n, line);
			lex_next(&ps->lx);
		} else {
			return n;
		}
	}
}

static int is_type_start(enum tok k)
{
	return k == TK_INT || k == TK_CHAR || k == TK_VOID;
}

static struct node *unary(struct parser *ps)
{
	struct token t = ps->lx.tok;
	struct node *x, *n;
	switch (t.kind) {
	case TK_MINUS:
	case TK_NOT:
	case TK_TILDE:
		lex_next(&ps->lx);
		x = unary(ps);
		check_value(ps, x);
		if (x->op == N_NUM) {
			folded_count++;
			return num(t.kind == TK_MINUS ? (long)(0 - (unsigned long)x->value) : t.kind == TK_NOT ? !x->value : ~x->value, t.line);
		}
		if (t.kind != TK_NOT && !is_integer(rvalue_type(x->type)))
			error_at(ps, t.line, "wrong type argument to unary %s", tok_name(t.kind));
		n = new_node(t.kind == TK_MINUS ? N_NEG : t.kind == TK_NOT ? N_NOT : N_BITNOT, t.line);
		n->a = x;
		return n;
	case TK_PLUS:
		lex_next(&ps->lx);
		return unary(ps);
	case TK_STAR:
		lex_next(&ps->lx);
		return deref(ps, unary(ps), t.line);
	case TK_AND:
		lex_next(&ps->lx);
		x = unary(ps);
		if (x->op == N_DEREF) {         /* &*p is p */
			x->a->type = ptr_to(x->type);
			return x->a;
		}
		if (x->op != N_VAR) {
			error_at(ps, t.line, "cannot take the address of this expression", 0);
			return x;
		}
		x->sym->addr_taken = 1;
		n = new_node(N_ADDR, t.line);
		n->a = x;
		n->type = ptr_to(x->type->kind == TY_ARRAY ? x->type->base : x->type);
		return n;
	case TK_INC:
	case TK_DEC:
		lex_next(&ps->lx);
		return incdec(ps, t.kind == TK_INC ? N_PREINC : N_PREDEC, unary(ps), t.line);
	case TK_SIZEOF:
		lex_next(&ps->lx);
		if (ps->lx.tok.kind == TK_LPAREN && is_type_start(lex_peek(&ps->lx)->kind)) {
			struct type *ty;
			lex_next(&ps->lx);
			ty = ps->lx.tok.kind == TK_INT ? &ty_int : ps->lx.tok.kind == TK_CHAR ? &ty_char : &ty_void;
			lex_next(&ps->lx);
			while (ps->lx.tok.kind == TK_STAR) {
				ty = ptr_to(ty);
				lex_next(&ps->lx);
			}
			expect(ps, TK_RPAREN);
			return num(type_size(ty), t.line);
		}
		x = unary(ps);
		return num(type_size(x->type), t.line);
	default:
		return postfix(ps);
	}
}

/* binary operator precedence (higher binds tighter); 0 = not a binary operator */
static int prec(enum tok k, enum binop *op)
{
	switch (k) {
	case TK_STAR: *op = B_MUL; return 10;
	case TK_SLASH: *op = B_DIV; return 10;
	case TK_PERCENT: *op = B_MOD; return 10;
	case TK_PLUS: *op = B_ADD; return 9;
	case TK_MINUS: *op = B_SUB; return 9;
	case TK_SHL: *op = B_SHL; return 8;
	case TK_SHR: *op = B_SHR; return 8;
	case TK_LT: *op = B_LT; return 7;
	case TK_GT: *op = B_GT; return 7;
	case TK_LE: *op = B_LE; return 7;
	case TK_GE: *op = B_GE; return 7;
	case TK_EQ: *op = B_EQ; return 6;
	case TK_NE: *op = B_NE; return 6;
	case TK_AND: *op = B_AND; return 5;
	case TK_XOR: *op = B_XOR; return 4;
	case TK_OR: *op = B_OR; return 3;
	case TK_ANDAND: return 2;
	case TK_OROR: return 1;
	default: return 0;
	}
}

static struct node *binary_expr(struct parser *ps, int minprec)
{
	struct node *l = unary(ps);
	for (;;) {
		enum binop op = B_ADD;
		enum tok k = ps->lx.tok.kind;
		int p = prec(k, &op), line = ps->lx.tok.line;
		struct node *r;
		if (p == 0 || p < minprec)
			return l;
		lex_next(&ps->lx);
		r = binary_expr(ps, p + 1);
		if (k == TK_ANDAND || k == TK_OROR) {
			check_value(ps, l);
			check_value(ps, r);
			if (l->op == N_NUM) {   /* constant left side decides */
				folded_count++;
				if ((k == TK_ANDAND) == (l->value != 0))
					l = binary(B_NE, r, num(0, line), &ty_int, line);
				else
					l = num(k == TK_OROR, line);
				continue;
			}
			{
				struct node *n = new_node(k == TK_ANDAND ? N_LOGAND : N_LOGOR, line);
				n->a = l;
				n->b = r;
				l = n;
			}
			continue;
		}
		l = arith(ps, op, l, r, line);
	}
}

static struct node *conditional(struct parser *ps)
{
	struct node *c = binary_expr(ps, 1), *a, *b, *n;
	int line = ps->lx.tok.line;
	if (ps->lx.tok.kind != TK_QUESTION)
		return c;
	lex_next(&ps->lx);
	a = parse_expr(ps);
	expect(ps, TK_COLON);
	b = conditional(ps);
	check_value(ps, c);
	if (c->op == N_NUM) {
		folded_count++;
		return c->value ? a : b;
	}
	n = new_node(N_COND, line);
	n->a = c;
	n->b = a;
	n->c = b;
	n->type = rvalue_type(a->type);
	return n;
}

struct node *parse_assign(struct parser *ps)
{
	struct node *l = conditional(ps), *r, *n;
	enum tok k = ps->lx.tok.kind;
	int line = ps->lx.tok.line;
	static const enum binop opof[] = { B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_AND, B_OR, B_XOR, B_SHL, B_SHR };
	if (k < TK_ASSIGN || k > TK_SHR_ASSIGN)
		return l;
	lex_next(&ps->lx);
	r = parse_assign(ps);
	check_value(ps, r);
	if (!is_lvalue(l))
		error_at(ps, line, "assignment to something that is not an lvalue", 0);
	if (k == TK_ASSIGN) {
		struct type *lt = rvalue_type(l->type), *rt = rvalue_type(r->type);
		if ((lt->kind == TY_PTR) != (rt->kind == TY_PTR) && !(r->op == N_NUM && r->value == 0))
			error_at(ps, line, "assignment between pointer and integer", 0);
		n = new_node(N_ASSIGN, line);
		n->a = l;
		n->b = r;
		n->type = l->type;
		return n;
	}
	/* a op= b: b is scaled here for pointer += and -= */
	n = new_node(N_OPASSIGN, line);
	n->bop = opof[k - TK_ADD_ASSIGN];
	if (rvalue_type(l->type)->kind == TY_PTR && (n->bop == B_ADD || n->bop == B_SUB)) {
		int size = type_size(rvalue_type(l->type)->base);
		if (size > 1)
			r = binary(B_MUL, r, num(size, line), &ty_int, line);
	} else if (!is_integer(rvalue_type(l->type))) {
		error_at(ps, line, "invalid compound assignment", 0);
	}
	n->a = l;
	n->b = r;
	n->type = l->type;
	return n;
}

struct node *parse_expr(struct parser *ps)
{
	struct node *n = parse_assign(ps);
	while (ps->lx.tok.kind == TK_COMMA) {
		struct node *c = new_node(N_COMMA, ps->lx.tok.line);
		lex_next(&ps->lx);
		c->a = n;
		c->b = parse_assign(ps);
		c->type = c->b->type;
		n = c;
	}
	return n;
}

long const_value(struct parser *ps, struct node *n, int *ok)
{
	(void)ps;
	*ok = n->op == N_NUM;
	return *ok ? n->value : 0;
}
