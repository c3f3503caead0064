/*
 * The allocator, self-checked: many blocks of random sizes allocated, marked with a pattern
 * derived from their identity (every byte of the first and last 8, and every 61st byte between),
 * freed and reallocated in random order; every block's pattern must survive every other
 * operation (no overlap, no clobbered neighbour), and results must be 8-byte aligned.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libctest.h"

#define SLOTS 600

static unsigned char *blk[SLOTS];
static size_t len[SLOTS];
static unsigned char tag[SLOTS];

/* The next byte of a block to mark or check after byte k. */
static size_t step(size_t k, size_t n)
{
  return k < 8 || k + 8 >= n ? k + 1 : k + 61 < n - 8 ? k + 61 : n - 8;
}

static void fill(int i)
{
  for (size_t k = 0; k < len[i]; k = step(k, len[i])) blk[i][k] = (unsigned char)(tag[i] + k * 13);
}

static int intact(int i)
{
  for (size_t k = 0; k < len[i]; k = step(k, len[i]))
    if (blk[i][k] != (unsigned char)(tag[i] + k * 13)) return 0;
  return 1;
}

static size_t random_size(void)
{
  uint32_t r = rng_below(100);
  if (r < 70) return rng_below(64);
  if (r < 95) return rng_below(2000);
  return rng_below(40000);
}

void test_malloc(void)
{
  rng_seed(0x5eed0004);
  int corrupt = 0, misaligned = 0, nulls = 0, ops = 0;
  for (int round = 0; round < 1500; round++) {
    int i = (int)rng_below(SLOTS);
    uint32_t op = rng_below(10);
    ops++;
    if (blk[i] && !intact(i)) corrupt++;
    if (blk[i] == NULL || op < 3) {
      free(blk[i]);
      len[i] = random_size();
      blk[i] = op == 0 ? calloc(1, len[i]) : malloc(len[i]);
      if (blk[i] == NULL) {
        nulls++;
        continue;
      }
      if (op == 0)
        for (size_t k = 0; k < len[i]; k++) corrupt += blk[i][k] != 0;
      tag[i] = (unsigned char)rng();
      fill(i);
    } else if (op < 6) {
      size_t n = random_size();
      unsigned char *p = realloc(blk[i], n);
      if (p == NULL && n) {
        nulls++;
        continue;
      }
      /* the common prefix must have moved with the block */
      size_t keep = n < len[i] ? n : len[i];
      for (size_t k = 0; k < keep; k = step(k, len[i])) corrupt += p[k] != (unsigned char)(tag[i] + k * 13);
      blk[i] = p;
      len[i] = n;
      fill(i);
    } else if (op < 8) {
      free(blk[i]);
      blk[i] = NULL;
      len[i] = 0;
    }
    if (blk[i] && ((uintptr_t)blk[i] & 7)) misaligned++;
  }
  for (int i = 0; i < SLOTS; i++) {
    if (blk[i] && !intact(i)) corrupt++;
    free(blk[i]);
    blk[i] = NULL;
  }
  /* Freed memory is reused: a burst of small blocks after freeing everything. */
  void *p[1000];
  for (int i = 0; i < 1000; i++) p[i] = malloc(16);
  for (int i = 0; i < 1000; i++) free(p[i]);
  void *q = malloc(16000);
  int edge = malloc(0) != NULL;
  free(q);
  printf("malloc: %d operations, %d corrupted bytes or blocks, %d misaligned, %d failed; malloc(0) %s\n", ops, corrupt, misaligned,
         nulls, edge ? "non-NULL" : "NULL");
  check(corrupt == 0 && misaligned == 0 && nulls == 0, "malloc integrity");
  check(calloc((size_t)-1 / 2, 4) == NULL, "calloc overflow is refused");
  char *s = malloc(10);
  strcpy(s, "realloc");
  s = realloc(s, 100000);
  s = realloc(s, 5);
  s[4] = '\0';
  printf("realloc grow then shrink keeps \"%s\"\n", s);
  free(s);
}
