/*
 * math-dump (run only when named: libctest math-dump [N]): N random arguments per function and
 * range, printed as "name argbits... resultbits" in hex, for images/libc/src/math/ulpcheck.py,
 * which measures each result's error in ulps against mpmath. Arguments are built from random bits
 * (no libm involved), so every build sees the same ones.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "libctest.h"

int mathdump_n = 300;

static uint64_t B(double x)
{
  union { double d; uint64_t u; } v = { x };
  return v.u;
}

/* Uniform in [lo, hi). */
static double U(double lo, double hi)
{
  return lo + (hi - lo) * ((double)(rng() >> 11) * 0x1p-53);
}

/* Exponent uniform between those of lo and hi (both > 0), random significand and sign. */
static double L(double lo, double hi, int neg)
{
  union { double d; uint64_t u; } a = { lo }, b = { hi }, r;
  int el = (int)(a.u >> 52), eh = (int)(b.u >> 52);
  if (el == 0) el = 1;
  r.u = ((uint64_t)(el + (int)rng_below((uint32_t)(eh - el))) << 52) | (rng() >> 12);
  if (neg && (rng() & 1)) r.d = -r.d;
  return r.d;
}

static void f1(const char *name, double (*f)(double), double lo, double hi, int logscale)
{
  for (int i = 0; i < mathdump_n; i++) {
    double x = logscale ? L(lo, hi, logscale > 1) : U(lo, hi);
    printf("%s %016llx %016llx\n", name, (unsigned long long)B(x), (unsigned long long)B(f(x)));
  }
}

static void f2(const char *name, double (*f)(double, double), double xl, double xh, double yl, double yh, int logscale)
{
  for (int i = 0; i < mathdump_n; i++) {
    double x = logscale ? L(xl, xh, 0) : U(xl, xh), y = logscale ? L(yl, yh, 0) : U(yl, yh);
    printf("%s %016llx %016llx %016llx\n", name, (unsigned long long)B(x), (unsigned long long)B(y), (unsigned long long)B(f(x, y)));
  }
}

void test_mathdump(void)
{
  rng_seed(0x5eed000a);
  f1("exp", exp, -745, 709, 0);
  f1("exp", exp, -1, 1, 0);
  f1("exp2", exp2, -1074, 1023, 0);
  f1("expm1", expm1, -40, 700, 0);
  f1("expm1", expm1, 1e-10, 0.5, 2);
  f1("log", log, 1e-300, 1e300, 1);
  f1("log", log, 0.9, 1.1, 0);
  f1("log10", log10, 1e-300, 1e300, 1);
  f1("log2", log2, 1e-300, 1e300, 1);
  f1("log1p", log1p, -0.9, 10, 0);
  f1("log1p", log1p, 1e-10, 0.1, 2);
  f1("sin", sin, -10, 10, 0);
  f1("sin", sin, 1e-8, 1e300, 2);
  f1("cos", cos, -10, 10, 0);
  f1("cos", cos, 1e-8, 1e300, 2);
  f1("tan", tan, -10, 10, 0);
  f1("tan", tan, 1e-8, 1e300, 2);
  f1("atan", atan, 1e-10, 1e20, 2);
  f1("asin", asin, -1, 1, 0);
  f1("acos", acos, -1, 1, 0);
  f1("acos", acos, 0.99, 1, 0);
  f1("sinh", sinh, -30, 30, 0);
  f1("sinh", sinh, 1e-9, 1, 2);
  f1("cosh", cosh, -30, 30, 0);
  f1("tanh", tanh, -30, 30, 0);
  f1("tanh", tanh, 1e-9, 1, 2);
  f1("sqrt", sqrt, 1e-320, 1e300, 1);
  f2("pow", pow, 0, 100, -50, 50, 0);
  f2("pow", pow, 0.5, 2, -1000, 1000, 0);
  f2("pow", pow, 1e-300, 1e300, 1e-3, 1, 1);
  f2("atan2", atan2, -10, 10, -10, 10, 0);
  f2("hypot", hypot, 1e-300, 1e300, 1e-300, 1e300, 1);
  f2("fmod", fmod, 1e-300, 1e300, 1e-10, 1e10, 1);
  f1("cbrt", cbrt, 1e-300, 1e300, 2);
  f1("asinh", asinh, 1e-10, 1e10, 2);
  f1("asinh", asinh, -3, 3, 0);
  f1("acosh", acosh, 1, 1e10, 1);
  f1("acosh", acosh, 1, 3, 0);
  f1("atanh", atanh, 1e-10, 1, 2);
  f1("atanh", atanh, -1, 1, 0);
  f1("erf", erf, -6, 6, 0);
  f1("erf", erf, 1e-10, 1, 2);
  f1("erfc", erfc, -6, 27, 0);
  f1("erfc", erfc, 1e-10, 1, 2);
  f1("lgamma", lgamma, 0, 10, 0);
  f1("lgamma", lgamma, 1e-10, 1e300, 1);
  f1("lgamma", lgamma, 0.9, 2.1, 0);
  f1("lgamma", lgamma, -20, 0, 0);
  f1("tgamma", tgamma, 0, 171, 0);
  f1("tgamma", tgamma, 1e-10, 5, 1);
  f1("tgamma", tgamma, -30, 0, 0);
  f2("remainder", remainder, 1e-300, 1e300, 1e-10, 1e10, 1);
}
