/* stdlib: integer conversions, qsort, bsearch, div/abs, the environment, rand, atexit. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libctest.h"

static void conversions(void)
{
  static const struct { const char *s; int base; } in[] = {
    { "0", 10 }, { "  42", 10 }, { "-17xyz", 10 }, { "+5", 10 }, { "2147483647", 10 }, { "2147483648", 10 },
    { "-2147483648", 10 }, { "-2147483649", 10 }, { "0x1F", 16 }, { "0x1F", 0 }, { "017", 0 }, { "09", 0 },
    { "0xg", 16 }, { "0x", 0 }, { "z", 36 }, { "ZZ", 36 }, { "101", 2 }, { "", 10 }, { "   ", 10 }, { "-", 10 },
    { "4294967295", 10 }, { "4294967296", 10 }, { "-1", 10 }, { "9223372036854775807", 10 }, { "9223372036854775808", 10 },
    { "-9223372036854775808", 10 }, { "18446744073709551615", 10 }, { "18446744073709551616", 10 },
    { "\t\n +0777", 8 }, { "-0x8000000000000000", 0 }, { "99999999999999999999999", 10 },
  };
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    const char *s = in[i].s;
    char *end;
    errno = 0;
    long l = strtol(s, &end, in[i].base);
    int e1 = errno, o1 = (int)(end - s);
    errno = 0;
    unsigned long ul = strtoul(s, &end, in[i].base);
    int e2 = errno, o2 = (int)(end - s);
    errno = 0;
    long long ll = strtoll(s, &end, in[i].base);
    int e3 = errno, o3 = (int)(end - s);
    errno = 0;
    unsigned long long ull = strtoull(s, &end, in[i].base);
    int e4 = errno, o4 = (int)(end - s);
    /* long is 64-bit on the host: strtol and strtoul results are shown only where they agree
     * with a 32-bit long (in range there); the long long forms are the same everywhere. */
    int l32 = l >= INT32_MIN && l <= INT32_MAX && e1 == 0 && ll == l;
    int ul32 = ul <= UINT32_MAX && e2 == 0 && (ull == ul) && s[strspn(s, " \t\n")] != '-';
    printf("\"%s\" base %d: ", s, in[i].base);
    if (l32) printf("strtol %ld/%d/%d ", l, e1 == ERANGE, o1);
    else printf("strtol - ");
    if (ul32) printf("strtoul %lu/%d/%d ", ul, e2 == ERANGE, o2);
    else printf("strtoul - ");
    printf("strtoll %lld/%d/%d strtoull %llu/%d/%d\n", ll, e3 == ERANGE, o3, ull, e4 == ERANGE, o4);
  }
  printf("atoi %d %d %d atol %ld atoll %lld\n", atoi("123abc"), atoi("-0"), atoi("  -99"), atol("77"), atoll("-1234567890123"));
  printf("strtoimax %" PRIdMAX " strtoumax %" PRIuMAX "\n", strtoimax("-123456789012", NULL, 10), strtoumax("777777777777", NULL, 8));
  printf("abs %d %ld %lld div %d %d ldiv %ld %ld lldiv %lld %lld\n", abs(-5), labs(-6L), llabs(-7LL), div(-7, 2).quot, div(-7, 2).rem,
         ldiv(7L, -2L).quot, ldiv(7L, -2L).rem, lldiv(-10000000000LL, 3).quot, lldiv(-10000000000LL, 3).rem);
  printf("imaxabs %" PRIdMAX " imaxdiv %" PRIdMAX " %" PRIdMAX "\n", imaxabs(-(intmax_t)1 << 40), imaxdiv(100, -7).quot, imaxdiv(100, -7).rem);
}

static int cmp_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

struct rec {
  char name[11];
  int key;
};

static int cmp_rec(const void *a, const void *b)
{
  const struct rec *x = a, *y = b;
  return (x->key > y->key) - (x->key < y->key);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sorting(void)
{
  enum { N = 1000 };
  static int a[N];
  int bad = 0;
  static const char *const kinds[] = { "random", "sorted", "reversed", "equal", "sawtooth", "organ" };
  for (int k = 0; k < 6; k++) {
    rng_seed(0x5eed0003 + (uint64_t)k);
    uint32_t sum = 0;
    for (int i = 0; i < N; i++) {
      switch (k) {
      case 0: a[i] = (int)(rng() >> 33) - (1 << 29); break;
      case 1: a[i] = i; break;
      case 2: a[i] = N - i; break;
      case 3: a[i] = 7; break;
      case 4: a[i] = i % 17; break;
      default: a[i] = i < N / 2 ? i : N - i; break;
      }
      sum += (uint32_t)a[i];
    }
    qsort(a, N, sizeof a[0], cmp_int);
    uint32_t sum2 = 0;
    for (int i = 0; i < N; i++) {
      sum2 += (uint32_t)a[i];
      if (i && a[i - 1] > a[i]) bad++;
    }
    printf("qsort %s: first %d last %d median %d sum %s\n", kinds[k], a[0], a[N - 1], a[N / 2], sum == sum2 ? "kept" : "LOST");
    check(sum == sum2, "qsort keeps elements (%s)", kinds[k]);
  }
  check(bad == 0, "qsort orders");
  /* Odd-sized records (byte swaps) with distinct keys. */
  static struct rec r[500];
  for (int i = 0; i < 500; i++) {
    r[i].key = (int)((i * 7919u) % 500u);
    snprintf(r[i].name, sizeof r[i].name, "n%d", r[i].key);
  }
  qsort(r, 500, sizeof r[0], cmp_rec);
  int rbad = 0;
  for (int i = 0; i < 500; i++) rbad += r[i].key != i || strcmp(r[i].name + 1, "") == 0 || atoi(r[i].name + 1) != i;
  printf("qsort records (size %zu): %d misplaced\n", sizeof r[0], rbad);
  check(rbad == 0, "qsort records");
  const char *words[] = { "pear", "apple", "fig", "banana", "cherry", "date", "elderberry", "grape" };
  qsort(words, 8, sizeof words[0], cmp_str);
  printf("qsort strings:");
  for (int i = 0; i < 8; i++) printf(" %s", words[i]);
  printf("\n");
  int keys[] = { -5, 0, 1, 2, 3, 1000, 1999, 2000 };
  for (int i = 0; i < N; i++) a[i] = 2 * i;
  printf("bsearch:");
  for (int i = 0; i < 8; i++) {
    int *p = bsearch(&keys[i], a, N, sizeof a[0], cmp_int);
    printf(" %d->%d", keys[i], p ? (int)(p - a) : -1);
  }
  printf("\n");
}

static void environment(void)
{
  printf("getenv(NOPE) %s\n", getenv("NOPE_NOT_SET") ? "set" : "(null)");
  /* Every call in its own statement: the order of evaluation of printf's arguments is unspecified. */
  int r = setenv("LIBCTEST_A", "one", 1);
  printf("setenv %d getenv %s ", r, getenv("LIBCTEST_A"));
  r = setenv("LIBCTEST_A", "two", 0);
  printf("setenv(no overwrite) %d %s ", r, getenv("LIBCTEST_A"));
  r = setenv("LIBCTEST_A", "three", 1);
  printf("setenv(overwrite) %d %s\n", r, getenv("LIBCTEST_A"));
  static char pe[] = "LIBCTEST_B=putenv";
  r = putenv(pe);
  printf("putenv %d %s ", r, getenv("LIBCTEST_B"));
  r = unsetenv("LIBCTEST_A");
  printf("unsetenv %d %s ", r, getenv("LIBCTEST_A") ? "still set" : "(null)");
  errno = 0;
  r = setenv("A=B", "x", 1);
  printf("setenv(bad name) %d %d\n", r, errno == EINVAL);
  for (int i = 0; i < 50; i++) {
    char name[16], value[16];
    snprintf(name, sizeof name, "LCT_%d", i);
    snprintf(value, sizeof value, "v%d", i * i);
    setenv(name, value, 1);
  }
  int envbad = 0;
  for (int i = 0; i < 50; i++) {
    char name[16], value[16];
    snprintf(name, sizeof name, "LCT_%d", i);
    snprintf(value, sizeof value, "v%d", i * i);
    envbad += getenv(name) == NULL || strcmp(getenv(name), value) != 0;
  }
  printf("50 more variables: %d wrong\n", envbad);
  check(envbad == 0, "setenv/getenv");
}

/* rand() is not glibc's generator (see <stdlib.h>): checked against its documented formula,
 * not printed. */
static void randomness(void)
{
#ifdef __GLIBC__
  printf("rand: documented LCG checked\n");
#else
  uint64_t s = 12345;
  srand(12345);
  int bad = 0;
  for (int i = 0; i < 1000; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    bad += rand() != (int)(s >> 33);
  }
  check(bad == 0 && RAND_MAX == 0x7fffffff, "rand follows its documented LCG");
  printf("rand: documented LCG checked\n");
#endif
}

static void bye2(void)
{
  printf("atexit handler 2 (runs first)\n");
}

static void bye1(void)
{
  printf("atexit handler 1 (runs second); stdout is flushed after it\n");
}

void test_stdlib(void)
{
  conversions();
  sorting();
  environment();
  randomness();
  atexit(bye1);
  atexit(bye2);
}
