/* The wide string functions (C99 7.24.4 and 7.24.6), and wcsdup (POSIX.1-2008). */
#include <stdlib.h>
#include <wchar.h>

size_t wcslen(const wchar_t *s)
{
  const wchar_t *p = s;
  while (*p) p++;
  return (size_t)(p - s);
}

wchar_t *wcscpy(wchar_t *restrict d, const wchar_t *restrict s)
{
  wchar_t *r = d;
  while ((*d++ = *s++) != 0)
    ;
  return r;
}

wchar_t *wcsncpy(wchar_t *restrict d, const wchar_t *restrict s, size_t n)
{
  size_t i = 0;
  for (; i < n && s[i]; i++) d[i] = s[i];
  for (; i < n; i++) d[i] = 0;
  return d;
}

wchar_t *wcscat(wchar_t *restrict d, const wchar_t *restrict s)
{
  wcscpy(d + wcslen(d), s);
  return d;
}

wchar_t *wcsncat(wchar_t *restrict d, const wchar_t *restrict s, size_t n)
{
  wchar_t *p = d + wcslen(d);
  size_t i = 0;
  for (; i < n && s[i]; i++) p[i] = s[i];
  p[i] = 0;
  return d;
}

/* Wide characters compare as wchar_t values (C99 7.24.4.4). */
int wcscmp(const wchar_t *a, const wchar_t *b)
{
  while (*a && *a == *b) a++, b++;
  return *a < *b ? -1 : *a > *b;
}

int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n)
{
  for (; n > 0; n--, a++, b++) {
    if (*a != *b) return *a < *b ? -1 : 1;
    if (*a == 0) break;
  }
  return 0;
}

int wcscoll(const wchar_t *a, const wchar_t *b)
{
  return wcscmp(a, b);
}

size_t wcsxfrm(wchar_t *restrict d, const wchar_t *restrict s, size_t n)
{
  size_t len = wcslen(s);
  if (len < n) wcscpy(d, s);
  return len;
}

wchar_t *wcschr(const wchar_t *s, wchar_t c)
{
  for (;; s++) {
    if (*s == c) return (wchar_t *)s;
    if (*s == 0) return NULL;
  }
}

wchar_t *wcsrchr(const wchar_t *s, wchar_t c)
{
  const wchar_t *r = NULL;
  for (;; s++) {
    if (*s == c) r = s;
    if (*s == 0) return (wchar_t *)r;
  }
}

wchar_t *wcsstr(const wchar_t *restrict h, const wchar_t *restrict n)
{
  size_t k = wcslen(n);
  if (k == 0) return (wchar_t *)h;
  for (; *h; h++)
    if (*h == *n && wcsncmp(h, n, k) == 0) return (wchar_t *)h;
  return NULL;
}

size_t wcsspn(const wchar_t *s, const wchar_t *set)
{
  size_t i = 0;
  while (s[i] && wcschr(set, s[i])) i++;
  return i;
}

size_t wcscspn(const wchar_t *s, const wchar_t *set)
{
  size_t i = 0;
  while (s[i] && !wcschr(set, s[i])) i++;
  return i;
}

wchar_t *wcspbrk(const wchar_t *s, const wchar_t *set)
{
  s += wcscspn(s, set);
  return *s ? (wchar_t *)s : NULL;
}

wchar_t *wcstok(wchar_t *restrict s, const wchar_t *restrict sep, wchar_t **restrict last)
{
  if (s == NULL) s = *last;
  s += wcsspn(s, sep);
  if (*s == 0) {
    *last = s;
    return NULL;
  }
  wchar_t *end = s + wcscspn(s, sep);
  if (*end) *end++ = 0;
  *last = end;
  return s;
}

wchar_t *wcsdup(const wchar_t *s)
{
  size_t n = wcslen(s) + 1;
  wchar_t *d = malloc(n * sizeof *d);
  return d ? wmemcpy(d, s, n) : NULL;
}

wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n)
{
  for (; n > 0; n--, s++)
    if (*s == c) return (wchar_t *)s;
  return NULL;
}

int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n)
{
  for (; n > 0; n--, a++, b++)
    if (*a != *b) return *a < *b ? -1 : 1;
  return 0;
}

wchar_t *wmemcpy(wchar_t *restrict d, const wchar_t *restrict s, size_t n)
{
  for (size_t i = 0; i < n; i++) d[i] = s[i];
  return d;
}

wchar_t *wmemmove(wchar_t *d, const wchar_t *s, size_t n)
{
  if (d < s) {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  } else {
    while (n-- > 0) d[n] = s[n];
  }
  return d;
}

wchar_t *wmemset(wchar_t *d, wchar_t c, size_t n)
{
  for (size_t i = 0; i < n; i++) d[i] = c;
  return d;
}
