/*
 * qsort: introsort. Quicksort with a median-of-three pivot (median of three medians for large
 * ranges) and Hoare partitioning, which splits runs of equal keys evenly; ranges of at most
 * SMALL elements are left for one final insertion sort; a range that recursion has split more
 * than 2*log2(n) times is heapsorted instead, so the worst case is O(n log n). Not stable.
 */
#include <stdint.h>
#include <stdlib.h>

#define SMALL 12

typedef int (*cmp_t)(const void *, const void *);

static void swap_bytes(char *a, char *b, size_t size)
{
  while (size--) {
    char t = *a;
    *a++ = *b;
    *b++ = t;
  }
}

static void swap_words(char *a, char *b, size_t size)
{
  uint32_t *p = (uint32_t *)(void *)a, *q = (uint32_t *)(void *)b;
  for (size /= 4; size; size--) {
    uint32_t t = *p;
    *p++ = *q;
    *q++ = t;
  }
}

struct sorter {
  size_t size;
  cmp_t cmp;
  void (*swap)(char *, char *, size_t);
};

#define SWAP(s, a, b) (s)->swap((a), (b), (s)->size)

static char *median3(const struct sorter *s, char *a, char *b, char *c)
{
  if (s->cmp(a, b) < 0) {
    if (s->cmp(b, c) < 0) return b;
    return s->cmp(a, c) < 0 ? c : a;
  }
  if (s->cmp(b, c) > 0) return b;
  return s->cmp(a, c) > 0 ? c : a;
}

static void sift_down(const struct sorter *s, char *base, size_t root, size_t n)
{
  size_t size = s->size;
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && s->cmp(base + child * size, base + (child + 1) * size) < 0) child++;
    if (s->cmp(base + root * size, base + child * size) >= 0) return;
    SWAP(s, base + root * size, base + child * size);
    root = child;
  }
}

static void heapsort(const struct sorter *s, char *base, size_t n)
{
  for (size_t i = n / 2; i-- > 0;) sift_down(s, base, i, n);
  for (size_t end = n - 1; end > 0; end--) {
    SWAP(s, base, base + end * s->size);
    sift_down(s, base, 0, end);
  }
}

static void introsort(const struct sorter *s, char *base, size_t n, int depth)
{
  size_t size = s->size;
  while (n > SMALL) {
    if (depth-- == 0) {
      heapsort(s, base, n);
      return;
    }
    char *lo = base, *hi = base + (n - 1) * size, *mid = base + (n / 2) * size;
    if (n > 64) {
      size_t d = (n / 8) * size;
      lo = median3(s, lo, lo + d, lo + 2 * d);
      mid = median3(s, mid - d, mid, mid + d);
      hi = median3(s, hi - 2 * d, hi - d, hi);
    }
    char *pivot = median3(s, lo, mid, hi);
    if (pivot != base) SWAP(s, base, pivot);
    /* Hoare partition around base[0]: both scans stop on keys equal to the pivot. */
    char *i = base, *j = base + n * size;
    for (;;) {
      do i += size; while (i < j && s->cmp(i, base) < 0);
      do j -= size; while (s->cmp(j, base) > 0);
      if (i >= j) break;
      SWAP(s, i, j);
    }
    SWAP(s, base, j);
    /* base[0..k) <= pivot == base[k] <= base[k+1..n): recurse on the smaller side. */
    size_t k = (size_t)(j - base) / size;
    size_t left = k, right = n - k - 1;
    if (left < right) {
      introsort(s, base, left, depth);
      base = j + size;
      n = right;
    } else {
      introsort(s, j + size, right, depth);
      n = left;
    }
  }
}

static void insertion(const struct sorter *s, char *base, size_t n)
{
  size_t size = s->size;
  for (size_t i = 1; i < n; i++)
    for (char *p = base + i * size; p > base && s->cmp(p - size, p) > 0; p -= size) SWAP(s, p - size, p);
}

void qsort(void *base, size_t n, size_t size, cmp_t cmp)
{
  if (n < 2 || size == 0) return;
  struct sorter s = { size, cmp, swap_bytes };
  if (size % 4 == 0 && ((uintptr_t)base & 3) == 0) s.swap = swap_words;
  int depth = 0;
  for (size_t m = n; m > 1; m >>= 1) depth += 2;
  introsort(&s, base, n, depth);
  insertion(&s, base, n);
}
