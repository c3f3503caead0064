/*
 * log, log10, log2, log1p and the logarithm core shared with pow.
 *
 * x = 2^k * m, m in [1, 2). With j the top six fraction bits of m and invc ~ 1/(1 + (j+1/2)/64)
 * from a table, r = m*invc - 1 is formed exactly as a double-double (|r| < 1/128), and
 *   log x = k*ln2 + (-log invc) + log1p(r),
 * with -log invc from a double-double table and log1p(r) = r - r^2/2 + ... (r^2 exact, terms
 * through r^9). Near 1 (|x - 1| < 1/64) the series is applied to x - 1 directly, so the result
 * keeps its relative accuracy as it approaches 0. The double-double result is good to about
 * 2^-68 relative, which pow needs.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* log1p(r) for |r| < 1/64 as hi + *lo, r exact. */
static double log1p_small(double r, double *lo)
{
  double e2, r2 = two_prod(r, r, &e2);
  double e, s = fast_two_sum(r, -0.5 * r2, &e);
  double t = r * r2 * (0x1.5555555555555p-2 + r * (-0.25 + r * (0x1.999999999999ap-3 + r * (-0x1.5555555555555p-3 +
             r * (0x1.2492492492492p-3 + r * (-0.125 + r * (0x1.c71c71c71c71cp-4 + r * (-0.1 +
             r * (0x1.745d1745d1746p-4 + r * -0x1.5555555555555p-4)))))))));
  *lo = e - 0.5 * e2 + t;
  return s;
}

double __log_core(double x, double *lo)
{
  if (x > 0x1.f8p-1 && x < 0x1.04p0) return log1p_small(x - 1.0, lo);
  uint64_t u = asuint64(x);
  int k = (int)(u >> 52) - 1023;
  if (k == -1023) {   /* subnormal: normalise by 2^54 */
    u = asuint64(x * 0x1p54);
    k = (int)(u >> 52) - 1023 - 54;
  }
  int j = (int)(u >> 46) & 63;
  double m = asdouble((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  double rl, rh = two_prod(m, __log_invc[j], &rl);
  rh -= 1.0;                                   /* exact: the product is within 1/128 of 1 */
  double e2, r2 = two_prod(rh, rh, &e2);
  double t = rh * r2 * (0x1.5555555555555p-2 + rh * (-0.25 + rh * (0x1.999999999999ap-3 + rh * (-0x1.5555555555555p-3 +
             rh * (0x1.2492492492492p-3 + rh * (-0.125 + rh * 0x1.c71c71c71c71cp-4))))));
  double kd = k;
  double e1, s = two_sum(kd * __ln2_hi, __log_logc[j][0], &e1);
  double e3, s2 = two_sum(s, rh, &e3);
  double e4, s3 = two_sum(s2, -0.5 * r2, &e4);
  double l = e1 + e3 + e4 + (kd * __ln2_lo + __log_logc[j][1]) + rl - 0.5 * e2 - rh * rl + t;
  return fast_two_sum(s3, l, lo);
}

/* The special cases shared by the logarithms: 0 on a finite x > 0. */
static int special(double x, double *r)
{
  if (x > 0 && x < INFINITY) return 0;
  if (x != x) *r = x + x;
  else if (x == 0) *r = __math_err(ERANGE, -INFINITY);
  else if (x < 0) *r = __math_err(EDOM, __builtin_nan(""));
  else *r = x;
  return 1;
}

double log(double x)
{
  double r, lo;
  if (special(x, &r)) return r;
  double hi = __log_core(x, &lo);
  return hi + lo;
}

/* log(x) * c for the double-double constant c (1/ln10, 1/ln2). */
static double scaled(double x, const double c[2])
{
  double lo, hi = __log_core(x, &lo);
  double e, p = two_prod(hi, c[0], &e);
  return p + (e + hi * c[1] + lo * c[0]);
}

double log10(double x)
{
  double r;
  if (special(x, &r)) return r;
  return scaled(x, __invln10_dd);
}

double log2(double x)
{
  double r;
  if (special(x, &r)) return r;
  return scaled(x, __invln2_dd);
}

double log1p(double x)
{
  if (!(x > -1)) {
    if (x != x) return x + x;
    return x == -1 ? __math_err(ERANGE, -INFINITY) : __math_err(EDOM, __builtin_nan(""));
  }
  if (x == INFINITY) return x;
  double ax = fabs(x), lo, hi;
  if (ax < 0x1p-54) return x;
  if (ax < 0x1p-6) {
    hi = log1p_small(x, &lo);
    return hi + lo;
  }
  /* log(s + e) = log(s) + e/s for 1 + x = s + e exactly. */
  double e, s = two_sum(1.0, x, &e);
  hi = __log_core(s, &lo);
  return hi + (lo + e / s);
}
