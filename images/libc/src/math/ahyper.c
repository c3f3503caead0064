/*
 * The inverse hyperbolic functions from log and log1p:
 *   asinh x = sign(x) log(|x| + sqrt(x^2 + 1)),  written log1p(|x| + x^2/(1 + sqrt(1 + x^2)))
 *             where |x| + sqrt(...) is near 1;
 *   acosh x = log(x + sqrt(x^2 - 1)),  written log1p(t + sqrt(2t + t^2)) for t = x - 1 near 0;
 *   atanh x = log1p(2x / (1 - x)) / 2;
 * and log(2|x|) where x^2 would lose x's bits. EDOM outside the domain, ERANGE at the poles
 * of atanh. Errors are within a few ulps.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

double asinh(double x)
{
  double a = fabs(x), r;
  if (x != x || a == INFINITY) return x + x;
  if (a < 0x1p-28) return x;
  if (a > 0x1p28) {
    double lo, hi = __log_core(a, &lo);
    r = hi + (lo + __ln2_dd[1]) + __ln2_dd[0];
  } else if (a > 2) {
    r = log(2 * a + 1 / (sqrt(a * a + 1) + a));
  } else {
    double a2 = a * a;
    r = log1p(a + a2 / (1 + sqrt(1 + a2)));
  }
  return copysign(r, x);
}

double acosh(double x)
{
  if (x != x) return x + x;
  if (x < 1) return __math_err(EDOM, __builtin_nan(""));
  if (x == INFINITY) return x;
  if (x > 0x1p28) {
    double lo, hi = __log_core(x, &lo);
    return hi + (lo + __ln2_dd[1]) + __ln2_dd[0];
  }
  if (x > 2) return log(2 * x - 1 / (x + sqrt(x * x - 1)));
  double t = x - 1;                 /* exact for x in [1, 2] */
  return log1p(t + sqrt(2 * t + t * t));
}

double atanh(double x)
{
  double a = fabs(x), r;
  if (x != x) return x + x;
  if (a > 1) return __math_err(EDOM, __builtin_nan(""));
  if (a == 1) return __math_err(ERANGE, copysign(INFINITY, x));
  if (a < 0x1p-28) return x;
  if (a < 0.5) r = 0.5 * log1p(2 * a + 2 * a * a / (1 - a));
  else r = 0.5 * log1p(2 * a / (1 - a));
  return copysign(r, x);
}
