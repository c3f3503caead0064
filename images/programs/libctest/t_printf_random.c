/*
 * printf with generated cases: random formats (conversion, flags, width, precision, length)
 * applied to random values, hashed per block. The values are chosen to hit the hard parts of
 * exact conversion: every binary exponent, short decimal values, exact decimal ties, values
 * next to powers of ten, subnormals.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "libctest.h"

#define FP_CASES 1500
#define INT_CASES 500
#define BLOCK 500

static char out[2048];

static double pow10i(int k)
{
  double p = 1;
  for (int i = 0; i < (k < 0 ? -k : k); i++) p *= 10;
  return k < 0 ? 1 / p : p;
}

static double random_value(void)
{
  switch (rng_below(8)) {
  case 0:
  case 1:
    return rng_bits_double();
  case 2: {
    /* A short decimal: up to 9 digits, scaled by a power of ten. */
    double v = (double)(rng() >> 35 & 0x3fffffff) / 1000.0;
    return v * pow10i((int)rng_below(21) - 10) * (rng() & 1 ? -1 : 1);
  }
  case 3: {
    /* An exact tie at some decimal position: an odd number of 2^-k. */
    int k = (int)rng_below(12) + 1;
    double v = (double)((rng() >> 40) | 1);
    while (k--) v /= 2;
    return v;
  }
  case 4: {
    /* Next to a power of ten. */
    double p = pow10i((int)rng_below(60) - 30);
    union { double d; uint64_t u; } v = { p };
    v.u += (int64_t)rng_below(5) - 2;
    return v.d;
  }
  case 5: {
    /* Subnormal. */
    union { uint64_t u; double d; } v = { rng() >> (12 + rng_below(52)) };
    return v.d;
  }
  case 6:
    return (double)(int32_t)(rng() >> 32) / (double)(rng_below(1000) + 1);
  default: {
    /* Moderate magnitudes with full 53-bit significands. */
    union { uint64_t u; double d; } v = { (rng() & 0x800fffffffffffffULL) | ((uint64_t)(1023 - 40 + rng_below(80)) << 52) };
    return v.d;
  }
  }
}

/* Appends random flags, width and precision to fmt (after the '%'). */
static char *spec(char *p, int maxprec)
{
  static const char flags[] = "-+ #0";
  for (int i = 0; i < 5; i++)
    if (rng_below(5) == 0) *p++ = flags[i];
  if (rng_below(2)) p += sprintf(p, "%u", rng_below(30));
  if (rng_below(4)) {
    uint32_t r = rng_below(20);
    int prec = r < 15 ? (int)rng_below(18) : r < 19 ? (int)rng_below((uint32_t)maxprec) : (int)rng_below(400);
    p += sprintf(p, ".%d", prec);
  }
  return p;
}

/* "fmt output n", output taken as the n bytes snprintf reported (it may hold a NUL). */
static int compose(char *line, const char *fmt, int n)
{
  char *p = stpcpy(line, fmt);
  *p++ = ' ';
  if (n > 0 && n < (int)sizeof out) {
    memcpy(p, out, (size_t)n);
    p += n;
  }
  p += sprintf(p, " %d", n);
  return (int)(p - line);
}

static char line[sizeof out + 64];

static void fp_cases(void)
{
  static const char convs[] = "ffffeeeegggFEGaA";
  char fmt[32], name[32];
  rng_seed(0x5eed0001);
  for (int b = 0; b < FP_CASES / BLOCK; b++) {
    sprintf(name, "printf-fp-%d", b);
    block_begin(name);
    for (int i = 0; i < BLOCK; i++) {
      char c = convs[rng_below(sizeof convs - 1)];
      char *p = fmt;
      *p++ = '%';
      p = spec(p, c == 'a' || c == 'A' ? 16 : 60);
      *p++ = c;
      *p = '\0';
      double v = random_value();
      int n = snprintf(out, sizeof out, fmt, v);
      block_case(line, (size_t)compose(line, fmt, n));
    }
    block_end();
  }
}

static void int_cases(void)
{
  static const char convs[] = "diuxXoc";
  static const char *const lens[] = { "", "hh", "h", "l", "ll", "ll", "z" };
  char fmt[32], name[32];
  rng_seed(0x5eed0002);
  for (int b = 0; b < INT_CASES / BLOCK; b++) {
    sprintf(name, "printf-int-%d", b);
    block_begin(name);
    for (int i = 0; i < BLOCK; i++) {
      char c = convs[rng_below(sizeof convs - 1)];
      int li = c == 'c' ? 0 : (int)rng_below(7);
      char *p = fmt;
      *p++ = '%';
      p = spec(p, 25);
      p = stpcpy(p, lens[li]);
      *p++ = c;
      *p = '\0';
      uint64_t v = rng() >> rng_below(64);
      if (rng_below(3) == 0) v = (uint64_t)-(int64_t)v;
      int n;
      /* Each length gets an argument of its own type. long and size_t are 64-bit on the host:
       * they get values that print the same at 32 bits (non-negative for the unsigned
       * conversions and for size_t). */
      int sgn = c == 'd' || c == 'i';
      if (li == 3) n = snprintf(out, sizeof out, fmt, sgn ? (long)(int32_t)v : (long)(v & 0x7fffffff));
      else if (li == 4 || li == 5) n = snprintf(out, sizeof out, fmt, (long long)v);
      else if (li == 6) n = snprintf(out, sizeof out, fmt, (size_t)(v & 0x7fffffff));
      else n = snprintf(out, sizeof out, fmt, (int)(uint32_t)v);
      block_case(line, (size_t)compose(line, fmt, n));
    }
    block_end();
  }
}

void test_printf_random(void)
{
  fp_cases();
  int_cases();
}
