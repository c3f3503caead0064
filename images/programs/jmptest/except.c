/*
 * Exceptions built on setjmp/longjmp: a stack of handlers, nested TRY blocks, rethrow, and a
 * recursive-descent expression evaluator that throws from arbitrary depth.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include "jmptest.h"

enum { E_NONE, E_SYNTAX, E_DIVZERO, E_DEPTH };
static const char *const errname[] = { "none", "syntax error", "division by zero", "too deep" };

struct handler {
	jmp_buf env;
	struct handler *prev;
};

static struct handler *top;
static int thrown;

static void throw(int code)
{
	struct handler *h = top;

	thrown = code;
	top = h->prev;
	longjmp(h->env, 1);
}

/* TRY: push a handler; the block runs with it; CATCH: reached with the handler popped. */
#define TRY(h) (h).prev = top, top = &(h); if (setjmp((h).env) == 0)
#define ENDTRY(h) top = (h).prev

static const char *src;
static int depth;

static void skip(void)
{
	while (*src == ' ')
		src++;
}

static long expr(void);

static long primary(void)
{
	long v;

	skip();
	if (*src == '(') {
		if (++depth > 200)
			throw(E_DEPTH);
		src++;
		v = expr();
		skip();
		if (*src != ')')
			throw(E_SYNTAX);
		src++;
		depth--;
		return v;
	}
	if (*src == '-') {
		src++;
		return -primary();
	}
	if (*src < '0' || *src > '9')
		throw(E_SYNTAX);
	v = 0;
	while (*src >= '0' && *src <= '9')
		v = v * 10 + (*src++ - '0');
	return v;
}

static long term(void)
{
	long v = primary();

	for (;;) {
		char op;
		long r;
		skip();
		op = *src;
		if (op != '*' && op != '/' && op != '%')
			return v;
		src++;
		r = primary();
		if (op == '*')
			v *= r;
		else if (r == 0)
			throw(E_DIVZERO);
		else if (op == '/')
			v /= r;
		else
			v %= r;
	}
}

static long expr(void)
{
	long v = term();

	for (;;) {
		char op;
		skip();
		op = *src;
		if (op != '+' && op != '-')
			return v;
		src++;
		v = op == '+' ? v + term() : v - term();
	}
}

/*
 * Evaluates a comma-separated list. Division by zero is caught per element (inner handler);
 * any other error is rethrown from the inner handler to the caller's.
 */
static void eval_list(const char *s, char *out, size_t max)
{
	volatile size_t len = 0;

	src = s;
	out[0] = '\0';
	for (;;) {
		struct handler h;
		volatile long v = 0;

		depth = 0;
		TRY(h) {
			v = expr();
			ENDTRY(h);
			len += (size_t)snprintf(out + len, max - len, "%s%ld", len ? ", " : "", v);
		} else {
			if (thrown != E_DIVZERO)
				throw(thrown);
			len += (size_t)snprintf(out + len, max - len, "%s#DIV0", len ? ", " : "");
			while (*src && *src != ',')
				src++;
		}
		skip();
		if (*src == '\0')
			return;
		if (*src != ',')
			throw(E_SYNTAX);
		src++;
	}
}

void test_exceptions(int scale)
{
	static const char *const cases[] = {
		"1+2*3", "(1+2)*3", "100/7%3", "-(4-10)*-2", "2*(3+(4*(5+6)))",
		"1/0", "7+", "((((((((((1))))))))))", "1+2, 3/0, 4*5", "12 34", "(1", "", "9/(3-3), 5",
	};
	char nested[1024], out[256];
	volatile int k, errors = 0;
	volatile size_t i;

	for (i = 0; i < 300; i++)
		nested[i] = '(';
	nested[300] = '1';
	for (i = 0; i < 300; i++)
		nested[301 + i] = ')';
	nested[601] = '\0';

	for (k = 0; k < scale * 200; k++) {
		for (i = 0; i <= sizeof cases / sizeof cases[0]; i++) {
			const char *volatile c = i < sizeof cases / sizeof cases[0] ? cases[i] : nested;
			struct handler h;

			TRY(h) {
				eval_list(c, out, sizeof out);
				ENDTRY(h);
			} else {
				snprintf(out, sizeof out, "error: %s", errname[thrown]);
				errors++;
			}
			if (k == 0)
				printf("eval \"%s\" = %s\n", strlen(c) > 40 ? "(((...)))" : c, out);
		}
	}
	check("handler stack empty after all throws", top == NULL, "handlers left");
	check("every evaluation ended in a result or a caught error", errors == scale * 200 * 5, "wrong error count");
}
