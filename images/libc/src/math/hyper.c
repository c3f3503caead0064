/*
 * sinh, cosh, tanh from the double-double exponential: e^|x| +- e^-|x| in double-double, the
 * reciprocal by a double-double division. For |x| < 1, where e^x - e^-x cancels, sinh comes from
 * its Taylor series with the leading terms in double-double.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* sinh x for |x| < 1: x + x^3 P(x^2), P = 1/6 + x^2/120 + ... through x^18/19!. */
static double sinh_small(double x, double *lo)
{
  double x2l, x2 = two_prod(x, x, &x2l);
  double q = x2 * (0x1.1111111111111p-7 + x2 * (0x1.a01a01a01a01ap-13 + x2 * (0x1.71de3a556c734p-19 +
             x2 * (0x1.ae64567f544e4p-26 + x2 * (0x1.6124613a86d09p-33 + x2 * (0x1.ae7f3e733b81fp-41 +
             x2 * (0x1.952c77030ad4ap-49 + x2 * 0x1.2f49b46814157p-57)))))));
  double pl, ph = fast_two_sum(0x1.5555555555555p-3, q, &pl);
  pl += 0x1.5555555555555p-57;                  /* 1/6 = 0x1.5555555555555p-3 + this */
  double x3l, x3 = two_prod(x, x2, &x3l);
  x3l += x * x2l;
  double tl, th = two_prod(x3, ph, &tl);
  tl += x3 * pl + x3l * ph;
  double e, s = fast_two_sum(x, th, &e);
  return fast_two_sum(s, e + tl, lo);
}

/* e^a + sign * e^-a as a double-double, 0 <= a < 22. */
static double epm(double a, double sign, double *lo)
{
  int k;
  double el, eh = __exp_core(a, 0, &el, &k);
  eh = __scale(eh, k);
  el = __scale(el, k);
  double il, ih = dd_div(1.0, 0, eh, el, &il);
  double e, s = fast_two_sum(eh, sign * ih, &e);
  return fast_two_sum(s, e + el + sign * il, lo);
}

/* e^a / 2 for a >= 22, overflowing to infinity. */
static double half_exp(double a)
{
  if (a > 711) return __math_err(ERANGE, INFINITY);
  int k;
  double lo, hi = __exp_core(a, 0, &lo, &k);
  double r = __scale(hi + lo, k - 1);
  if (r == INFINITY) errno = ERANGE;
  return r;
}

double sinh(double x)
{
  double a = fabs(x);
  if (!(a < INFINITY)) return x + x;
  if (a < 0x1p-26) return x;
  double r, lo;
  if (a < 1) return sinh_small(x, &lo) + lo;
  if (a < 22) {
    double hi = epm(a, -1, &lo);
    r = 0.5 * (hi + lo);
  } else {
    r = half_exp(a);
  }
  return copysign(r, x);
}

double cosh(double x)
{
  double a = fabs(x);
  if (!(a < INFINITY)) return a + a;
  if (a < 0x1p-27) return 1.0;
  if (a < 22) {
    double lo, hi = epm(a, 1, &lo);
    return 0.5 * (hi + lo);
  }
  return half_exp(a);
}

double tanh(double x)
{
  double a = fabs(x);
  if (a != a) return x + x;
  if (a < 0x1p-27) return x;
  if (a >= 22) return copysign(1.0, x);
  double nl, nh = a < 1 ? sinh_small(a, &nl) : epm(a, -1, &nl);
  double dl, dh = epm(a, 1, &dl);
  if (a < 1) {
    nh *= 2;
    nl *= 2;
  }
  double ql, qh = dd_div(nh, nl, dh, dl, &ql);
  return copysign(qh + ql, x);
}
