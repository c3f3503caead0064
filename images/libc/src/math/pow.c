/*
 * pow(x, y) = exp(y * log|x|), with log|x| as a double-double (about 2^-68 relative), the
 * product y * log|x| formed exactly in its leading part, and the exponential of that
 * double-double; the error before the final rounding stays below 2^-60 for every finite result.
 * The special cases are those of C11 F.10.4.4.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* 0: y is not an integer; 1: an even integer; 2: an odd integer (y finite, nonzero). */
static int integer_kind(double y)
{
  uint64_t u = asuint64(y);
  int e = (int)((u >> 52) & 0x7ff) - 1023;
  if (e < 0) return 0;
  if (e > 52) return 1;
  uint64_t frac = u & 0x000fffffffffffffULL;
  if (frac & (((uint64_t)1 << (52 - e)) - 1)) return 0;
  if (e == 0) return 2;
  return ((frac >> (52 - e)) & 1) ? 2 : 1;
}

double pow(double x, double y)
{
  if (y == 0 || x == 1) return 1.0;
  if (x != x || y != y) return x + y;
  double ax = fabs(x), ay = fabs(y);
  if (ay == INFINITY) {
    if (ax == 1) return 1.0;
    return (ax < 1) == (y > 0) ? 0.0 : INFINITY;
  }
  int kind = integer_kind(y);
  int neg = signbit(x) && kind == 2;
  if (ax == INFINITY || ax == 0) {
    double r = (ax == 0) == (y < 0) ? INFINITY : 0.0;
    if (ax == 0 && y < 0) errno = ERANGE;   /* pole */
    return neg ? -r : r;
  }
  if (x < 0 && kind == 0) return __math_err(EDOM, __builtin_nan(""));
  double ll, lh = __log_core(ax, &ll);
  double p = y * lh;
  if (!(p < 1100)) return __math_err(ERANGE, neg ? -INFINITY : INFINITY);
  if (!(p > -1100)) return __math_err(ERANGE, neg ? -0.0 : 0.0);
  double ye, yh = two_prod(y, lh, &ye);
  ye += y * ll;
  yh = fast_two_sum(yh, ye, &ye);
  double lo;
  int k;
  double hi = __exp_core(yh, ye, &lo, &k);
  double r = __scale(hi + lo, k);
  if (r == INFINITY || r < 0x1p-1022) errno = ERANGE;
  return neg ? -r : r;
}
