/*
 * Word expansion, done when a command runs: parameter expansion, then field splitting of the
 * unquoted results at blanks, tabs and newlines, then quote removal. There is no tilde,
 * command-substitution, arithmetic or pathname expansion.
 */
#include <stdio.h>
#include <string.h>
#include "sh.h"

struct expander {
	struct sbuf field;
	int have;		/* the current field exists (even if empty, e.g. from "") */
	int split;		/* split unquoted expansions into fields (command words only) */
	struct strvec *out;
};

static void emit(struct expander *e)
{
	sv_push(e->out, sb_finish(&e->field));
	sb_init(&e->field);
	e->have = 0;
}

static int isifs(int c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Appends an expansion's value: literally if quoted or not splitting, else split into fields. */
static void append_value(struct expander *e, const char *v, int quoted)
{
	if (quoted || !e->split) {
		sb_puts(&e->field, v);
		return;
	}
	for (; *v; v++) {
		if (isifs((unsigned char)*v)) {
			if (e->have)
				emit(e);
		} else {
			sb_putc(&e->field, *v);
			e->have = 1;
		}
	}
}

static char *fmt_long(long v)
{
	char buf[24];
	snprintf(buf, sizeof buf, "%ld", v);
	return ststrdup(buf);
}

/* $* and unquoted $@: the positional parameters joined by blanks. */
static char *join_args(void)
{
	struct sbuf b;
	int i;

	sb_init(&b);
	for (i = 0; i < nposargs; i++) {
		if (i > 0)
			sb_putc(&b, ' ');
		sb_puts(&b, posargs[i]);
	}
	return sb_finish(&b);
}

/* Value of a special or named parameter, or NULL if unset. */
static const char *param(const char *name)
{
	if (name[1] == '\0') {
		switch (name[0]) {
		case '?': return fmt_long(laststatus);
		case '$': return fmt_long(shellpid);
		case '!': return lastbgpid ? fmt_long(lastbgpid) : NULL;
		case '#': return fmt_long(nposargs);
		case '*': case '@': return join_args();
		case '0': return arg0;
		}
		if (name[0] >= '1' && name[0] <= '9') {
			int i = name[0] - '1';
			return i < nposargs ? posargs[i] : NULL;
		}
	}
	return var_get(name);
}

/*
 * Expands the parameter whose text starts at p (just after the $). Returns a pointer past it.
 * Handles NAME, a one-character special or positional, and ${NAME}, ${NAME-word}, ${NAME:-word},
 * ${#NAME}. A $ followed by nothing of that kind is a literal $.
 */
static const char *expand_param(struct expander *e, const char *p, int quoted)
{
	char name[128];
	size_t n = 0;

	if (*p == '{') {
		const char *q = p + 1, *end;
		int length = 0, colon = 0;
		const char *dflt = NULL;
		const char *v;

		if (*q == '#' && q[1] != '}') {
			length = 1;
			q++;
		}
		if (*q != '\0' && strchr("?$!#*@0123456789", *q))
			n = 1;
		else
			while (n + 1 < sizeof name && is_name(q, n + 1))
				n++;
		memcpy(name, q, n);
		name[n] = '\0';
		q += n;
		if (*q == ':' && q[1] == '-') {
			colon = 1;
			q++;
		}
		if (*q == '-' && !length) {
			q++;
			dflt = q;
		}
		/* the closing brace: the first one outside quotes */
		for (end = q; *end && *end != '}'; end++) {
			if (*end == '\'') {
				while (end[1] && end[1] != '\'')
					end++;
				if (end[1])
					end++;
			} else if (*end == '\\' && end[1])
				end++;
		}
		if (n == 0 || *end != '}' || (dflt == NULL && end != q)) {
			sh_error("bad substitution");
			append_value(e, "", quoted);
			return *end ? end + 1 : end;
		}
		v = param(name);
		if (length) {
			append_value(e, fmt_long(v ? (long)strlen(v) : 0), quoted);
		} else if (dflt && (v == NULL || (colon && *v == '\0'))) {
			char *w = stalloc((size_t)(end - dflt) + 1);
			memcpy(w, dflt, (size_t)(end - dflt));
			w[end - dflt] = '\0';
			append_value(e, expand_string(w), quoted);
		} else if (v)
			append_value(e, v, quoted);
		return end + 1;
	}
	if (*p != '\0' && strchr("?$!#*@0123456789", *p)) {
		name[0] = *p;
		name[1] = '\0';
		if (*p == '@' && quoted) {
			/* "$@": one field per positional parameter */
			int i;
			for (i = 0; i < nposargs; i++) {
				if (i > 0)
					emit(e);
				sb_puts(&e->field, posargs[i]);
				e->have = 1;
			}
			return p + 1;
		}
		{
			const char *v = param(name);
			if (v)
				append_value(e, v, quoted);
		}
		return p + 1;
	}
	while (n + 1 < sizeof name && is_name(p, n + 1))
		n++;
	if (n == 0) {
		sb_putc(&e->field, '$');
		e->have = 1;
		return p;
	}
	memcpy(name, p, n);
	name[n] = '\0';
	{
		const char *v = param(name);
		if (v)
			append_value(e, v, quoted);
	}
	return p + n;
}

static void expand(const char *raw, int split, struct strvec *out)
{
	struct expander e;
	const char *p = raw;

	sb_init(&e.field);
	e.have = 0;
	e.split = split;
	e.out = out;
	while (*p) {
		char c = *p++;
		if (c == '\'') {
			e.have = 1;
			while (*p && *p != '\'')
				sb_putc(&e.field, *p++);
			if (*p)
				p++;
		} else if (c == '"') {
			e.have = 1;
			while (*p && *p != '"') {
				c = *p++;
				if (c == '\\' && *p && strchr("$`\"\\\n", *p))
					sb_putc(&e.field, *p++);
				else if (c == '$')
					p = expand_param(&e, p, 1);
				else
					sb_putc(&e.field, c);
			}
			if (*p)
				p++;
		} else if (c == '\\') {
			e.have = 1;
			if (*p)
				sb_putc(&e.field, *p++);
		} else if (c == '$') {
			p = expand_param(&e, p, 0);
		} else {
			sb_putc(&e.field, c);
			e.have = 1;
		}
	}
	if (e.have || e.field.len > 0)
		emit(&e);
}

/* Expands a command word into zero or more fields, appended to out. */
void expand_fields(const char *raw, struct strvec *out)
{
	if (strcmp(raw, "\"$@\"") == 0 && nposargs == 0)
		return;
	expand(raw, 1, out);
}

/* Expands a word into exactly one string (assignment values, redirection targets). */
char *expand_string(const char *raw)
{
	struct strvec v;

	sv_init(&v);
	expand(raw, 0, &v);
	return v.n > 0 ? v.v[0] : ststrdup("");
}
