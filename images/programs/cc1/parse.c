/*
 * Declarations, statements and scopes. Every name is resolved while parsing (C's declare-before-
 * use rule), so the tree that comes out is fully typed and checked.
 */
#include <stdio.h>
#include <string.h>
#include "cc1.h"

struct type ty_void = { TY_VOID, 0, 0, 0, 0 };
struct type ty_char = { TY_CHAR, 0, 0, 0, 0 };
struct type ty_int = { TY_INT, 0, 0, 0, 0 };

struct type *ptr_to(struct type *base)
{
	struct type *t = arena_alloc(sizeof *t);
	t->kind = TY_PTR;
	t->base = base;
	return t;
}

struct type *array_of(struct type *base, int len)
{
	struct type *t = arena_alloc(sizeof *t);
	t->kind = TY_ARRAY;
	t->base = base;
	t->len = len;
	return t;
}

int type_size(const struct type *t)
{
	switch (t->kind) {
	case TY_CHAR: return 1;
	case TY_INT: case TY_PTR: return 4;
	case TY_ARRAY: return t->len * type_size(t->base);
	default: return 1;
	}
}

int is_integer(const struct type *t)
{
	return t->kind == TY_INT || t->kind == TY_CHAR;
}

int is_pointer(const struct type *t)
{
	return t->kind == TY_PTR || t->kind == TY_ARRAY;
}

void error_at(struct parser *ps, int line, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s:%d: error: ", ps->lx.file, line);
	fprintf(stderr, fmt, arg ? arg : "");
	fputc('\n', stderr);
	ps->errors++;
}

int expect(struct parser *ps, enum tok k)
{
	if (ps->lx.tok.kind != k) {
		error_at(ps, ps->lx.tok.line, "expected '%s'", tok_name(k));
		return 0;
	}
	lex_next(&ps->lx);
	return 1;
}

struct sym *lookup(struct parser *ps, const char *name)
{
	struct sym *s;
	for (s = ps->scope; s; s = s->next)
		if (s->name == name)
			return s;
	return 0;
}

/* Declares name in the current scope; a second declaration in the same scope is an error
 * (except a function prototype followed by its definition). */
static struct sym *declare(struct parser *ps, const char *name, struct type *type, enum symkind kind, int line)
{
	struct sym *s, *stop = ps->depth ? ps->scope_marks[ps->depth - 1] : 0;
	for (s = ps->scope; s && s != stop; s = s->next)
		if (s->name == name) {
			if (kind == SYM_FUNC && s->kind == SYM_FUNC)
				return s;
			error_at(ps, line, "redeclaration of '%s'", name);
			break;
		}
	s = arena_alloc(sizeof *s);
	s->name = name;
	s->type = type;
	s->kind = kind;
	s->line = line;
	s->reg = -1;
	s->next = ps->scope;
	ps->scope = s;
	return s;
}

static void open_scope(struct parser *ps)
{
	if (ps->depth == (int)(sizeof ps->scope_marks / sizeof ps->scope_marks[0])) {
		error_at(ps, ps->lx.tok.line, "blocks nested too deeply", 0);
		return;
	}
	ps->scope_marks[ps->depth++] = ps->scope;
}

static void close_scope(struct parser *ps)
{
	ps->scope = ps->scope_marks[--ps->depth];
}

static struct type *base_type(struct parser *ps)
{
	enum tok k = ps->lx.tok.kind;
	lex_next(&ps->lx);
	return k == TK_INT ? &ty_int : k == TK_CHAR ? &ty_char : &ty_void;
}

static int is_type(enum tok k)
{
	return k == TK_INT || k == TK_CHAR || k == TK_VOID;
}

static struct type *pointers(struct parser *ps, struct type *t)
{
	while (ps->lx.tok.kind == TK_STAR) {
		t = ptr_to(t);
		lex_next(&ps->lx);
	}
	return t;
}

static int array_len(struct parser *ps)
{
	struct node *n;
	int ok;
	long v;
	lex_next(&ps->lx);              /* [ */
	if (ps->lx.tok.kind == TK_RBRACKET) {
		lex_next(&ps->lx);
		return -1;              /* size from the initialiser */
	}
	n = parse_expr(ps);
	v = const_value(ps, n, &ok);
	if (!ok || v <= 0)
		error_at(ps, n->line, "array size must be a positive constant", 0);
	expect(ps, TK_RBRACKET);
	return ok && v > 0 ? (int)v : 1;
}

/* ---- statements ---- */

static struct node *statement(struct parser *ps);

static void local_decl(struct parser *ps, struct node ***tail)
{
	struct type *base = base_type(ps);
	for (;;) {
		struct type *t = pointers(ps, base);
		struct token id = ps->lx.tok;
		struct sym *s;
		if (!expect(ps, TK_IDENT))
			return;
		if (ps->lx.tok.kind == TK_LBRACKET) {
			int len = array_len(ps);
			t = array_of(t, len < 0 ? 1 : len);
			if (len < 0)
				error_at(ps, id.line, "local array '%s' needs a size", id.name);
		}
		if (t->kind == TY_VOID)
			error_at(ps, id.line, "variable '%s' declared void", id.name);
		s = declare(ps, id.name, t, SYM_LOCAL, id.line);
		s->index = ps->fn->nlocals++;
		{
			struct sym **l = &ps->fn->locals;
			while (*l)
				l = &(*l)->list_next;
			*l = s;
		}
		if (ps->lx.tok.kind == TK_ASSIGN) {
			struct node *init, *v, *st;
			int line = ps->lx.tok.line;
			lex_next(&ps->lx);
			init = parse_assign(ps);
			if (t->kind == TY_ARRAY) {
				error_at(ps, line, "local arrays cannot be initialised", 0);
			} else {
				v = new_node(N_VAR, line);
				v->sym = s;
				v->type = t;
				s->weight++;
				st = new_node(S_EXPR, line);
				st->a = new_node(N_ASSIGN, line);
				st->a->a = v;
				st->a->b = init;
				st->a->type = t;
				**tail = st;
				*tail = &st->next;
			}
		}
		if (ps->lx.tok.kind != TK_COMMA)
			break;
		lex_next(&ps->lx);
	}
	expect(ps, TK_SEMI);
}

static struct node *block(struct parser *ps)
{
	struct node *b = new_node(S_BLOCK, ps->lx.tok.line), **tail = &b->a;
	expect(ps, TK_LBRACE);
	open_scope(ps);
	while (ps->lx.tok.kind != TK_RBRACE && ps->lx.tok.kind != TK_EOF) {
		if (is_type(ps->lx.tok.kind)) {
			local_decl(ps, &tail);
		} else {
			struct node *s = statement(ps);
			*tail = s;
			tail = &s->next;
		}
	}
	close_scope(ps);
	expect(ps, TK_RBRACE);
	return b;
}

static struct node *condition(struct parser *ps)
{
	struct node *c;
	expect(ps, TK_LPAREN);
	c = parse_expr(ps);
	if (c->type->kind == TY_VOID)
		error_at(ps, c->line, "void value used as a condition", 0);
	expect(ps, TK_RPAREN);
	return c;
}

static struct node *loop_body(struct parser *ps)
{
	struct node *b;
	ps->loop_depth++;
	b = statement(ps);
	ps->loop_depth--;
	return b;
}

static struct node *statement(struct parser *ps)
{
	struct token t = ps->lx.tok;
	struct node *n;
	switch (t.kind) {
	case TK_LBRACE:
		return block(ps);
	case TK_SEMI:
		lex_next(&ps->lx);
		return new_node(S_EMPTY, t.line);
	case TK_IF:
		lex_next(&ps->lx);
		n = new_node(S_IF, t.line);
		n->a = condition(ps);
		n->b = statement(ps);
		if (ps->lx.tok.kind == TK_ELSE) {
			lex_next(&ps->lx);
			n->c = statement(ps);
		}
		return n;
	case TK_WHILE:
		lex_next(&ps->lx);
		n = new_node(S_WHILE, t.line);
		ps->loop_depth++;
		n->a = condition(ps);
		ps->loop_depth--;
		n->b = loop_body(ps);
		return n;
	case TK_DO:
		lex_next(&ps->lx);
		n = new_node(S_DO, t.line);
		n->b = loop_body(ps);
		expect(ps, TK_WHILE);
		ps->loop_depth++;
		n->a = condition(ps);
		ps->loop_depth--;
		expect(ps, TK_SEMI);
		return n;
	case TK_FOR:
		lex_next(&ps->lx);
		n = new_node(S_FOR, t.line);
		expect(ps, TK_LPAREN);
		if (ps->lx.tok.kind != TK_SEMI)
			n->a = parse_expr(ps);
		expect(ps, TK_SEMI);
		ps->loop_depth++;
		if (ps->lx.tok.kind != TK_SEMI)
			n->b = parse_expr(ps);
		expect(ps, TK_SEMI);
		if (ps->lx.tok.kind != TK_RPAREN)
			n->c = parse_expr(ps);
		ps->loop_depth--;
		expect(ps, TK_RPAREN);
		n->d = loop_body(ps);
		return n;
	case TK_RETURN:
		lex_next(&ps->lx);
		n = new_node(S_RETURN, t.line);
		if (ps->lx.tok.kind != TK_SEMI)
			n->a = parse_expr(ps);
		if (n->a && ps->fn->sym->type->base->kind == TY_VOID)
			error_at(ps, t.line, "return with a value in void function %s", ps->fn->sym->name);
		if (!n->a && ps->fn->sym->type->base->kind != TY_VOID)
			error_at(ps, t.line, "return without a value in function %s", ps->fn->sym->name);
		expect(ps, TK_SEMI);
		return n;
	case TK_BREAK:
	case TK_CONTINUE:
		lex_next(&ps->lx);
		if (ps->loop_depth == 0)
			error_at(ps, t.line, "%s outside a loop", tok_name(t.kind));
		expect(ps, TK_SEMI);
		return new_node(t.kind == TK_BREAK ? S_BREAK : S_CONTINUE, t.line);
	default:
		n = new_node(S_EXPR, t.line);
		n->a = parse_expr(ps);
		expect(ps, TK_SEMI);
		return n;
	}
}

/* ---- top level ---- */

static void function(struct parser *ps, struct type *ret, struct token id)
{
	struct type *ft = arena_alloc(sizeof *ft);
	struct sym *params = 0, **ptail = &params, *f, *p;
	int n = 0, i;
	struct type *ptypes[32];
	lex_next(&ps->lx);              /* ( */
	ft->kind = TY_FUNC;
	ft->base = ret;
	if (ps->lx.tok.kind == TK_VOID && lex_peek(&ps->lx)->kind == TK_RPAREN)
		lex_next(&ps->lx);
	while (ps->lx.tok.kind != TK_RPAREN && ps->lx.tok.kind != TK_EOF) {
		struct type *t;
		struct token pid;
		if (!is_type(ps->lx.tok.kind)) {
			error_at(ps, ps->lx.tok.line, "expected a parameter type", 0);
			break;
		}
		t = pointers(ps, base_type(ps));
		pid = ps->lx.tok;
		if (!expect(ps, TK_IDENT))
			break;
		if (ps->lx.tok.kind == TK_LBRACKET) {   /* int a[] is int *a */
			lex_next(&ps->lx);
			expect(ps, TK_RBRACKET);
			t = ptr_to(t);
		}
		if (n == 32) {
			error_at(ps, pid.line, "too many parameters", 0);
			break;
		}
		ptypes[n++] = t;
		p = arena_alloc(sizeof *p);
		p->name = pid.name;
		p->type = t;
		p->kind = SYM_PARAM;
		p->line = pid.line;
		p->reg = -1;
		*ptail = p;
		ptail = &p->list_next;
		if (ps->lx.tok.kind != TK_COMMA)
			break;
		lex_next(&ps->lx);
	}
	expect(ps, TK_RPAREN);
	ft->nparams = n;
	ft->params = arena_alloc(sizeof *ft->params * (size_t)(n ? n : 1));
	for (i = 0; i < n; i++)
		ft->params[i] = ptypes[i];
	f = declare(ps, id.name, ft, SYM_FUNC, id.line);
	if (f->type != ft) {                    /* a prototype came first: the types must agree */
		if (f->type->nparams != n || f->type->base->kind != ret->kind)
			error_at(ps, id.line, "conflicting types for '%s'", id.name);
	}
	if (ps->lx.tok.kind == TK_SEMI) {
		lex_next(&ps->lx);
		return;
	}
	if (f->defined)
		error_at(ps, id.line, "redefinition of '%s'", id.name);
	f->defined = 1;
	{
		struct function *fn = arena_alloc(sizeof *fn), **l;
		fn->sym = f;
		fn->params = params;
		ps->fn = fn;
		open_scope(ps);
		{
			/* the parameters, declared in the function's outermost scope */
			struct sym **t = &fn->params;
			for (p = params; p; p = p->list_next) {
				struct sym *ps_sym = declare(ps, p->name, p->type, SYM_PARAM, p->line);
				*t = ps_sym;
				t = &ps_sym->list_next;
			}
		}
		fn->body = block(ps);
		close_scope(ps);
		ps->fn = 0;
		for (l = &ps->prog->funcs; *l; l = &(*l)->next)
			;
		*l = fn;
	}
}

static void global_init(struct parser *ps, struct sym *s)
{
	struct node *head = 0, **tail = &head;
	int count = 0;
	lex_next(&ps->lx);              /* = */
	if (ps->lx.tok.kind == TK_LBRACE) {
		lex_next(&ps->lx);
		while (ps->lx.tok.kind != TK_RBRACE && ps->lx.tok.kind != TK_EOF) {
			struct node *v = parse_assign(ps);
			if (v->op != N_NUM)
				error_at(ps, v->line, "initialiser of '%s' is not constant", s->name);
			*tail = v;
			tail = &v->next;
			count++;
			if (ps->lx.tok.kind != TK_COMMA)
				break;
			lex_next(&ps->lx);
		}
		expect(ps, TK_RBRACE);
		if (s->type->kind != TY_ARRAY)
			error_at(ps, ps->lx.tok.line, "braces around the initialiser of scalar '%s'", s->name);
		else if (s->type->len < 0)
			s->type->len = count;
		else if (count > s->type->len)
			error_at(ps, ps->lx.tok.line, "too many initialisers for '%s'", s->name);
	} else {
		head = parse_assign(ps);
		if (head->op == N_STR && s->type->kind == TY_ARRAY && s->type->base->kind == TY_CHAR) {
			if (s->type->len < 0)
				s->type->len = head->len + 1;
		} else if (head->op != N_NUM && !(head->op == N_STR && s->type->kind == TY_PTR)) {
			error_at(ps, head->line, "initialiser of '%s' is not constant", s->name);
		}
	}
	s->init = head;
}

void parse_program(struct parser *ps, struct program *prog)
{
	struct sym **gtail = &prog->globals;
	ps->prog = prog;
	while (ps->lx.tok.kind != TK_EOF) {
		struct type *base;
		if (!is_type(ps->lx.tok.kind)) {
			error_at(ps, ps->lx.tok.line, "expected a declaration", 0);
			while (ps->lx.tok.kind != TK_SEMI && ps->lx.tok.kind != TK_RBRACE && ps->lx.tok.kind != TK_EOF)
				lex_next(&ps->lx);
			lex_next(&ps->lx);
			continue;
		}
		base = base_type(ps);
		for (;;) {
			struct type *t = pointers(ps, base);
			struct token id = ps->lx.tok;
			struct sym *s;
			if (!expect(ps, TK_IDENT))
				break;
			if (ps->lx.tok.kind == TK_LPAREN) {
				function(ps, t, id);
				goto next_decl;
			}
			if (ps->lx.tok.kind == TK_LBRACKET) {
				int len = array_len(ps);
				t = array_of(t, len);
			}
			if (t->kind == TY_VOID)
				error_at(ps, id.line, "variable '%s' declared void", id.name);
			s = declare(ps, id.name, t, SYM_GLOBAL, id.line);
			*gtail = s;
			gtail = &s->list_next;
			if (ps->lx.tok.kind == TK_ASSIGN)
				global_init(ps, s);
			if (t->kind == TY_ARRAY && t->len < 0) {
				error_at(ps, id.line, "array '%s' has no size", id.name);
				t->len = 1;
			}
			if (ps->lx.tok.kind != TK_COMMA)
				break;
			lex_next(&ps->lx);
		}
		expect(ps, TK_SEMI);
next_decl:;
	}
	prog->errors = ps->errors;
}
