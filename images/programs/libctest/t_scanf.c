/* The scanf family: conversions, widths, suppression, scan sets, %n, return values. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "libctest.h"

static void ints(void)
{
  int a = -1, b = -1, c = -1, n = -1;
  unsigned u = 0;
  int r = sscanf("  42 -17 +8", "%d%d%d", &a, &b, &c);
  printf("%%d%%d%%d: %d -> %d %d %d\n", r, a, b, c);
  r = sscanf("0x1f 017 99 0X10 -0x8", "%i %i %i %i %i", &a, &b, &c, &n, (int *)&u);
  printf("%%i: %d -> %d %d %d %d %d\n", r, a, b, c, n, (int)u);
  r = sscanf("ff FF 0x7f 777 4294967295", "%x %X %x %o %u", &a, &b, &c, &n, &u);
  printf("%%x%%X%%x%%o%%u: %d -> %d %d %d %d %u\n", r, a, b, c, n, u);
  r = sscanf("123456789", "%3d%2d%d", &a, &b, &c);
  printf("widths: %d -> %d %d %d\n", r, a, b, c);
  signed char hh = 0;
  short h = 0;
  long l = 0;
  long long ll = 0;
  unsigned long long ull = 0;
  size_t z = 0;
  r = sscanf("-5 30000 -123456 -9223372036854775807 18446744073709551615 77", "%hhd %hd %ld %lld %llu %zu", &hh, &h, &l, &ll, &ull, &z);
  printf("lengths: %d -> %d %d %ld %lld %llu %zu\n", r, hh, h, l, ll, ull, z);
  r = sscanf("10 20 30", "%d %*d %d", &a, &b);
  printf("suppress: %d -> %d %d\n", r, a, b);
  r = sscanf("abc", "%d", &a);
  printf("no digits: %d\n", r);
  r = sscanf("", "%d", &a);
  printf("empty input: %d\n", r);
  r = sscanf("   ", "%d", &a);
  printf("blank input: %d\n", r);
  r = sscanf("7 x", "%d %d", &a, &b);
  printf("partial: %d -> %d\n", r, a);
  r = sscanf("12abc", "%d%n", &a, &n);
  printf("%%n: %d -> %d %d\n", r, a, n);
  r = sscanf("  x  y", " x%n y%n", &a, &b);
  printf("%%n after literals: %d -> %d %d\n", r, a, b);
  r = sscanf("100%", "%d%%", &a);
  printf("%%%%: %d -> %d\n", r, a);
  r = sscanf("5:6", "%d:%d", &a, &b);
  printf("literal: %d -> %d %d\n", r, a, b);
  r = sscanf("5;6", "%d:%d", &a, &b);
  printf("literal mismatch: %d\n", r);
  r = sscanf("-", "%d", &a);
  printf("lone sign: %d\n", r);
  void *p = NULL;
  r = sscanf("0x1234", "%p", &p);
  printf("%%p: %d -> %p\n", r, p);
}

static void strs(void)
{
  char s1[32], s2[32], s3[32];
  memset(s1, 'Z', sizeof s1);
  int r = sscanf("  hello world  again", "%s %5s %s", s1, s2, s3);
  printf("%%s: %d -> [%s] [%s] [%s]\n", r, s1, s2, s3);
  r = sscanf("abc", "%2c", s1);
  s1[2] = '\0';
  printf("%%2c: %d -> [%s]\n", r, s1);
  char c1 = 0, c2 = 0;
  r = sscanf(" x y", "%c%c", &c1, &c2);
  printf("%%c keeps spaces: %d -> [%c][%c]\n", r, c1, c2);
  r = sscanf("abc123def", "%[a-z]%[0-9]%s", s1, s2, s3);
  printf("%%[: %d -> [%s] [%s] [%s]\n", r, s1, s2, s3);
  r = sscanf("key = value;rest", "%[^ =] = %[^;];%s", s1, s2, s3);
  printf("%%[^: %d -> [%s] [%s] [%s]\n", r, s1, s2, s3);
  r = sscanf("]]a-b", "%[]]%[-ab]", s1, s2);
  printf("%%[] and -: %d -> [%s] [%s]\n", r, s1, s2);
  r = sscanf("123", "%[a-z]", s1);
  printf("%%[ no match: %d\n", r);
  r = sscanf("abcdefgh", "%3[a-z]%*2[a-z]%s", s1, s2);
  printf("%%3[ and %%*2[: %d -> [%s] [%s]\n", r, s1, s2);
}

static void floats(void)
{
  double d1 = 0, d2 = 0, d3 = 0, d4 = 0;
  float f = 0;
  int r = sscanf("3.25 -1e-3 .5E+2 0x1.8p1", "%lf %lf %lf %lf", &d1, &d2, &d3, &d4);
  printf("%%lf: %d -> %a %a %a %a\n", r, d1, d2, d3, d4);
  r = sscanf("1.5 2.5e1", "%f %le", &f, &d1);
  printf("%%f %%le: %d -> %a %a\n", r, (double)f, d1);
  r = sscanf("inf -INFINITY nan", "%lf %lf %lg", &d1, &d2, &d3);
  printf("inf/nan: %d -> %g %g %d\n", r, d1, d2, d3 != d3);
  r = sscanf("1.23456789012345678901234567890e100", "%lg", &d1);
  printf("long mantissa: %d -> %a\n", r, d1);
  r = sscanf("12.5e3xyz", "%5lf%s", &d1, (char[16]){ 0 });
  printf("width 5: %d -> %a\n", r, d1);
  char rest[16] = "";
  r = sscanf("1e+x", "%lf%s", &d1, rest);
  printf("1e+x: %d\n", r);
  r = sscanf("0.1 0.2 0.3", "%lf %*lf %lf", &d1, &d2);
  printf("suppressed float: %d -> %.17g %.17g\n", r, d1, d2);
  r = sscanf("2.2250738585072011e-308 4.9406564584124654e-324", "%lf %lf", &d1, &d2);
  printf("tiny: %d -> %a %a\n", r, d1, d2);
}

/* Generated: values printed with %.17g and read back with %lg must be exact. */
static void roundtrip(void)
{
  char buf[128];
  int bad = 0;
  rng_seed(0x5eed0009);
  for (int i = 0; i < 150; i++) {
    double x = rng_bits_double(), y = 0;
    int k = (int)(rng() >> 40) - (1 << 23);
    unsigned long long v = rng();
    snprintf(buf, sizeof buf, "<%.17g|%d|%llx>", x, k, v);
    int k2 = 0;
    unsigned long long v2 = 0;
    int r = sscanf(buf, "<%lg|%d|%llx>", &y, &k2, &v2);
    bad += r != 3 || y != x || k2 != k || v2 != v;
  }
  printf("sscanf round trips: 150 cases, %d wrong\n", bad);
  check(bad == 0, "sscanf round trip");
}

void test_scanf(void)
{
  ints();
  strs();
  floats();
  roundtrip();
}
