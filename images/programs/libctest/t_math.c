/*
 * libm. The exact functions (sqrt, rounding, fmod, frexp, ...) print every bit (%a). The
 * transcendental ones print 14 significant digits (13 for those where glibc itself is off by
 * an ulp or more: expm1, log1p, sinh, cosh, tanh): the guest libm is within about 0.505 ulp
 * everywhere, so the printed digits agree with glibc's unless the value lies within an ulp of a
 * rounding boundary of the printed precision. NaN results print as "nan" whatever their sign
 * bit, which differs between x86 and the guests' default NaN.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "libctest.h"

typedef double (*fn1)(double);

static const double specials[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10.0, 100.0, 1e-300, 4.9406564584124654e-324,
                                   1e300, DBL_MAX, INFINITY, -INFINITY };

static void one(const char *name, fn1 f, int digits, int elo, int ehi, int neg, int n)
{
  char what[64];
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
    snprintf(what, sizeof what, "%s(%a)", name, specials[i]);
    print_double(what, f(specials[i]), digits);
  }
  snprintf(what, sizeof what, "%s(nan)", name);
  print_double(what, f(NAN), digits);
  for (int i = 0; i < n; i++) {
    double x = rng_double(elo, ehi, neg);
    snprintf(what, sizeof what, "%s(%a)", name, x);
    print_double(what, f(x), digits);
  }
}

static void exact(void)
{
  one("sqrt", sqrt, 0, -1074, 1023, 0, 40);
  one("floor", floor, 0, -3, 60, 1, 12);
  one("ceil", ceil, 0, -3, 60, 1, 12);
  one("trunc", trunc, 0, -3, 60, 1, 12);
  one("round", round, 0, -3, 60, 1, 12);
  one("rint", rint, 0, -3, 60, 1, 12);
  one("fabs", fabs, 0, -3, 60, 1, 4);
  const double halves[] = { 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 4503599627370495.5, -4503599627370497.0 };
  for (size_t i = 0; i < sizeof halves / sizeof halves[0]; i++) {
    double h = halves[i], ip;
    printf("%a: floor %a ceil %a trunc %a round %a rint %a nearbyint %a llround %lld\n", h, floor(h), ceil(h), trunc(h),
           round(h), rint(h), nearbyint(h), llround(h));
    double fr = modf(h, &ip);
    printf("  modf %a %a\n", fr, ip);
  }
  const double fm[][2] = { { 5.5, 2 }, { -5.5, 2 }, { 5.5, -2 }, { 1e300, 3 }, { 1e-300, 7e-310 }, { 3, 3 }, { -0.0, 1 },
                           { 1, INFINITY }, { 7.25, 0.5 }, { DBL_MAX, 4.9406564584124654e-324 }, { 6.0221e23, 1.6e-19 } };
  for (size_t i = 0; i < sizeof fm / sizeof fm[0]; i++)
    printf("fmod(%a, %a) = %a\n", fm[i][0], fm[i][1], fmod(fm[i][0], fm[i][1]));
  for (int i = 0; i < 30; i++) {
    double x = rng_double(-1074, 1023, 1), y = rng_double(-60, 60, 1);
    printf("fmod(%a, %a) = %a\n", x, y, fmod(x, y));
  }
  const double fx[] = { 0.0, -0.0, 1.0, 0.75, -3e300, 4.9406564584124654e-324, 2.2250738585072014e-308, 1e-310, INFINITY };
  for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
    int e = 99;
    double m = frexp(fx[i], &e);
    printf("frexp(%a) = %a, %d; ilogb %d\n", fx[i], m, fx[i] == INFINITY ? 0 : e, fx[i] == 0 || isinf(fx[i]) ? 0 : ilogb(fx[i]));
  }
  const int le[] = { 0, 1, -1, 1023, 1024, -1022, -1074, -1075, 2000, -2000, 52 };
  for (size_t i = 0; i < sizeof le / sizeof le[0]; i++)
    printf("ldexp(1.5, %d) = %a  ldexp(0x1.fffffffffffffp-1, %d) = %a  scalbn(3, %d) = %a\n", le[i], ldexp(1.5, le[i]), le[i],
           ldexp(0x1.fffffffffffffp-1, le[i]), le[i], scalbn(3, le[i]));
  printf("ldexp rounding: %a %a %a\n", ldexp(0x1.8p-1070, -4), ldexp(0x1.4p-1070, -4), ldexp(0x1.fffffffffffffp0, -1075));
  printf("copysign %a %a fmin %a fmax %a fmin(nan,1) %a fdim %a %a\n", copysign(3, -0.0), copysign(-3, 1), fmin(-0.0, 0.0),
         fmax(-0.0, 0.0), fmin(NAN, 1), fdim(5, 3), fdim(3, 5));
  const double hy[][2] = { { 3, 4 }, { 1e300, 1e300 }, { 1e-320, 1e-320 }, { INFINITY, NAN }, { 5e-324, 0 }, { -2, 1e-20 } };
  for (size_t i = 0; i < sizeof hy / sizeof hy[0]; i++) printf("hypot(%a, %a) = %a\n", hy[i][0], hy[i][1], hypot(hy[i][0], hy[i][1]));
}

static void transcendental(void)
{
  one("exp", exp, 14, -30, 9, 1, 30);
  one("exp2", exp2, 14, -30, 10, 1, 20);
  one("expm1", expm1, 13, -30, 9, 1, 20);
  one("log", log, 14, -1074, 1023, 0, 30);
  one("log10", log10, 14, -1074, 1023, 0, 20);
  one("log2", log2, 14, -1074, 1023, 0, 20);
  one("log1p", log1p, 13, -30, 30, 0, 20);
  one("sin", sin, 14, -30, 1023, 1, 40);
  one("cos", cos, 14, -30, 1023, 1, 40);
  one("tan", tan, 14, -30, 60, 1, 30);
  one("atan", atan, 14, -30, 60, 1, 30);
  one("asin", asin, 14, -30, -1, 1, 25);
  one("acos", acos, 14, -30, -1, 1, 25);
  one("sinh", sinh, 13, -30, 9, 1, 20);
  one("cosh", cosh, 13, -30, 9, 1, 20);
  one("tanh", tanh, 13, -30, 5, 1, 20);
  const double ps[][2] = { { 2, 10 }, { 2, 0.5 }, { 10, -2 }, { -2, 3 }, { -2, 4 }, { -2, 0.5 }, { 0, -1 }, { -0.0, -3 },
                           { -0.0, 3 }, { 0, 0 }, { NAN, 0 }, { 1, NAN }, { -1, INFINITY }, { 0.5, INFINITY },
                           { 0.5, -INFINITY }, { 2, -INFINITY }, { -INFINITY, 3 }, { -INFINITY, -3 }, { -INFINITY, 2 },
                           { INFINITY, -0.5 }, { 10, 308 }, { 10, 309 }, { 10, -323 }, { 10, -324 }, { 2, -1074 },
                           { 2, 1023.5 }, { 1.0000001, 1e9 }, { 0.9999999, -1e9 }, { 3, 1.0 / 3 }, { 1e-10, 0.1 } };
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    char what[64];
    snprintf(what, sizeof what, "pow(%a, %a)", ps[i][0], ps[i][1]);
    print_double(what, pow(ps[i][0], ps[i][1]), 14);
  }
  for (int i = 0; i < 40; i++) {
    double x = rng_double(-20, 20, 0), y = rng_double(-6, 6, 1);
    char what[64];
    snprintf(what, sizeof what, "pow(%a, %a)", x, y);
    print_double(what, pow(x, y), 14);
  }
  const double at[][2] = { { 0.0, -0.0 }, { -0.0, -0.0 }, { 0.0, 0.0 }, { 1, 0 }, { -1, 0 }, { 0, -1 }, { INFINITY, INFINITY },
                           { INFINITY, -INFINITY }, { -INFINITY, 1 }, { 1, -INFINITY }, { 1e300, 1e-300 }, { 1e-300, 1e300 },
                           { 1e-300, -1e300 }, { 1, 1 }, { -1, -1 }, { 5e-324, 5e-324 } };
  for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
    char what[64];
    snprintf(what, sizeof what, "atan2(%a, %a)", at[i][0], at[i][1]);
    print_double(what, atan2(at[i][0], at[i][1]), 14);
  }
  for (int i = 0; i < 30; i++) {
    double y = rng_double(-10, 10, 1), x = rng_double(-10, 10, 1);
    char what[64];
    snprintf(what, sizeof what, "atan2(%a, %a)", y, x);
    print_double(what, atan2(y, x), 14);
  }
  printf("M_PI %.17g sin(M_PI) %.6g cos(M_PI) %.17g tan(M_PI_4) %.17g\n", M_PI, sin(M_PI), cos(M_PI), tan(M_PI_4));
  printf("sin(1e22) %.17g cos(1e22) %.17g sin(0x1p1023) %.17g\n", sin(1e22), cos(1e22), sin(0x1p1023));
}

static void errors(void)
{
  struct { const char *what; double v; } e[10];
  int n = 0;
#define ERR(expr) (errno = 0, e[n].v = (expr), e[n].what = #expr, n++, errno)
  int codes[10];
  codes[0] = ERR(log(0));
  codes[1] = ERR(log(-1));
  codes[2] = ERR(sqrt(-1));
  codes[3] = ERR(exp(1000));
  codes[4] = ERR(exp(-1000));
  codes[5] = ERR(pow(0, -1));
  codes[6] = ERR(acos(2));
  codes[7] = ERR(fmod(1, 0));
  codes[8] = ERR(pow(-8, 1.0 / 3));
  codes[9] = ERR(atan2(0, 0));
  for (int i = 0; i < n; i++) {
    printf("%s: errno %s, ", e[i].what, codes[i] == EDOM ? "EDOM" : codes[i] == ERANGE ? "ERANGE" : codes[i] ? "other" : "0");
    print_double("result", e[i].v, 17);
  }
  printf("classify: %d %d %d %d %d  isinf %d %d isnan %d signbit %d %d isfinite %d %d\n", fpclassify(0.0) == FP_ZERO,
         fpclassify(1e-310) == FP_SUBNORMAL, fpclassify(1.0) == FP_NORMAL, fpclassify(INFINITY) == FP_INFINITE,
         fpclassify(NAN) == FP_NAN, isinf(-INFINITY) != 0, isinf(1.0) != 0, isnan(NAN) != 0, signbit(-0.0) != 0,
         signbit(0.0) != 0, isfinite(DBL_MAX) != 0, isfinite(INFINITY) != 0);
  printf("HUGE_VAL %g INFINITY %g NAN is nan %d\n", HUGE_VAL, INFINITY, isnan(NAN) != 0);
}

void test_math(void)
{
  rng_seed(0x5eed0005);
  exact();
  transcendental();
  errors();
}
