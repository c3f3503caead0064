/*
 * strtod/strtof: hand-picked inputs (printed with the exact result bits and the end offset),
 * generated decimal strings (hashed), exact halfway cases between adjacent doubles and their
 * neighbours (hashed), and the round trip x -> "%.17g" -> x (self-checked).
 */
#include <errno.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libctest.h"

#define RANDOM_CASES 800
#define HALFWAY_CASES 240
#define ROUNDTRIP_CASES 400

static uint64_t bits(double x)
{
  union { double d; uint64_t u; } v = { x };
  return v.u;
}

/* NaN results are shown as "nan" (their payload and sign are the platform's). */
static void show(const char *s)
{
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  int e = errno;
  float f = strtof(s, NULL);
  if (d != d) printf("\"%s\" -> nan", s);
  else printf("\"%s\" -> %a %016llx", s, d, (unsigned long long)bits(d));
  printf(" end %d%s; strtof %a\n", (int)(end - s), e == ERANGE ? " ERANGE" : "", f != f ? 0.0 : (double)f);
}

static void fixed(void)
{
  static const char *const in[] = {
    "0", "-0", "1", "-1", "0.1", "1e23", "8.98846567431158e307", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "2e308", "-1e999", "2.2250738585072011e-308", "2.2250738585072012e-308",
    "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
    "1e-324", "1e-400", "123456789012345678901234567890", "0.000000000000000000000000000001", "9007199254740993",
    "9007199254740992.9999999999999999999", "3.14159265358979323846264338327950288", "   +.5e1x", "5.", ".5", ".",
    "e5", "1e", "1e+", "1e+-5", "1.5E-3", "0x1p0", "0x1.8p1", "0X.8P-1", "0x1.fffffffffffff8p1023",
    "0x1.fffffffffffff7p1023", "0x1p-1074", "0x1p-1075", "0x1.0000000000001p-1075", "0x3p-1076", "0x", "0x.p1",
    "0x1.23456789abcdef0123456789p+2", "0xAbC.dEfP-4", "inf", "-INF", "Infinity", "infinit", "nan", "-NaN",
    "nan(123abc)", "nan(", "nanx", "1.000000000000000111022302462515654042363166809082031250",
    "1.000000000000000111022302462515654042363166809082031251", "1.000000000000000111022302462515654042363166809082031249",
    "7.2057594037927933e16", "2.0000000000000004440892098500626161694526672363281250",
    "0.000000000000000000000000000000000000000000000000000000000000000000000000000001e78",
    "100000000000000000000000000000000000000000000000000000000000000000000000000000e-78",
  };
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) show(in[i]);
  /* 800-digit inputs: beyond the digits kept, only their being nonzero matters. */
  static char big[1200];
  memset(big, 0, sizeof big);
  strcpy(big, "1.");
  memset(big + 2, '0', 900);
  strcpy(big + 902, "1e0");
  show(big);
  big[902] = '\0';
  show(big);
  memset(big, '9', 1000);
  big[1000] = '\0';
  show(big);
  strcpy(big, "0.");
  memset(big + 2, '0', 330);
  strcpy(big + 332, "24703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-1");
  show(big);
}

static void hex_of(const char *s, char *out, size_t n)
{
  char *end;
  double d = strtod(s, &end);
  snprintf(out, n, "%s %016llx %d", s, (unsigned long long)bits(d), (int)(end - s));
}

static void generated(void)
{
  char s[128], line[256];
  rng_seed(0x5eed0006);
  block_begin("strtod-random");
  for (int i = 0; i < RANDOM_CASES; i++) {
    /* 1 to 25 digits, a decimal point somewhere, an exponent from -340 to 320. */
    int nd = (int)rng_below(25) + 1, point = (int)rng_below((uint32_t)nd + 1);
    char *p = s;
    if (rng() & 1) *p++ = '-';
    for (int k = 0; k < nd; k++) {
      if (k == point) *p++ = '.';
      *p++ = (char)('0' + rng_below(10));
    }
    sprintf(p, "e%d", (int)rng_below(661) - 340);
    hex_of(s, line, sizeof line);
    block_case(line, strlen(line));
  }
  block_end();
}

/*
 * The exact decimal value of the midpoint between a double and its successor, from printf's
 * exact %.Nf of both and a decimal average; then the midpoint itself (which must round to the
 * even neighbour) and strings just below and just above it.
 */
static void try_halfway(const char *s, int dir, double lo, double hi, uint64_t lobits)
{
  char line[64];
  double r = strtod(s, NULL);
  double want = dir < 0 ? lo : dir > 0 ? hi : (lobits & 1) ? hi : lo;
  int k = snprintf(line, sizeof line, "%d %016llx %016llx", dir, (unsigned long long)lobits, (unsigned long long)bits(r));
  block_case(line, (size_t)k);
  check(r == want, "strtod halfway %d of %a", dir, lo);
}

static void halfway(void)
{
  static char a[1200], b[1200], m[1220], t[1220];
  rng_seed(0x5eed0007);
  block_begin("strtod-halfway");
  for (int i = 0; i < HALFWAY_CASES; i++) {
    /* Exponents within 2^60 either way keep the strings short; some subnormals too. */
    union { uint64_t u; double d; } x, y;
    if (i % 30 == 29) x.u = rng() >> (12 + rng_below(40));
    else x.u = ((uint64_t)(1023 - 60 + rng_below(120)) << 52) | (rng() >> 12);
    y.u = x.u + 1;
    /* Enough digits to be exact: 1074 after the point for subnormals, 115 for |x| >= 2^-60. */
    int prec = i % 30 == 29 ? 1100 : 120;
    snprintf(a, sizeof a, "%.*f", prec, x.d);
    snprintf(b, sizeof b, "%.*f", prec, y.d);
    size_t n = strlen(a);
    if (strlen(b) != n) continue;   /* the successor gained an integer digit: skip */
    /* m = (a + b) / 2: add digit by digit from the right, then halve from the left. */
    int carry = 0;
    for (size_t k = n; k-- > 0;) {
      if (a[k] == '.') {
        m[k + 1] = '.';
        continue;
      }
      int v = (a[k] - '0') + (b[k] - '0') + carry;
      m[k + 1] = (char)('0' + v % 10);
      carry = v / 10;
    }
    m[0] = (char)('0' + carry);
    int rem = 0;
    for (size_t k = 0; k <= n; k++) {
      if (m[k] == '.') continue;
      int v = rem * 10 + (m[k] - '0');
      m[k] = (char)('0' + v / 2);
      rem = v % 2;
    }
    n++;
    if (rem) m[n++] = '5';
    m[n] = '\0';
    while (m[n - 1] == '0') m[--n] = '\0';   /* trailing fraction zeros (the point stays) */
    if (m[n - 1] == '.') m[--n] = '\0';
    char *mid = m[0] == '0' && m[1] != '.' && m[1] ? m + 1 : m;
    try_halfway(mid, 0, x.d, y.d, x.u);
    snprintf(t, sizeof t, "%s%s0001", mid, strchr(mid, '.') ? "" : ".");
    try_halfway(t, 1, x.d, y.d, x.u);
    char last = m[n - 1];
    if (last != '0' && last != '.') {
      snprintf(t, sizeof t, "%.*s%c%s9999", (int)(n - 1 - (size_t)(mid - m)), mid, last - 1, strchr(mid, '.') ? "" : ".");
      try_halfway(t, -1, x.d, y.d, x.u);
    }
  }
  block_end();
}

static void roundtrip(void)
{
  char s[64];
  int bad = 0;
  rng_seed(0x5eed0008);
  for (int i = 0; i < ROUNDTRIP_CASES; i++) {
    double x = rng_bits_double();
    snprintf(s, sizeof s, "%.17g", x);
    bad += bits(strtod(s, NULL)) != bits(x);
    float f;
    union { uint32_t u; float f; } fu;
    do fu.u = (uint32_t)(rng() >> 32); while ((fu.u & 0x7f800000) == 0x7f800000);
    f = fu.f;
    snprintf(s, sizeof s, "%.9g", (double)f);
    union { float f; uint32_t u; } back = { strtof(s, NULL) };
    bad += back.u != fu.u;
  }
  printf("round trips (double %%.17g and float %%.9g): %d cases, %d wrong\n", 2 * ROUNDTRIP_CASES, bad);
  check(bad == 0, "strtod round trip");
  printf("atof %a\n", atof("  6.02214076e23 mol"));
}

void test_strtod(void)
{
  fixed();
  generated();
  halfway();
  roundtrip();
}
