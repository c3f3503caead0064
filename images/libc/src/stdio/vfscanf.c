/*
 * The scanf engine (C11 7.21.6.2): directives of white space, ordinary characters and
 * conversions d i u o x X p n c s [ and a e f g (upper case too), with '*' suppression, field
 * widths, the length modifiers hh h l ll q L j z t (lc, ls and l[ store wide characters, one
 * per byte read: the C locale), and POSIX's numbered arguments ("%2$d").
 *
 * Numbers are first collected as text (the longest prefix of a valid number that the field
 * width allows, pushing back the one character that ends it) and then converted with
 * strtoll/strtoull/strtod, so the scanned value is exactly what those return: correctly rounded
 * for floating point. Where C leaves a choice, glibc's is followed: an exponent marker with no
 * digits ("1e+") is consumed and ignored, "0x" alone reads as 0 for %x and %i, and a partial
 * "infinity" is a matching failure.
 */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "local.h"

enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_LD };

#define NUMBUF 512   /* longest number text kept; longer digit runs are truncated */

struct scan {
  FILE *fp;
  size_t nread;      /* characters consumed so far (%n) */
  int width;         /* characters the current field may still take */
  int eof;           /* the input has ended (or failed) */
};

static int get(struct scan *s)
{
  if (s->width <= 0) return EOF;
  int c = __sgetc(s->fp);
  if (c != EOF) {
    s->nread++;
    s->width--;
  } else {
    s->eof = 1;
  }
  return c;
}

static void unget(struct scan *s, int c)
{
  if (c == EOF) return;
  ungetc(c, s->fp);
  s->nread--;
  s->width++;
}

/* Skips white space in the input; returns the next character (consumed) or EOF. */
static int skip_space(struct scan *s)
{
  int c;
  s->width = INT_MAX;
  while ((c = get(s)) != EOF && isspace(c))
    ;
  unget(s, c);
  return c;
}

struct text {
  char b[NUMBUF];
  int n;
};

static void put(struct text *t, int c)
{
  if (t->n < NUMBUF - 1) t->b[t->n++] = (char)c;
}

/* Appends digits of the given base; returns the first character that is not one. */
static int digits(struct scan *s, struct text *t, int c, int base, int *any)
{
  for (;; c = get(s)) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
    if (c == EOF || d >= base) return c;
    put(t, c);
    *any = 1;
  }
}

/* Integer text for base (0: C's prefixes decide); returns 0 on matching failure. */
static int scan_int(struct scan *s, struct text *t, int base)
{
  int any = 0;
  int c = get(s);
  if (c == '+' || c == '-') {
    put(t, c);
    c = get(s);
  }
  if ((base == 0 || base == 16) && c == '0') {
    put(t, c);
    any = 1;   /* "0x" with no hex digit after it still reads as 0 (glibc) */
    c = get(s);
    if (c == 'x' || c == 'X') {
      put(t, c);
      base = 16;
      c = get(s);
    } else if (base == 0) {
      base = 8;
    }
  }
  if (base == 0) base = 10;
  c = digits(s, t, c, base, &any);
  unget(s, c);
  t->b[t->n] = '\0';
  return any;
}

/* Matches the rest of a case-insensitive word; returns 1 if all of it was read. */
static int word(struct scan *s, struct text *t, const char *w)
{
  for (; *w; w++) {
    int c = get(s);
    if (c == EOF || tolower(c) != *w) {
      unget(s, c);
      return 0;
    }
    put(t, c);
  }
  return 1;
}

/* Floating-point text: decimal, hexadecimal, inf[inity], nan[(chars)]. */
static int scan_float(struct scan *s, struct text *t)
{
  int c = get(s);
  if (c == '+' || c == '-') {
    put(t, c);
    c = get(s);
  }
  if (c == 'i' || c == 'I') {
    put(t, c);
    if (!word(s, t, "nf")) return 0;
    c = get(s);
    if (c == 'i' || c == 'I') {
      put(t, c);
      if (!word(s, t, "nity")) return 0;
    } else {
      unget(s, c);
    }
    t->b[t->n] = '\0';
    return 1;
  }
  if (c == 'n' || c == 'N') {
    put(t, c);
    if (!word(s, t, "an")) return 0;
    c = get(s);
    if (c == '(') {
      put(t, c);
      while ((c = get(s)) != EOF && (isalnum(c) || c == '_')) put(t, c);
      if (c != ')') {
        unget(s, c);
        return 0;
      }
      put(t, c);
    } else {
      unget(s, c);
    }
    t->b[t->n] = '\0';
    return 1;
  }
  int base = 10, any = 0;
  if (c == '0') {
    put(t, c);
    any = 1;
    c = get(s);
    if (c == 'x' || c == 'X') {
      put(t, c);
      base = 16;
      any = 0;
      c = get(s);
    }
  }
  c = digits(s, t, c, base, &any);
  if (c == '.') {
    put(t, c);
    c = digits(s, t, get(s), base, &any);
  }
  if (any && (base == 10 ? (c == 'e' || c == 'E') : (c == 'p' || c == 'P'))) {
    /* An exponent marker without digits is consumed and ignored, as glibc does. */
    int keep = t->n;
    put(t, c);
    c = get(s);
    if (c == '+' || c == '-') {
      put(t, c);
      c = get(s);
    }
    int exp = 0;
    c = digits(s, t, c, 10, &exp);
    if (!exp) t->n = keep;
  }
  unget(s, c);
  t->b[t->n] = '\0';
  return any;
}

/* Parses a %[ scan set at f (just after the '['); returns the character after the ']'. */
static const char *scanset(const char *f, unsigned char set[256])
{
  int neg = 0;
  if (*f == '^') neg = 1, f++;
  memset(set, 0, 256);
  if (*f == ']') set[(unsigned char)*f++] = 1;
  for (; *f && *f != ']'; f++) {
    if (f[0] == '-' && f[1] && f[1] != ']' && f[-1] != '[' && (unsigned char)f[-1] <= (unsigned char)f[1]) {
      for (int c = (unsigned char)f[-1]; c <= (unsigned char)f[1]; c++) set[c] = 1;
      f++;
    } else {
      set[(unsigned char)*f] = 1;
    }
  }
  if (neg)
    for (int i = 0; i < 256; i++) set[i] = !set[i];
  return *f ? f + 1 : f;
}

static void store_int(void *p, int len, uint64_t v)
{
  switch (len) {
  case L_HH: *(char *)p = (char)v; break;
  case L_H: *(short *)p = (short)v; break;
  case L_L: *(long *)p = (long)v; break;
  case L_LL: case L_J: *(long long *)p = (long long)v; break;
  case L_Z: *(size_t *)p = (size_t)v; break;
  case L_T: *(ptrdiff_t *)p = (ptrdiff_t)v; break;
  default: *(int *)p = (int)v; break;
  }
}

/* The n-th (1-based) pointer argument of the list: every scanf argument is one pointer. */
static void *nth(__builtin_va_list ap, int n)
{
  __builtin_va_list c;
  __builtin_va_copy(c, ap);
  while (--n > 0) (void)__builtin_va_arg(c, void *);
  void *p = __builtin_va_arg(c, void *);
  __builtin_va_end(c);
  return p;
}

/* The scan; ap0 is the argument list from its start, for numbered arguments. */
static int scan(FILE *fp, const char *fmt, __builtin_va_list ap, __builtin_va_list ap0)
{
  struct scan s = { fp, 0, INT_MAX, 0 };
  int assigned = 0, converted = 0, c;
  const unsigned char *f = (const unsigned char *)fmt;
  while (*f) {
    if (isspace(*f)) {
      while (isspace(*f)) f++;
      skip_space(&s);
      continue;
    }
    if (*f != '%' || f[1] == '%') {
      if (*f == '%') {
        f++;
        skip_space(&s);
      }
      s.width = INT_MAX;
      c = get(&s);
      if (c != *f) {
        unget(&s, c);
        if (c == EOF) goto input_failure;
        return assigned;
      }
      f++;
      continue;
    }
    f++;
    int suppress = 0, width = 0, len = L_NONE, pos = 0;
    {
      const unsigned char *q = f;
      int n = 0;
      while (*q >= '0' && *q <= '9') n = n * 10 + (*q++ - '0');
      if (*q == '$' && q != f && n >= 1 && n <= NL_ARGMAX) {
        pos = n;
        f = q + 1;
      }
    }
    /* The next pointer argument, or the numbered one. */
#define PTR(T) (pos ? (T)nth(ap0, pos) : __builtin_va_arg(ap, T))
    if (*f == '*') suppress = 1, f++;
    while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
    switch (*f) {
    case 'h': len = f[1] == 'h' ? (f++, L_HH) : L_H; f++; break;
    case 'l': len = f[1] == 'l' ? (f++, L_LL) : L_L; f++; break;
    case 'q': len = L_LL; f++; break;
    case 'L': len = L_LD; f++; break;
    case 'j': len = L_J; f++; break;
    case 'z': len = L_Z; f++; break;
    case 't': len = L_T; f++; break;
    }
    int conv = *f++;
    if (conv == '\0') break;
    if (conv == 'n') {
      if (!suppress) store_int(PTR(void *), len, s.nread);
      continue;
    }
    if (conv != 'c' && conv != '[') {
      if (skip_space(&s) == EOF) goto input_failure;
    }
    s.width = width ? width : conv == 'c' ? 1 : INT_MAX;
    switch (conv) {
    case 'c': {
      char *p = suppress ? NULL : PTR(char *);
      __WCHAR_TYPE__ *wp = (__WCHAR_TYPE__ *)p;
      int n = 0;
      while ((c = get(&s)) != EOF) {
        if (p && len == L_L) wp[n] = (__WCHAR_TYPE__)c;
        else if (p) p[n] = (char)c;
        n++;
      }
      if (n == 0) goto input_failure;
      if (s.width) return assigned;   /* the input ended inside the field */
      break;
    }
    case 's':
    case '[': {
      unsigned char set[256];
      if (conv == '[') {
        f = (const unsigned char *)scanset((const char *)f, set);
      } else {
        for (int i = 0; i < 256; i++) set[i] = !isspace(i);
      }
      char *p = suppress ? NULL : PTR(char *);
      __WCHAR_TYPE__ *wp = (__WCHAR_TYPE__ *)p;
      int n = 0;
      while ((c = get(&s)) != EOF && set[c]) {
        if (p && len == L_L) wp[n] = (__WCHAR_TYPE__)c;
        else if (p) p[n] = (char)c;
        n++;
      }
      unget(&s, c);
      if (n == 0) {
        if (c == EOF) goto input_failure;
        return assigned;
      }
      if (p && len == L_L) wp[n] = 0;
      else if (p) p[n] = '\0';
      break;
    }
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': {
      struct text t;
      t.n = 0;
      int base = conv == 'd' || conv == 'u' ? 10 : conv == 'i' ? 0 : conv == 'o' ? 8 : 16;
      if (!scan_int(&s, &t, base)) {
        if (t.n == 0 && s.eof) goto input_failure;
        return assigned;
      }
      if (!suppress) {
        void *p = PTR(void *);
        uint64_t v = conv == 'd' || conv == 'i' ? (uint64_t)strtoll(t.b, NULL, base) : strtoull(t.b, NULL, base);
        if (conv == 'p') *(void **)p = (void *)(uintptr_t)v;
        else store_int(p, len, v);
      }
      break;
    }
    case 'a': case 'A': case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
      struct text t;
      t.n = 0;
      if (!scan_float(&s, &t)) {
        if (t.n == 0 && s.eof) goto input_failure;
        return assigned;
      }
      char *end;
      double d = strtod(t.b, &end);
      if (*end) return assigned;
      if (!suppress) {
        if (len == L_L || len == L_LD) *PTR(double *) = d;
        else *PTR(float *) = strtof(t.b, NULL);
      }
      break;
    }
    default:
      return assigned;
    }
    converted++;
    if (!suppress) assigned++;
  }
#undef PTR
  return assigned;

input_failure:
  return converted || assigned ? assigned : EOF;
}

int __vfscanf(FILE *fp, const char *fmt, __builtin_va_list ap)
{
  __builtin_va_list ap0;
  __builtin_va_copy(ap0, ap);
  int r = scan(fp, fmt, ap, ap0);
  __builtin_va_end(ap0);
  return r;
}
