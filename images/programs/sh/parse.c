/*
 * The parser: one complete command line at a time (a list ended by a newline or end of input),
 * so that each line runs before the next is read, as in every Bourne shell. A line ending in
 * |, && or || continues on the next one.
 *
 *   line     : list? (NEWLINE | EOF)
 *   list     : andor ((';' | '&') andor)* (';' | '&')?
 *   andor    : pipeline (('&&' | '||') NEWLINE* pipeline)*
 *   pipeline : '!'? command ('|' NEWLINE* command)*
 *   command  : (WORD | redirection)+          leading NAME=value words are assignments
 *   redirection : IONUMBER? ('<' | '>' | '>>' | '<&' | '>&') WORD
 */
#include <stdio.h>
#include <string.h>
#include "sh.h"

static struct token tok;
static int havetok;
static int failed;

static struct token *peek(void)
{
	if (!havetok) {
		lex_next(&tok);
		havetok = 1;
		if (tok.type == T_EOF && tok.word != NULL)
			failed = 1;	/* the lexer reported an unterminated quote */
	}
	return &tok;
}

static void consume(void)
{
	havetok = 0;
}

static void unexpected(void)
{
	if (!failed)
		sh_error("syntax error: unexpected %s", tokname(peek()));
	failed = 1;
}

static void skip_newlines(void)
{
	while (peek()->type == T_NL)
		consume();
}

static int isredirop(int type)
{
	return type == T_LESS || type == T_GREAT || type == T_DGREAT || type == T_LESSAND ||
	    type == T_GREATAND;
}

static struct redir *parse_redir(int fd)
{
	struct redir *r = stalloc(sizeof *r);
	int type = peek()->type;

	consume();
	switch (type) {
	case T_LESS: r->kind = R_IN; break;
	case T_GREAT: r->kind = R_OUT; break;
	case T_DGREAT: r->kind = R_APPEND; break;
	case T_LESSAND: r->kind = R_DUPIN; break;
	default: r->kind = R_DUPOUT; break;
	}
	if (fd < 0)
		fd = (r->kind == R_IN || r->kind == R_DUPIN) ? 0 : 1;
	r->fd = fd;
	if (peek()->type != T_WORD && peek()->type != T_BANG) {
		unexpected();
		return NULL;
	}
	r->word = tok.word;
	r->next = NULL;
	consume();
	return r;
}

static struct command *parse_command(void)
{
	struct command *c = stalloc(sizeof *c);
	struct redir **rtail = &c->redirs;
	struct strvec words;
	int assigning = 1;

	sv_init(&words);
	c->nassign = 0;
	c->redirs = NULL;
	for (;;) {
		struct token *t = peek();
		int fd = -1;

		if (t->type == T_WORD || t->type == T_BANG) {
			if (assigning && t->type == T_WORD && is_assignment(t->word))
				c->nassign++;
			else
				assigning = 0;
			sv_push(&words, t->word ? t->word : "!");
			consume();
			continue;
		}
		if (t->type == T_IONUM) {
			const char *p;
			fd = 0;
			for (p = t->word; *p; p++)
				fd = fd * 10 + (*p - '0');
			consume();
			t = peek();
		}
		if (isredirop(t->type)) {
			struct redir *r = parse_redir(fd);
			if (r == NULL)
				return NULL;
			*rtail = r;
			rtail = &r->next;
			continue;
		}
		break;
	}
	if (words.n == 0 && c->redirs == NULL) {
		unexpected();
		return NULL;
	}
	c->words = words.v;
	c->nwords = words.n;
	return c;
}

static struct pipeline *parse_pipeline(void)
{
	struct pipeline *p = stalloc(sizeof *p);
	int cap = 4;

	p->negate = 0;
	p->ncmds = 0;
	p->cmds = stalloc(sizeof *p->cmds * (size_t)cap);
	if (peek()->type == T_BANG) {
		p->negate = 1;
		consume();
	}
	for (;;) {
		struct command *c = parse_command();
		if (c == NULL)
			return NULL;
		if (p->ncmds == cap) {
			struct command **m = stalloc(sizeof *m * (size_t)cap * 2);
			memcpy(m, p->cmds, sizeof *m * (size_t)cap);
			p->cmds = m;
			cap *= 2;
		}
		p->cmds[p->ncmds++] = c;
		if (peek()->type != T_PIPE)
			return p;
		consume();
		skip_newlines();
	}
}

static struct andor *parse_andor(void)
{
	struct andor *first = NULL, **tail = &first;

	for (;;) {
		struct andor *a = stalloc(sizeof *a);
		a->p = parse_pipeline();
		if (a->p == NULL)
			return NULL;
		a->next = NULL;
		*tail = a;
		tail = &a->next;
		if (peek()->type == T_AND)
			a->op = AO_AND;
		else if (peek()->type == T_OR)
			a->op = AO_OR;
		else {
			a->op = AO_END;
			return first;
		}
		consume();
		skip_newlines();
	}
}

int parse_line(struct list **out)
{
	struct list *first = NULL, **tail = &first;

	havetok = 0;
	failed = 0;
	*out = NULL;
	if (peek()->type == T_EOF)
		return failed ? -1 : 0;
	if (tok.type == T_NL) {
		consume();
		return 1;
	}
	for (;;) {
		struct list *l = stalloc(sizeof *l);
		int t;

		l->ao = parse_andor();
		if (l->ao == NULL)
			return -1;
		l->background = 0;
		l->next = NULL;
		*tail = l;
		tail = &l->next;
		t = peek()->type;
		if (t == T_SEMI || t == T_AMP) {
			l->background = t == T_AMP;
			consume();
			t = peek()->type;
			if (t != T_NL && t != T_EOF)
				continue;
		}
		if (failed)
			return -1;
		if (t == T_NL) {
			consume();
			break;
		}
		if (t != T_EOF) {
			unexpected();
			return -1;
		}
		break;
	}
	*out = first;
	return 1;
}
