/* hypot: sqrt(x^2 + y^2) without undue overflow or underflow: both scaled so the larger is in
 * [1, 2), the sum of squares in double-double, its square root corrected once. */
#include <math.h>
#include "mathlib.h"

double hypot(double x, double y)
{
  double a = fabs(x), b = fabs(y);
  if (a == INFINITY || b == INFINITY) return INFINITY;
  if (a != a || b != b) return a + b;
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (b == 0) return a;
  int ea = (int)(asuint64(a) >> 52) - 1023, pre = 0;
  if (ea == -1023) {             /* both subnormal: scale up first */
    a *= 0x1p54;
    b *= 0x1p54;
    pre = 54;
    ea = (int)(asuint64(a) >> 52) - 1023;
  }
  int eb = (int)(asuint64(b) >> 52) - 1023;
  if (ea - (eb == -1023 ? -1075 : eb) > 60) return a + b;
  /* Scale by 2^-ea: exact, since b is at least 2^-61 times a. */
  a = __scale(a, -ea);
  b = __scale(b, -ea);
  double ae, a2 = two_prod(a, a, &ae);
  double be, b2 = two_prod(b, b, &be);
  double se, sh = fast_two_sum(a2, b2, &se);
  double sl = se + ae + be;
  double r = sqrt(sh);
  double re, rr = two_prod(r, r, &re);
  double rl = ((sh - rr) - re + sl) / (2 * r);
  return __scale(r + rl, ea - pre);
}
