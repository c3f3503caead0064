/* Copying and concatenation: strcpy, stpcpy, strncpy, stpncpy, strlcpy, strcat, strncat, strlcat. */
#include <string.h>

char *strcpy(char *restrict dst, const char *restrict src)
{
  char *d = dst;
  while ((*d++ = *src++) != '\0')
    ;
  return dst;
}

char *stpcpy(char *restrict dst, const char *restrict src)
{
  while ((*dst = *src++) != '\0') dst++;
  return dst;
}

/* Copies at most n bytes and pads with NULs to n; the result is unterminated if src is longer. */
char *strncpy(char *restrict dst, const char *restrict src, size_t n)
{
  stpncpy(dst, src, n);
  return dst;
}

char *stpncpy(char *restrict dst, const char *restrict src, size_t n)
{
  size_t i = 0;
  for (; i < n && src[i]; i++) dst[i] = src[i];
  char *end = dst + i;
  for (; i < n; i++) dst[i] = '\0';
  return end;
}

/* BSD: always terminates (size > 0); returns strlen(src) so truncation shows as >= size. */
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size)
{
  size_t len = strlen(src);
  if (size) {
    size_t k = len < size - 1 ? len : size - 1;
    memcpy(dst, src, k);
    dst[k] = '\0';
  }
  return len;
}

char *strcat(char *restrict dst, const char *restrict src)
{
  strcpy(dst + strlen(dst), src);
  return dst;
}

/* Appends at most n bytes of src and always a NUL. */
char *strncat(char *restrict dst, const char *restrict src, size_t n)
{
  char *d = dst + strlen(dst);
  while (n-- && *src) *d++ = *src++;
  *d = '\0';
  return dst;
}

size_t strlcat(char *restrict dst, const char *restrict src, size_t size)
{
  size_t dlen = strnlen(dst, size);
  if (dlen == size) return size + strlen(src);
  return dlen + strlcpy(dst + dlen, src, size - dlen);
}
