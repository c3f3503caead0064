/*
 * cbrt: the real cube root, within about half an ulp: Newton's iteration y <- y - (y^3 - a)/(3y^2)
 * from a linear first guess on a reduced argument a in [0.5, 4), then one last correction with
 * y^3 - a computed exactly (double-double), and the exponent divided by three.
 */
#include <math.h>
#include "mathlib.h"

double cbrt(double x)
{
  if (x == 0 || x != x || fabs(x) == INFINITY) return x + x;   /* +-0, NaN, +-inf */
  int e;
  double a = frexp(fabs(x), &e);    /* |x| = a * 2^e, a in [0.5, 1) */
  int r = ((e % 3) + 3) % 3;        /* a * 2^r keeps the exponent e - r a multiple of three */
  a = ldexp(a, r);
  e -= r;
  double y = 0.6 + 0.25 * a;        /* within 30 % of the root on [0.5, 4) */
  for (int i = 0; i < 6; i++) y -= (y * y * y - a) / (3 * y * y);
  double y2l, y2 = two_prod(y, y, &y2l);
  double y3l, y3 = two_prod(y2, y, &y3l);
  y3l += y2l * y;
  double d = (y3 - a) + y3l;        /* y^3 - a: y3 - a is exact (Sterbenz) */
  y -= d / (3 * y2);
  return copysign(ldexp(y, e / 3), x);
}
