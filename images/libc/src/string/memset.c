/* memset and bzero: aligned word stores of the replicated byte. */
#include <string.h>
#include <strings.h>
#include "word.h"

NO_LOOP_CALLS void *memset(void *p, int c, size_t n)
{
  unsigned char *d = p;
  unsigned char b = (unsigned char)c;

  if (n >= 2 * WSIZE) {
    while ((uintptr_t)d & WMASK) {
      *d++ = b;
      n--;
    }
    word_t w = b * ONES;
    word_t *dw = (word_t *)d;
    for (; n >= 8 * WSIZE; n -= 8 * WSIZE, dw += 8) {
      dw[0] = w; dw[1] = w; dw[2] = w; dw[3] = w;
      dw[4] = w; dw[5] = w; dw[6] = w; dw[7] = w;
    }
    for (; n >= WSIZE; n -= WSIZE) *dw++ = w;
    d = (unsigned char *)dw;
  }
  while (n--) *d++ = b;
  return p;
}

void bzero(void *p, size_t n)
{
  memset(p, 0, n);
}
