/* The lexer: C tokens, with identifiers interned in a hash table; comments are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc1.h"

/* ---- arena ---- */

struct chunk {
	struct chunk *next;
	size_t used, cap;
	/* data follows */
};
static struct chunk *chunks;

void *arena_alloc(size_t n)
{
	struct chunk *c = chunks;
	void *p;
	n = (n + 7) & ~(size_t)7;
	if (!c || c->used + n > c->cap) {
		size_t cap = n > 65536 ? n : 65536;
		c = malloc(sizeof *c + cap);
		if (!c) {
			fprintf(stderr, "cc1: out of memory\n");
			exit(1);
		}
		c->next = chunks;
		c->used = 0;
		c->cap = cap;
		chunks = c;
	}
	p = (char *)(c + 1) + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

void arena_reset(void)
{
	while (chunks) {
		struct chunk *c = chunks;
		chunks = c->next;
		free(c);
	}
}

/* ---- names ---- */

#define NAMETAB 2039
struct name {
	struct name *next;
	int len;
	char s[1];
};
static struct name *names[NAMETAB];

/* Interned names live for the whole run (not in the arena), so repeated compilations of the
 * same source find them again. */
const char *intern_name(const char *s, int len)
{
	unsigned int h = 0;
	int i;
	struct name *n;
	for (i = 0; i < len; i++)
		h = h * 33 + (unsigned char)s[i];
	h %= NAMETAB;
	for (n = names[h]; n; n = n->next)
		if (n->len == len && !memcmp(n->s, s, (size_t)len))
			return n->s;
	n = malloc(sizeof *n + (size_t)len);
	if (!n) {
		fprintf(stderr, "cc1: out of memory\n");
		exit(1);
	}
	memcpy(n->s, s, (size_t)len);
	n->s[len] = '\0';
	n->len = len;
	n->next = names[h];
	names[h] = n;
	return n->s;
}

static const struct { const char *word; enum tok kind; } keywords[] = {
	{ "int", TK_INT }, { "char", TK_CHAR }, { "void", TK_VOID }, { "if", TK_IF },
	{ "else", TK_ELSE }, { "while", TK_WHILE }, { "do", TK_DO }, { "for", TK_FOR },
	{ "return", TK_RETURN }, { "break", TK_BREAK }, { "continue", TK_CONTINUE },
	{ "sizeof", TK_SIZEOF },
};

static const char *kw_names[sizeof keywords / sizeof keywords[0]];

const char *tok_name(enum tok k)
{
	static const char *const punct[] = {
		"(", ")", "{", "}", "[", "]", ";", ",", "?", ":", "=", "+=", "-=", "*=", "/=", "%=",
		"&=", "|=", "^=", "<<=", ">>=", "||", "&&", "|", "^", "&", "==", "!=", "<", ">", "<=",
		">=", "<<", ">>", "+", "-", "*", "/", "%", "!", "~", "++", "--",
	};
	unsigned int i;
	if (k >= TK_LPAREN)
		return punct[k - TK_LPAREN];
	for (i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (keywords[i].kind == k)
			return keywords[i].word;
	switch (k) {
	case TK_EOF: return "end of file";
	case TK_IDENT: return "identifier";
	case TK_NUM: return "number";
	case TK_CHARLIT: return "character constant";
	case TK_STR: return "string";
	default: return "token";
	}
}

static void lex_error(struct lexer *lx, const char *msg)
{
	fprintf(stderr, "%s:%d: error: %s\n", lx->file, lx->line, msg);
	exit(1);
}

static int escape(struct lexer *lx)
{
	int c = (unsigned char)*lx->p++;
	if (c != '\\')
		return c;
	c = (unsigned char)*lx->p++;
	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case '0': return 0;
	case '\\': return '\\';
	case '\'': return '\'';
	case '"': return '"';
	default: lex_error(lx, "unknown escape sequence");
	}
	return 0;
}

static void scan(struct lexer *lx, struct token *t)
{
	const char *p;
	int c;
	for (;;) {
		c = (unsigned char)*lx->p;
		if (c == '\n') {
			lx->line++;
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			lx->p++;
		} else if (c == '/' && lx->p[1] == '*') {
			lx->p += 2;
			while (*lx->p && !(lx->p[0] == '*' && lx->p[1] == '/')) {
				if (*lx->p == '\n')
					lx->line++;
				lx->p++;
			}
			if (!*lx->p)
				lex_error(lx, "unterminated comment");
			lx->p += 2;
		} else if (c == '/' && lx->p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else {
			break;
		}
	}
	t->line = lx->line;
	p = lx->p;
	if (c == '\0') {
		t->kind = TK_EOF;
		return;
	}
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
		unsigned int i;
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
			p++;
		t->name = intern_name(lx->p, (int)(p - lx->p));
		lx->p = p;
		for (i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
			if (!kw_names[i])
				kw_names[i] = intern_name(keywords[i].word, (int)strlen(keywords[i].word));
			if (kw_names[i] == t->name) {
				t->kind = keywords[i].kind;
				return;
			}
		}
		t->kind = TK_IDENT;
		return;
	}
	if (c >= '0' && c <= '9') {
		unsigned long v = 0;
		if (c == '0' && (p[1] == 'x' || p[1] == 'X')) {
			p += 2;
			for (;; p++) {
				int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
					*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
				if (d < 0)
					break;
				v = v * 16 + (unsigned long)d;
			}
		} else {
			while (*p >= '0' && *p <= '9')
				v = v * 10 + (unsigned long)(*p++ - '0');
		}
		t->kind = TK_NUM;
		t->value = (long)(int)(unsigned int)v;   /* the target's int is 32 bits */
		lx->p = p;
		return;
	}
	if (c == '\'') {
		lx->p++;
		t->kind = TK_CHARLIT;
		t->value = escape(lx);
		if (*lx->p++ != '\'')
			lex_error(lx, "bad character constant");
		return;
	}
	if (c == '"') {
		char buf[1024];
		int n = 0;
		lx->p++;
		while (*lx->p != '"') {
			if (*lx->p == '\0' || *lx->p == '\n')
				lex_error(lx, "unterminated string");
			if (n == (int)sizeof buf - 1)
				lex_error(lx, "string too long");
			buf[n++] = (char)escape(lx);
		}
		lx->p++;
		t->kind = TK_STR;
		t->name = intern_name(buf, n);
		t->len = n;
		return;
	}
	{
		/* longest match among the operators */
		static const struct { const char *s; enum tok k; } ops[] = {
			{ "<<=", TK_SHL_ASSIGN }, { ">>=", TK_SHR_ASSIGN }, { "+=", TK_ADD_ASSIGN },
			{ "-=", TK_SUB_ASSIGN }, { "*=", TK_MUL_ASSIGN }, { "/=", TK_DIV_ASSIGN },
			{ "%=", TK_MOD_ASSIGN }, { "&=", TK_AND_ASSIGN }, { "|=", TK_OR_ASSIGN },
			{ "^=", TK_XOR_ASSIGN }, { "||", TK_OROR }, { "&&", TK_ANDAND }, { "==", TK_EQ },
			{ "!=", TK_NE }, { "<=", TK_LE }, { ">=", TK_GE }, { "<<", TK_SHL }, { ">>", TK_SHR },
			{ "++", TK_INC }, { "--", TK_DEC }, { "(", TK_LPAREN }, { ")", TK_RPAREN },
			{ "{", TK_LBRACE }, { "}", TK_RBRACE }, { "[", TK_LBRACKET }, { "]", TK_RBRACKET },
			{ ";", TK_SEMI }, { ",", TK_COMMA }, { "?", TK_QUESTION }, { ":", TK_COLON },
			{ "=", TK_ASSIGN }, { "|", TK_OR }, { "^", TK_XOR }, { "&", TK_AND }, { "<", TK_LT },
			{ ">", TK_GT }, { "+", TK_PLUS }, { "-", TK_MINUS }, { "*", TK_STAR },
			{ "/", TK_SLASH }, { "%", TK_PERCENT }, { "!", TK_NOT }, { "~", TK_TILDE },
		};
		unsigned int i;
		for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
			size_t n = strlen(ops[i].s);
			if (!strncmp(lx->p, ops[i].s, n)) {
				lx->p += n;
				t->kind = ops[i].k;
				return;
			}
		}
	}
	lex_error(lx, "stray character in program");
}

void lex_init(struct lexer *lx, const char *file, const char *src)
{
	lx->src = lx->p = src;
	lx->file = file;
	lx->line = 1;
	lx->has_ahead = 0;
	scan(lx, &lx->tok);
}

void lex_next(struct lexer *lx)
{
	if (lx->has_ahead) {
		lx->tok = lx->ahead;
		lx->has_ahead = 0;
	} else {
		scan(lx, &lx->tok);
	}
}

const struct token *lex_peek(struct lexer *lx)
{
	if (!lx->has_ahead) {
		scan(lx, &lx->ahead);
		lx->has_ahead = 1;
	}
	return &lx->ahead;
}
