/*
 * random, srandom, initstate, setstate (4.2BSD's additive generator, with the seeding glibc
 * uses, so that a seed gives the same sequence as there). The state is a table of deg words
 * r[0..deg-1]; each step adds the word sep places behind to the front word and returns the sum
 * shifted right by one. Seeding fills the table with the Park-Miller generator
 * (x = 16807 x mod 2^31 - 1, from the seed; 0 counts as 1) and discards 10 * deg outputs. A
 * table of less than 8 words' worth of state (type 0) is a plain linear congruential generator.
 *
 * The caller's state buffer of initstate holds one word of bookkeeping (the type and the rear
 * position) and then the table, so that setstate can resume it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

static const struct { int deg, sep; } types[5] = { { 0, 0 }, { 7, 3 }, { 15, 1 }, { 31, 3 }, { 63, 1 } };

static uint32_t deftab[1 + 31];	/* bookkeeping word, then the table of the default type 3 */
static uint32_t *state = deftab + 1;
static int type = 3, deg = 31, sep = 3;
static int front = 3, rear = 0;	/* positions of the two words each step combines */
static int seeded;		/* before any seeding, the state is srandom(1)'s */

static uint32_t step(void)
{
  if (type == 0) {
    state[0] = (state[0] * 1103515245u + 12345u) & 0x7fffffff;
    return state[0];
  }
  state[front] += state[rear];
  uint32_t r = state[front] >> 1;
  if (++front >= deg) front = 0;
  if (++rear >= deg) rear = 0;
  return r;
}

/* Records the type and rear position in the bookkeeping word before the table. */
static void save(void)
{
  state[-1] = type == 0 ? 0 : 5u * (uint32_t)rear + (uint32_t)type;
}

void srandom(unsigned seed)
{
  seeded = 1;
  int32_t w = seed == 0 ? 1 : (int32_t)seed;
  state[0] = (uint32_t)w;
  if (type != 0) {
    for (int i = 1; i < deg; i++) {
      /* 16807 w mod 2^31 - 1 without overflow (Schrage: 2^31 - 1 = 16807 * 127773 + 2836) */
      int32_t hi = w / 127773, lo = w % 127773;
      w = 16807 * lo - 2836 * hi;
      if (w < 0) w += 2147483647;
      state[i] = (uint32_t)w;
    }
    front = sep;
    rear = 0;
    for (int i = 0; i < 10 * deg; i++) step();
  }
  save();
}

long random(void)
{
  if (!seeded) srandom(1);
  long r = (long)step();
  save();
  return r;
}

char *initstate(unsigned seed, char *buf, size_t n)
{
  char *old = (char *)(state - 1);
  int t;
  if (n < 8) {
    errno = EINVAL;
    return NULL;
  }
  save();
  t = n < 32 ? 0 : n < 64 ? 1 : n < 128 ? 2 : n < 256 ? 3 : 4;
  type = t;
  deg = types[t].deg;
  sep = types[t].sep;
  state = (uint32_t *)buf + 1;
  srandom(seed);
  return old;
}

char *setstate(char *buf)
{
  uint32_t *s = (uint32_t *)buf;
  char *old = (char *)(state - 1);
  uint32_t w = s[0];
  int t = (int)(w % 5);
  save();
  seeded = 1;
  type = t;
  deg = types[t].deg;
  sep = types[t].sep;
  state = s + 1;
  if (t != 0) {
    rear = (int)(w / 5);
    front = (rear + sep) % deg;
  }
  return old;
}
