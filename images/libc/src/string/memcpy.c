/* memcpy: word copies once the destination is aligned, merging words when the source is not. */
#include <string.h>
#include "word.h"

NO_LOOP_CALLS void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;

  if (n >= 2 * WSIZE) {
    while ((uintptr_t)d & WMASK) {
      *d++ = *s++;
      n--;
    }
    word_t *dw = (word_t *)d;
    unsigned sh = (uintptr_t)s & WMASK;
    if (sh == 0) {
      const word_t *sw = (const word_t *)s;
      for (; n >= 8 * WSIZE; n -= 8 * WSIZE, dw += 8, sw += 8) {
        word_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
        dw[0] = a; dw[1] = b; dw[2] = c; dw[3] = e;
        a = sw[4]; b = sw[5]; c = sw[6]; e = sw[7];
        dw[4] = a; dw[5] = b; dw[6] = c; dw[7] = e;
      }
      for (; n >= WSIZE; n -= WSIZE) *dw++ = *sw++;
      s = (const unsigned char *)sw;
    } else {
      /* Every aligned source word read holds at least one byte that is copied: no read
       * strays outside the source's pages. */
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
