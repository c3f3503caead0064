/* memmove and bcopy: memcpy's forward word loop when it cannot overwrite unread bytes, else a
 * backward copy (by words when source and destination share an alignment). */
#include <string.h>
#include <strings.h>
#include "word.h"

NO_LOOP_CALLS void *memmove(void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;

  if (d == s || n == 0) return dst;
  if (d < s || d >= s + n) {
    /* Forward: the destination word written never lies above the next aligned source word
     * still to be read, since the aligned destination is at or below the aligned source. */
    if (n >= 2 * WSIZE) {
      while ((uintptr_t)d & WMASK) {
        *d++ = *s++;
        n--;
      }
      word_t *dw = (word_t *)d;
      unsigned sh = (uintptr_t)s & WMASK;
      if (sh == 0) {
        const word_t *sw = (const word_t *)s;
        for (; n >= WSIZE; n -= WSIZE) *dw++ = *sw++;
        s = (const unsigned char *)sw;
      } else {
        const word_t *sw = (const word_t *)(s - sh);
        word_t a = *sw++;
        for (; n >= WSIZE; n -= WSIZE, s += WSIZE) {
          word_t b = *sw++;
          *dw++ = MERGE(a, b, sh);
          a = b;
        }
      }
      d = (unsigned char *)dw;
    }
    while (n--) *d++ = *s++;
    return dst;
  }
  d += n;
  s += n;
  if (n >= 2 * WSIZE && (((uintptr_t)d ^ (uintptr_t)s) & WMASK) == 0) {
    while ((uintptr_t)d & WMASK) {
      *--d = *--s;
      n--;
    }
    word_t *dw = (word_t *)d;
    const word_t *sw = (const word_t *)s;
    for (; n >= WSIZE; n -= WSIZE) *--dw = *--sw;
    d = (unsigned char *)dw;
    s = (const unsigned char *)sw;
  }
  while (n--) *--d = *--s;
  return dst;
}

void bcopy(const void *src, void *dst, size_t n)
{
  memmove(dst, src, n);
}
