/*
 * Wide string to number (C99 7.24.4.1): the byte conversions on the string's bytes, where a
 * character above 255 (no byte) ends the number as any other non-digit does.
 */
#include <stdlib.h>
#include <wchar.h>
#include "narrow.h"

char *__narrow(const wchar_t *s, char *buf, size_t n, char bad, int *nbad)
{
  size_t len = wcslen(s);
  char *d = len < n ? buf : malloc(len + 1);
  if (d == NULL) return NULL;
  for (size_t i = 0; i <= len; i++) {
    if ((unsigned long)s[i] > 255) {
      d[i] = bad;
      if (nbad) (*nbad)++;
    } else {
      d[i] = (char)s[i];
    }
  }
  return d;
}

/* Runs conv on the bytes of s and maps its end pointer back onto s. */
#define WCSTO(type, name, call)                                            \
  type name(const wchar_t *restrict s, wchar_t **restrict end ARGS)       \
  {                                                                        \
    char buf[128], *e;                                                     \
    char *b = __narrow(s, buf, sizeof buf, '\x01', NULL);                  \
    if (b == NULL) {                                                       \
      if (end) *end = (wchar_t *)s;                                        \
      return 0;                                                            \
    }                                                                      \
    type r = call;                                                         \
    if (end) *end = (wchar_t *)s + (e - b);                                \
    if (b != buf) free(b);                                                 \
    return r;                                                              \
  }

#define ARGS , int base
WCSTO(long, wcstol, strtol(b, &e, base))
WCSTO(unsigned long, wcstoul, strtoul(b, &e, base))
WCSTO(long long, wcstoll, strtoll(b, &e, base))
WCSTO(unsigned long long, wcstoull, strtoull(b, &e, base))
#undef ARGS
#define ARGS
WCSTO(double, wcstod, strtod(b, &e))
WCSTO(float, wcstof, strtof(b, &e))
WCSTO(long double, wcstold, strtold(b, &e))
