/*
 * The reader and the printer. Syntax: lists with dotted pairs, 'x for (quote x), integers,
 * "strings" with \" and \\ escapes, symbols (folded to lower case), ; comments to end of line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "li.h"

static void read_error(struct reader *r, const char *msg)
{
	fprintf(stderr, "li: %s:%d: %s\n", r->name, r->line, msg);
	exit(1);
}

static int peekc(struct reader *r)
{
	return r->pos < r->len ? (unsigned char)r->buf[r->pos] : -1;
}

static void skip_space(struct reader *r)
{
	for (;;) {
		int c = peekc(r);
		if (c == '\n')
			r->line++;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			r->pos++;
		} else if (c == ';') {
			while (peekc(r) != -1 && peekc(r) != '\n')
				r->pos++;
		} else {
			return;
		}
	}
}

static int delimiter(int c)
{
	return c == -1 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '(' ||
	       c == ')' || c == '\'' || c == ';' || c == '"';
}

static obj read_expr(struct reader *r);

static obj read_list(struct reader *r)
{
	obj head = nil, tail = nil, x;
	PROTECT(head);
	PROTECT(tail);
	for (;;) {
		skip_space(r);
		if (peekc(r) == -1)
			read_error(r, "end of input inside a list");
		if (peekc(r) == ')') {
			r->pos++;
			break;
		}
		if (peekc(r) == '.' && r->pos + 1 < r->len && delimiter((unsigned char)r->buf[r->pos + 1])) {
			r->pos++;
			if (head == nil)
				read_error(r, "dot at the start of a list");
			x = read_expr(r);
			cdr(tail) = x;
			skip_space(r);
			if (peekc(r) != ')')
				read_error(r, "more than one expression after a dot");
			r->pos++;
			break;
		}
		x = read_expr(r);
		x = cons(x, nil);
		if (head == nil)
			head = x;
		else
			cdr(tail) = x;
		tail = x;
	}
	UNPROTECT(2);
	return head;
}

static obj read_atom(struct reader *r)
{
	char buf[256];
	int n = 0, i, numeric;
	while (!delimiter(peekc(r))) {
		int c = peekc(r);
		if (n == (int)sizeof buf - 1)
			read_error(r, "symbol too long");
		buf[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		r->pos++;
	}
	buf[n] = '\0';
	i = buf[0] == '-' || buf[0] == '+';
	numeric = i < n;
	for (; i < n; i++)
		if (buf[i] < '0' || buf[i] > '9')
			numeric = 0;
	if (numeric)
		return mkfix(strtol(buf, 0, 10));
	return intern(buf);
}

static obj read_string(struct reader *r)
{
	long start = ++r->pos, n = 0;
	char *tmp;
	obj s;
	tmp = malloc((size_t)(r->len - start + 1));
	if (!tmp)
		read_error(r, "out of memory");
	for (;;) {
		int c = peekc(r);
		if (c == -1)
			read_error(r, "end of input inside a string");
		r->pos++;
		if (c == '"')
			break;
		if (c == '\\') {
			c = peekc(r);
			if (c == -1)
				read_error(r, "end of input inside a string");
			r->pos++;
			if (c == 'n')
				c = '\n';
		}
		if (c == '\n')
			r->line++;
		tmp[n++] = (char)c;
	}
	s = mkstring(tmp, n);
	free(tmp);
	return s;
}

static obj read_expr(struct reader *r)
{
	int c;
	obj x;
	skip_space(r);
	c = peekc(r);
	switch (c) {
	case -1:
		read_error(r, "unexpected end of input");
		return nil;
	case '(':
		r->pos++;
		return read_list(r);
	case ')':
		read_error(r, "unexpected )");
		return nil;
	case '\'':
		r->pos++;
		x = read_expr(r);
		PROTECT(x);
		x = cons(x, nil);
		x = cons(intern("quote"), x);
		UNPROTECT(1);
		return x;
	case '"':
		return read_string(r);
	default:
		return read_atom(r);
	}
}

int lisp_read(struct reader *r, obj *out)
{
	skip_space(r);
	if (peekc(r) == -1)
		return 0;
	*out = read_expr(r);
	return 1;
}

void lisp_print(obj x, int escape)
{
	switch (x->type) {
	case T_FIXNUM:
		printf("%ld", fixval(x));
		break;
	case T_SYMBOL:
		fputs(x->u.sym.name, stdout);
		break;
	case T_STRING:
		if (escape) {
			long i;
			putchar('"');
			for (i = 0; i < x->u.str.len; i++) {
				if (x->u.str.chars[i] == '"' || x->u.str.chars[i] == '\\')
					putchar('\\');
				putchar(x->u.str.chars[i]);
			}
			putchar('"');
		} else {
			fwrite(x->u.str.chars, 1, (size_t)x->u.str.len, stdout);
		}
		break;
	case T_CONS:
		putchar('(');
		for (;;) {
			lisp_print(car(x), escape);
			x = cdr(x);
			if (!consp(x))
				break;
			putchar(' ');
		}
		if (x != nil) {
			fputs(" . ", stdout);
			lisp_print(x, escape);
		}
		putchar(')');
		break;
	case T_SUBR:
		printf("#<subr %s>", x->u.subr.name);
		break;
	case T_FSUBR:
		printf("#<special form %s>", x->u.fsubr.name);
		break;
	case T_CLOSURE:
		fputs("#<closure>", stdout);
		break;
	default:
		fputs("#<free cell>", stdout);
		break;
	}
}
