/*
 * libctest: exercises the guest C library: string and ctype functions, stdlib (conversions,
 * malloc, qsort, environment), the printf and scanf families, strtod, stdio on files, libm and
 * <fenv.h>, time, getopt, the POSIX library functions, locales and wide characters, complex.
 *
 * Most results are printed, so the golden output (from the host-native glibc build) checks them;
 * thousands of generated printf/strtod/math cases are printed as per-block hashes (-v prints each
 * case, to find a difference). Properties that need no oracle (round trips, allocator integrity)
 * are self-checked. Exit status: 0 when no self-check failed.
 *
 * usage: libctest [-v] [section...]   sections: string ctype stdlib malloc printf printf-random
 *                                     strtod scanf stdio math math99 time getopt posix
 *                                     wide complex (default: all)
 *        libctest math-dump [N]       libm results for images/libc/src/math/ulpcheck.py
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libctest.h"

int verbose;
int failures;

static uint64_t state;

void rng_seed(uint64_t s)
{
  state = s;
}

uint64_t rng(void)
{
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state;
}

uint32_t rng_below(uint32_t n)
{
  return (uint32_t)(rng() >> 32) % n;   /* 32-bit division: no 64-bit helper call on the guests */
}

double rng_bits_double(void)
{
  union { uint64_t u; double d; } v;
  do v.u = rng(); while (((v.u >> 52) & 0x7ff) == 0x7ff);
  return v.d;
}

static const char *bname;
static uint32_t bhash;
static int bcount;

void block_begin(const char *name)
{
  bname = name;
  bhash = 2166136261u;
  bcount = 0;
}

void block_case(const char *text, size_t n)
{
  for (size_t i = 0; i < n; i++) bhash = (bhash ^ (unsigned char)text[i]) * 16777619u;
  bhash = (bhash ^ '\n') * 16777619u;
  bcount++;
  if (verbose) {
    printf("  %s#%d: ", bname, bcount);
    for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)text[i];
      if (c >= ' ' && c < 127 && c != '\\') putchar(c);
      else printf("\\x%02x", c);
    }
    putchar('\n');
  }
}

void block_end(void)
{
  printf("%s: %d cases, hash %08x\n", bname, bcount, (unsigned)bhash);
}

void check(int ok, const char *what, ...)
{
  if (ok) return;
  failures++;
  va_list ap;
  va_start(ap, what);
  printf("FAIL: ");
  vprintf(what, ap);
  putchar('\n');
  va_end(ap);
}

void print_double(const char *what, double x, int digits)
{
  if (isnan(x)) printf("%s = nan\n", what);
  else if (digits) printf("%s = %.*g\n", what, digits, x);
  else printf("%s = %a\n", what, x);
}

double rng_double(int elo, int ehi, int negative_too)
{
  union { uint64_t u; double d; } v;
  uint64_t e = (uint64_t)(elo + (int)rng_below((uint32_t)(ehi - elo + 1)) + 1023);
  uint64_t s = negative_too && (rng() & 1) ? 1 : 0;
  v.u = s << 63 | e << 52 | (rng() >> 12);
  return v.d;
}

const char *hexbits(double x, char *buf)
{
  union { double d; uint64_t u; } v = { x };
  sprintf(buf, "0x%016llx", (unsigned long long)v.u);
  return buf;
}

static const struct {
  const char *name;
  void (*fn)(void);
} sections[] = {
  { "string", test_string },
  { "ctype", test_ctype },
  { "stdlib", test_stdlib },
  { "malloc", test_malloc },
  { "printf", test_printf },
  { "printf-random", test_printf_random },
  { "strtod", test_strtod },
  { "scanf", test_scanf },
  { "stdio", test_stdio },
  { "math", test_math },
  { "math99", test_math99 },
  { "time", test_time },
  { "getopt", test_getopt },
  { "posix", test_posix },
  { "wide", test_wide },
  { "complex", test_complex },
};

#define NSECTIONS (sizeof sections / sizeof sections[0])

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "math-dump") == 0) {
    if (argc > 2) mathdump_n = atoi(argv[2]);
    test_mathdump();
    return 0;
  }
  int any = 0;
  int want[NSECTIONS] = { 0 };
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0) {
      verbose = 1;
      continue;
    }
    size_t k = 0;
    while (k < NSECTIONS && strcmp(argv[i], sections[k].name) != 0) k++;
    if (k == NSECTIONS) {
      fprintf(stderr, "libctest: unknown section '%s'\n", argv[i]);
      return 2;
    }
    want[k] = 1;
    any = 1;
  }
  for (size_t k = 0; k < NSECTIONS; k++) {
    if (any && !want[k]) continue;
    printf("== %s\n", sections[k].name);
    sections[k].fn();
  }
  printf("== %d self-check failures\n", failures);
  return failures != 0;
}
