/* Byte-array search and comparison: memchr, memrchr, memcmp, bcmp, memccpy. */
#include <string.h>
#include <strings.h>

void *memchr(const void *s, int c, size_t n)
{
  const unsigned char *p = s;
  unsigned char b = (unsigned char)c;
  for (; n; n--, p++)
    if (*p == b) return (void *)p;
  return NULL;
}

void *memrchr(const void *s, int c, size_t n)
{
  const unsigned char *p = (const unsigned char *)s + n;
  unsigned char b = (unsigned char)c;
  while (n--)
    if (*--p == b) return (void *)p;
  return NULL;
}

int memcmp(const void *a, const void *b, size_t n)
{
  const unsigned char *p = a, *q = b;
  for (; n; n--, p++, q++)
    if (*p != *q) return *p - *q;
  return 0;
}

int bcmp(const void *a, const void *b, size_t n)
{
  return memcmp(a, b, n) != 0;
}

void *memccpy(void *restrict dst, const void *restrict src, int c, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;
  unsigned char b = (unsigned char)c;
  while (n--)
    if ((*d++ = *s++) == b) return d;
  return NULL;
}
