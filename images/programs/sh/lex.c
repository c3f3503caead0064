/*
 * The lexer: splits input into operators and raw words. A raw word keeps its quotes and
 * backslashes (expansion removes them when the command runs, once $? and friends are known);
 * the lexer only needs them to find where the word ends. \<newline> outside single quotes is
 * a line continuation and disappears here.
 */
#include <stdio.h>
#include <string.h>
#include "sh.h"

static int isblank_(int c)
{
	return c == ' ' || c == '\t';
}

/* Characters that end an unquoted word. */
static int ismeta(int c)
{
	return c == EOF || isblank_(c) || c == '\n' || c == ';' || c == '&' || c == '|' ||
	    c == '<' || c == '>' || c == '(' || c == ')';
}

/* Next character with \<newline> pairs removed. */
static int getc_joined(void)
{
	for (;;) {
		int c = in_getc();
		if (c != '\\')
			return c;
		c = in_getc();
		if (c != '\n') {
			in_ungetc(c);
			return '\\';
		}
	}
}

/*
 * After "$": if a "{" follows, copies the whole ${...} into b (blanks and quotes inside do not end
 * the word). Returns 0, or -1 if the brace is not closed.
 */
static int read_brace(struct sbuf *b)
{
	int c = getc_joined(), q = 0;

	if (c != '{') {
		in_ungetc(c);
		return 0;
	}
	sb_putc(b, c);
	while ((c = getc_joined()) != '}' || q) {
		if (c == EOF)
			return -1;
		sb_putc(b, c);
		if (c == '\\' && q != '\'') {
			if ((c = in_getc()) == EOF)
				return -1;
			sb_putc(b, c);
		} else if (c == '\'' || c == '"') {
			if (q == 0)
				q = c;
			else if (q == c)
				q = 0;
		}
	}
	sb_putc(b, c);
	return 0;
}

/* Reads the rest of a word starting with c into b. Returns 0, or -1 for an unterminated quote. */
static int read_word(int c, struct sbuf *b)
{
	for (; !ismeta(c); c = getc_joined()) {
		if (c == '\'') {
			sb_putc(b, c);
			while ((c = in_getc()) != '\'') {
				if (c == EOF)
					return -1;
				sb_putc(b, c);
			}
			sb_putc(b, c);
		} else if (c == '"') {
			sb_putc(b, c);
			while ((c = getc_joined()) != '"') {
				if (c == EOF)
					return -1;
				sb_putc(b, c);
				if (c == '\\') {
					c = in_getc();
					if (c == EOF)
						return -1;
					sb_putc(b, c);
				} else if (c == '$' && read_brace(b) < 0)
					return -1;
			}
			sb_putc(b, c);
		} else if (c == '\\') {
			sb_putc(b, c);
			c = in_getc();
			if (c == EOF)
				return 0;
			sb_putc(b, c);
		} else {
			sb_putc(b, c);
			if (c == '$' && read_brace(b) < 0)
				return -1;
		}
	}
	in_ungetc(c);
	return 0;
}

void lex_next(struct token *t)
{
	int c;
	struct sbuf b;

	t->word = NULL;
	do
		c = getc_joined();
	while (isblank_(c));
	if (c == '#') {
		while ((c = in_getc()) != '\n' && c != EOF)
			;
	}
	switch (c) {
	case EOF: t->type = T_EOF; return;
	case '\n': t->type = T_NL; return;
	case ';': t->type = T_SEMI; return;
	case '(': t->type = T_LPAREN; return;
	case ')': t->type = T_RPAREN; return;
	case '&':
		if ((c = getc_joined()) == '&') {
			t->type = T_AND;
			return;
		}
		in_ungetc(c);
		t->type = T_AMP;
		return;
	case '|':
		if ((c = getc_joined()) == '|') {
			t->type = T_OR;
			return;
		}
		in_ungetc(c);
		t->type = T_PIPE;
		return;
	case '<':
		if ((c = getc_joined()) == '&') {
			t->type = T_LESSAND;
			return;
		}
		in_ungetc(c);
		t->type = T_LESS;
		return;
	case '>':
		c = getc_joined();
		if (c == '>')
			t->type = T_DGREAT;
		else if (c == '&')
			t->type = T_GREATAND;
		else if (c == '|')
			t->type = T_GREAT;
		else {
			in_ungetc(c);
			t->type = T_GREAT;
		}
		return;
	}
	sb_init(&b);
	if (read_word(c, &b) < 0) {
		sh_error("syntax error: unterminated quoted string");
		t->type = T_EOF;
		t->word = "";	/* marks the error for the parser */
		return;
	}
	t->word = sb_finish(&b);
	t->type = T_WORD;
	if (strcmp(t->word, "!") == 0) {
		t->type = T_BANG;
		return;
	}
	/* A word of digits directly followed by < or > is the descriptor of a redirection. */
	c = in_getc();
	in_ungetc(c);
	if (c == '<' || c == '>') {
		const char *p = t->word;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '\0')
			t->type = T_IONUM;
	}
}

const char *tokname(const struct token *t)
{
	switch (t->type) {
	case T_EOF: return "end of file";
	case T_NL: return "newline";
	case T_WORD: case T_IONUM: return t->word;
	case T_SEMI: return ";";
	case T_AMP: return "&";
	case T_AND: return "&&";
	case T_OR: return "||";
	case T_PIPE: return "|";
	case T_BANG: return "!";
	case T_LESS: return "<";
	case T_GREAT: return ">";
	case T_DGREAT: return ">>";
	case T_LESSAND: return "<&";
	case T_GREATAND: return ">&";
	case T_LPAREN: return "(";
	case T_RPAREN: return ")";
	}
	return "?";
}
