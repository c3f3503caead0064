/*
 * atan, atan2, asin, acos.
 *
 * The core takes t >= 0 as a double-double: above 1 it uses atan t = pi/2 - atan(1/t); on
 * [0, 1], with c = j/64 the nearest table point, atan t = atan c + atan u, u = (t - c)/(1 + tc)
 * (|u| <= 1/128, formed in double-double), atan c from a double-double table and atan u from
 * its series through u^9. asin and acos reduce to it through sqrt(1 - x^2), computed in
 * double-double; atan2 through a double-double quotient.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* atan u - u for |u| <= 1/128 (truncation below 2^-76). */
static double atan_tail(double u)
{
  double u2 = u * u;
  return u * u2 * (-0x1.5555555555555p-2 + u2 * (0x1.999999999999ap-3 + u2 * (-0x1.2492492492492p-3 + u2 * 0x1.c71c71c71c71cp-4)));
}

double __atan_core(double th, double tl, double *lo)
{
  int inv = th > 1;
  if (inv) th = dd_div(1.0, 0.0, th, tl, &tl);
  int j = (int)(th * 64 + 0.5);
  double h, l;
  if (j == 0) {
    h = th;
    l = tl + atan_tail(th);
  } else {
    double c = j * 0x1p-6;
    double nh = th - c;                          /* exact: th is within 1/128 of c */
    double de, dh = two_prod(th, c, &de);
    double e, den = fast_two_sum(1.0, dh, &e);
    double denl = e + de + tl * c;
    double ul, uh = dd_div(nh, tl, den, denl, &ul);
    h = fast_two_sum(__atan_tab[j][0], uh, &e);
    l = e + __atan_tab[j][1] + ul + atan_tail(uh);
  }
  if (inv) {
    double e;
    double s = fast_two_sum(__pio2_dd[0], -h, &e);
    l = e + __pio2_dd[1] - l;
    h = s;
  }
  return fast_two_sum(h, l, lo);
}

double atan(double x)
{
  double ax = fabs(x);
  if (ax != ax) return x + x;
  if (ax < 0x1p-27) return x;
  if (ax > 0x1p60) return copysign(__pio2_dd[0], x);   /* pi/2 - 1/|x| rounds to pi/2 */
  double lo, hi = __atan_core(ax, 0, &lo);
  return copysign(hi + lo, x);
}

/* pi - (h + l) as a double-double. */
static double pi_minus(double h, double l, double *lo)
{
  double e, s = fast_two_sum(__pi_dd[0], -h, &e);
  *lo = e + __pi_dd[1] - l;
  return s;
}

/* a (finite, > 0) = m * 2^*e with m in [1, 2), subnormals included. */
static double sig_exp(double a, int *e)
{
  uint64_t u = asuint64(a);
  int be = (int)(u >> 52);
  if (be == 0) {
    u = asuint64(a * 0x1p52);
    be = (int)(u >> 52) - 52;
  }
  *e = be - 1023;
  return asdouble((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
}

double atan2(double y, double x)
{
  if (x != x || y != y) return x + y;
  double ax = fabs(x), ay = fabs(y);
  int xneg = signbit(x);
  double r;
  if (ay == 0) {
    r = xneg ? __pi_dd[0] : 0.0;
  } else if (ax == 0) {
    r = __pio2_dd[0];
  } else if (ay == INFINITY) {
    if (ax < INFINITY) {
      r = __pio2_dd[0];
    } else if (xneg) {
      double lo, hi = pi_minus(0.5 * __pio2_dd[0], 0.5 * __pio2_dd[1], &lo);   /* 3pi/4 */
      r = hi + lo;
    } else {
      r = 0.5 * __pio2_dd[0];
    }
  } else if (ax == INFINITY) {
    r = xneg ? __pi_dd[0] : 0.0;
  } else {
    int ex, ey;
    double mx = sig_exp(ax, &ex), my = sig_exp(ay, &ey);
    if (ey - ex > 60) {
      r = __pio2_dd[0];                               /* pi/2 - |x/y|: rounds to pi/2 */
    } else if (ex - ey > 60) {
      r = xneg ? __pi_dd[0] : ay / ax;                /* atan |y/x| = |y/x| to double precision */
    } else {
      /* The significands' double-double quotient, rescaled exactly by 2^(ey - ex) (at most
       * 2^61 either way). */
      double ql, qh = dd_div(my, 0, mx, 0, &ql);
      double sc = pow2(ey - ex);
      double lo, hi = __atan_core(qh * sc, ql * sc, &lo);
      if (xneg) hi = pi_minus(hi, lo, &lo);
      r = hi + lo;
    }
  }
  return signbit(y) ? -r : r;
}

/* sqrt(1 - x^2) as hi + *lo for |x| < 1. */
static double sqrt1mx2(double x, double *lo)
{
  double pe, p = two_prod(x, x, &pe);
  double de, d = two_sum(1.0, -p, &de);
  de -= pe;
  d = fast_two_sum(d, de, &de);
  double s = sqrt(d);
  double se, ss = two_prod(s, s, &se);
  *lo = ((d - ss) - se + de) / (2 * s);
  return s;
}

double asin(double x)
{
  double ax = fabs(x);
  if (ax != ax) return x + x;
  if (ax > 1) return __math_err(EDOM, __builtin_nan(""));
  if (ax == 1) return copysign(__pio2_dd[0], x);
  if (ax < 0x1p-27) return x;
  double sl, sh = sqrt1mx2(ax, &sl);
  double ql, qh = dd_div(ax, 0, sh, sl, &ql);
  double lo, hi = __atan_core(qh, ql, &lo);
  return copysign(hi + lo, x);
}

double acos(double x)
{
  double ax = fabs(x);
  if (ax != ax) return x + x;
  if (ax > 1) return __math_err(EDOM, __builtin_nan(""));
  if (x == 1) return 0;
  if (x == -1) return __pi_dd[0];
  if (ax < 0x1p-57) return __pio2_dd[0];
  double sl, sh = sqrt1mx2(ax, &sl);
  double ql, qh = dd_div(sh, sl, ax, 0, &ql);
  double lo, hi = __atan_core(qh, ql, &lo);
  if (x < 0) hi = pi_minus(hi, lo, &lo);
  return hi + lo;
}
