/* strlen and strnlen. strlen reads aligned words: a word holding the terminating NUL never lies
 * on a page the string does not touch. */
#include <string.h>
#include "word.h"

size_t strlen(const char *s)
{
  const char *p = s;

  while ((uintptr_t)p & WMASK) {
    if (*p == '\0') return (size_t)(p - s);
    p++;
  }
  const word_t *w = (const word_t *)p;
  while (!HASZERO(*w)) w++;
  p = (const char *)w;
  while (*p) p++;
  return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
  size_t i = 0;
  while (i < max && s[i]) i++;
  return i;
}
