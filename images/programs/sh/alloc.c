/*
 * The per-line arena: the parse tree and every expanded word of one command line live in blocks
 * obtained from malloc and freed all at once by streset() when the line has run, so the shell's
 * memory does not grow with the length of a script.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

struct block {
	struct block *next;
	size_t used, size;
	/* data follows, aligned for any type */
};

#define ALIGN 8
#define HDR ((sizeof(struct block) + ALIGN - 1) & ~(size_t)(ALIGN - 1))
#define MINBLOCK 8192

static struct block *blocks;

static void nomem(void)
{
	static const char msg[] = "sh: out of memory\n";
	write(2, msg, sizeof msg - 1);
	_exit(2);
}

void *stalloc(size_t n)
{
	struct block *b = blocks;

	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (b == NULL || b->size - b->used < n) {
		size_t size = n > MINBLOCK ? n : MINBLOCK;
		b = malloc(HDR + size);
		if (b == NULL)
			nomem();
		b->size = size;
		b->used = 0;
		b->next = blocks;
		blocks = b;
	}
	b->used += n;
	return (char *)b + HDR + b->used - n;
}

char *ststrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(stalloc(n), s, n);
}

void streset(void)
{
	while (blocks) {
		struct block *b = blocks;
		blocks = b->next;
		free(b);
	}
}

void sb_init(struct sbuf *b)
{
	b->cap = 32;
	b->len = 0;
	b->s = stalloc(b->cap);
}

void sb_putc(struct sbuf *b, int c)
{
	if (b->len + 1 >= b->cap) {
		char *n = stalloc(b->cap * 2);
		memcpy(n, b->s, b->len);
		b->s = n;
		b->cap *= 2;
	}
	b->s[b->len++] = (char)c;
}

void sb_puts(struct sbuf *b, const char *s)
{
	while (*s)
		sb_putc(b, *s++);
}

char *sb_finish(struct sbuf *b)
{
	char *s = stalloc(b->len + 1);
	memcpy(s, b->s, b->len);
	s[b->len] = '\0';
	return s;
}

void sv_init(struct strvec *v)
{
	v->n = 0;
	v->cap = 8;
	v->v = stalloc(sizeof(char *) * (size_t)v->cap);
	v->v[0] = NULL;
}

/* Appends s, keeping v->v NULL-terminated. */
void sv_push(struct strvec *v, char *s)
{
	if (v->n + 1 >= v->cap) {
		char **n = stalloc(sizeof(char *) * (size_t)v->cap * 2);
		memcpy(n, v->v, sizeof(char *) * (size_t)v->n);
		v->v = n;
		v->cap *= 2;
	}
	v->v[v->n++] = s;
	v->v[v->n] = NULL;
}
