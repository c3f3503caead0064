/*
 * Shell variables: a table of NAME=value strings with an export flag. The environment the shell
 * was started with is imported, exported; commands get the exported variables (plus their own
 * NAME=value prefixes) as their environment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

struct var {
	char *text;		/* "NAME=value", malloc'ed */
	size_t namelen;
	int exported;
};

static struct var *vars;
static int nvars, capvars;

int is_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return 0;
	for (i = 1; i < n; i++) {
		char c = s[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return 1;
}

/* A raw word of the form NAME=... with NAME unquoted. */
int is_assignment(const char *raw)
{
	const char *eq = strchr(raw, '=');
	return eq != NULL && is_name(raw, (size_t)(eq - raw));
}

static struct var *lookup(const char *name, size_t n)
{
	int i;

	for (i = 0; i < nvars; i++)
		if (vars[i].namelen == n && memcmp(vars[i].text, name, n) == 0)
			return &vars[i];
	return NULL;
}

const char *var_get(const char *name)
{
	struct var *v = lookup(name, strlen(name));
	return v ? v->text + v->namelen + 1 : NULL;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (p == NULL) {
		sh_error("out of memory");
		_exit(2);
	}
	return p;
}

/* Sets name (n characters) to value; export 1 marks it exported, 0 leaves the flag as it is. */
static void setn(const char *name, size_t n, const char *value, int export)
{
	struct var *v = lookup(name, n);
	size_t vl = strlen(value);
	char *text = xmalloc(n + vl + 2);

	memcpy(text, name, n);
	text[n] = '=';
	memcpy(text + n + 1, value, vl + 1);
	if (v == NULL) {
		if (nvars == capvars) {
			struct var *nv;
			capvars = capvars ? capvars * 2 : 32;
			nv = xmalloc(sizeof *nv * (size_t)capvars);
			if (nvars)
				memcpy(nv, vars, sizeof *nv * (size_t)nvars);
			free(vars);
			vars = nv;
		}
		v = &vars[nvars++];
		v->exported = 0;
		v->namelen = n;
	} else
		free(v->text);
	v->text = text;
	if (export)
		v->exported = 1;
}

void var_set(const char *name, const char *value, int export)
{
	setn(name, strlen(name), value, export);
}

void var_export(const char *name)
{
	struct var *v = lookup(name, strlen(name));
	if (v)
		v->exported = 1;
	else
		var_set(name, "", 1);
}

void var_unset(const char *name)
{
	struct var *v = lookup(name, strlen(name));
	if (v) {
		free(v->text);
		*v = vars[--nvars];
	}
}

void var_import(char **envp)
{
	for (; envp && *envp; envp++) {
		const char *eq = strchr(*envp, '=');
		if (eq && is_name(*envp, (size_t)(eq - *envp)))
			setn(*envp, (size_t)(eq - *envp), eq + 1, 1);
	}
}

/* Prints "export NAME='value'" for each exported variable, in the order they were defined. */
void var_print_exports(void)
{
	int i;

	for (i = 0; i < nvars; i++) {
		struct var *v = &vars[i];
		const char *p;
		struct sbuf b;

		if (!v->exported)
			continue;
		sb_init(&b);
		sb_puts(&b, "export ");
		for (p = v->text; p < v->text + v->namelen; p++)
			sb_putc(&b, *p);
		sb_puts(&b, "='");
		for (p = v->text + v->namelen + 1; *p; p++) {
			if (*p == '\'')
				sb_puts(&b, "'\\''");
			else
				sb_putc(&b, *p);
		}
		sb_puts(&b, "'\n");
		xwrite(1, b.s, b.len);
	}
}

/*
 * The environment of a command: the exported variables, overridden or extended by the command's
 * assignments (already expanded "NAME=value" strings). Allocated in the arena.
 */
char **var_environ(char **assigns, int nassign)
{
	struct strvec env;
	int i, j;

	sv_init(&env);
	for (i = 0; i < nvars; i++) {
		if (!vars[i].exported)
			continue;
		for (j = 0; j < nassign; j++)
			if (strncmp(assigns[j], vars[i].text, vars[i].namelen + 1) == 0)
				break;
		if (j == nassign)
			sv_push(&env, vars[i].text);
	}
	for (j = 0; j < nassign; j++) {
		size_t n = (size_t)(strchr(assigns[j], '=') - assigns[j]) + 1;
		for (i = j + 1; i < nassign; i++)
			if (strncmp(assigns[i], assigns[j], n) == 0)
				break;
		if (i == nassign)
			sv_push(&env, assigns[j]);
	}
	return env.v;
}
