/* The known-function experiment of mazieres-smith-1994 section 5 ("a simple, word-aligned,
 * non-overlapping bcopy of 1 Kbyte generates 268 bytes of trace data ... the optimal number ...
 * is only 12"): one call of each string function on 1 KiB, word-aligned, with the arguments
 * hidden from the compiler, so the tracer sees exactly one call of each and the bytes each
 * writes can be counted (test/tracer/known.test.ts). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define N 1024

static unsigned src[N / 4], dst[N / 4];
static char s1[N + 4], s2[N + 4];

/* The lengths come from the command line's absence: the compiler cannot fold them. */
static volatile size_t vn = N;

int main(void)
{
  size_t n = vn;
  for (unsigned i = 0; i < N / 4; i++) src[i] = i * 2654435761u;
  bcopy(src, dst, n);
  unsigned sum = 0;
  for (unsigned i = 0; i < N / 4; i++) sum += dst[i];
  memcpy(src, dst, n);
  memmove(dst, src, n);
  memset(s1, 'a', n - 1);
  memset(s2, 'a', n - 1);
  s1[n - 1] = s2[n - 1] = '\0';
  size_t len = strlen(s1);
  int c = strcmp(s1, s2);
  int m = memcmp(src, dst, n);
  strcpy(s2, s1);
  bzero(dst, n);
  printf("sum %08x len %u strcmp %d memcmp %d dst0 %u\n", sum, (unsigned)len, c, m, dst[0]);
  return 0;
}
