/* fmod: the exact remainder x - n*y, n = trunc(x/y), by binary long division of the
 * significands (one bit per step: at most 2098 steps for the extreme exponent gap). */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* |a| = m * 2^e with m a 53-bit integer (top bit 52), a finite and nonzero. */
static uint64_t unpack(double a, int *e)
{
  uint64_t u = asuint64(a) & 0x7fffffffffffffffULL;
  int be = (int)(u >> 52);
  uint64_t m = u & 0x000fffffffffffffULL;
  if (be == 0) {
    *e = -1074;
    while (!(m >> 52)) m <<= 1, (*e)--;
  } else {
    m |= 0x0010000000000000ULL;
    *e = be - 1075;
  }
  return m;
}

double fmod(double x, double y)
{
  double ax = fabs(x), ay = fabs(y);
  if (x != x || y != y) return x + y;
  if (ax == INFINITY || ay == 0) return __math_err(EDOM, __builtin_nan(""));
  if (ax < ay) return x;
  if (ax == ay) return copysign(0.0, x);
  int ex, ey;
  uint64_t mx = unpack(x, &ex), my = unpack(y, &ey);
  uint64_t r = mx;
  for (int n = ex - ey; n > 0; n--) {
    if (r >= my) r -= my;
    r <<= 1;
  }
  if (r >= my) r -= my;
  if (r == 0) return copysign(0.0, x);
  /* The result r * 2^ey is exact: normalise r and build the double (maybe subnormal). */
  int e = ey;
  while (!(r >> 52)) r <<= 1, e--;
  double v;
  if (e >= -1074) {
    v = asdouble(((uint64_t)(e + 1075 - 1) << 52) + r);
  } else {
    v = asdouble(r >> (-1074 - e));
  }
  return copysign(v, x);
}
