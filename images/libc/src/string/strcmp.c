/* Comparison: strcmp, strncmp, and the C-locale strcoll/strxfrm (byte order). */
#include <string.h>

int strcmp(const char *a, const char *b)
{
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  while (*p && *p == *q) p++, q++;
  return *p - *q;
}

int strncmp(const char *a, const char *b, size_t n)
{
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  for (; n; n--, p++, q++) {
    if (*p != *q) return *p - *q;
    if (*p == '\0') break;
  }
  return 0;
}

int strcoll(const char *a, const char *b)
{
  return strcmp(a, b);
}

size_t strxfrm(char *restrict dst, const char *restrict src, size_t n)
{
  size_t len = strlen(src);
  if (len < n) memcpy(dst, src, len + 1);
  return len;
}
