/*
 * li: a small Lisp interpreter (see li.h).
 *
 *   li [-g] file.lsp [n]       evaluates every expression of file.lsp ("-" reads stdin) with the
 *                              global *n* bound to the integer n (default 7); -g reports the
 *                              garbage collections on stderr at exit
 *
 * Fixnums are C longs; programs whose numbers stay within 32 bits print the same on every target.
 * An error prints a message naming the culprit to stderr and exits with status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "li.h"

void fatal(const char *msg, obj culprit)
{
	fflush(stdout);
	fprintf(stderr, "li: error: %s", msg);
	if (culprit) {
		fputs(": ", stderr);
		if (culprit->type == T_SYMBOL)
			fputs(culprit->u.sym.name, stderr);
		else if (culprit->type == T_FIXNUM)
			fprintf(stderr, "%ld", fixval(culprit));
		else
			fputs(culprit->type == T_CONS ? "(a list)" : "(an object)", stderr);
	}
	fputc('\n', stderr);
	exit(1);
}

static char *read_file(const char *name, long *len)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	size_t cap = 65536, n = 0, k;
	char *buf;
	if (!f) {
		perror(name);
		exit(1);
	}
	buf = malloc(cap);
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf) {
		fprintf(stderr, "li: out of memory\n");
		exit(1);
	}
	if (ferror(f)) {
		perror(name);
		exit(1);
	}
	if (f != stdin)
		fclose(f);
	*len = (long)n;
	return buf;
}

int main(int argc, char **argv)
{
	struct reader r;
	obj x = 0;
	long n = 7;
	int a = 1, report_gc = 0;
	char *end;
	if (a < argc && !strcmp(argv[a], "-g")) {
		report_gc = 1;
		a++;
	}
	if (a >= argc || argc - a > 2) {
		fprintf(stderr, "usage: li [-g] file.lsp [n]\n");
		return 2;
	}
	if (argc - a == 2) {
		n = strtol(argv[a + 1], &end, 10);
		if (*end || argv[a + 1][0] == '\0') {
			fprintf(stderr, "li: bad number '%s'\n", argv[a + 1]);
			return 2;
		}
	}
	heap_init();
	eval_init();
	builtins_init();
	intern("*n*")->u.sym.value = mkfix(n);
	r.name = strcmp(argv[a], "-") ? argv[a] : "(stdin)";
	r.buf = read_file(argv[a], &r.len);
	r.pos = 0;
	r.line = 1;
	PROTECT(x);
	while (lisp_read(&r, &x))
		eval(x, nil);
	UNPROTECT(1);
	free((char *)r.buf);
	if (fflush(stdout) != 0) {
		perror("li: stdout");
		return 1;
	}
	if (report_gc)
		fprintf(stderr, "li: %ld garbage collections, %ld cells in the heap\n", gc_count, cells_total);
	return 0;
}
