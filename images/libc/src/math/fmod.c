/* fmod: the exact remainder x - n*y, n = trunc(x/y), by binary long division of the
 * significands (one bit per step: at most 2098 steps for the extreme exponent gap), which
 * remainder and remquo share (__divrem). */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

uint64_t __divrem(double x, double y, int *ey, uint64_t *my, uint32_t *q)
{
  int ex;
  uint64_t r = unpack53(x, &ex);
  uint32_t n = 0;
  *my = unpack53(y, ey);
  for (int k = ex - *ey; k > 0; k--) {
    if (r >= *my) r -= *my, n |= 1;
    r <<= 1;
    n <<= 1;
  }
  if (r >= *my) r -= *my, n |= 1;
  *q = n;
  return r;
}

double fmod(double x, double y)
{
  double ax = fabs(x), ay = fabs(y);
  if (x != x || y != y) return x + y;
  if (ax == INFINITY || ay == 0) return __math_err(EDOM, __builtin_nan(""));
  if (ax < ay) return x;
  if (ax == ay) return copysign(0.0, x);
  int ey;
  uint64_t my;
  uint32_t q;
  uint64_t r = __divrem(x, y, &ey, &my, &q);
  return copysign(pack53(r, ey), x);   /* exact: r * 2^ey is a multiple of the smaller ulp */
}
