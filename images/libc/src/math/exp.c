/*
 * exp, exp2, expm1 and the exponential core shared with pow, sinh, cosh and tanh.
 *
 * exp(x) = 2^k * 2^(j/32) * exp(r): n = round(x * 32/ln2) = 32k + j, and r = x - n*ln2/32
 * (|r| <= ln2/64) computed exactly with a 37-bit head of ln2/32 (Cody-Waite). 2^(j/32) comes
 * from a double-double table, exp(r) - 1 from its Taylor series through r^7 (truncation below
 * 2^-70), and the leading product T*r is formed exactly, so the result before its final
 * rounding is good to about 2^-66: errors just above 0.5 ulp.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

double __math_err(int err, double v)
{
  errno = err;
  return v;
}

double __scale(double x, int k)
{
  if (k > 1023) {
    x *= 0x1p1023;
    k -= 1023;
    if (k > 1023) {
      x *= 0x1p1023;
      k -= 1023;
      if (k > 1023) k = 1023;
    }
  } else if (k < -1022) {
    /* Keep the intermediate normal (2^-969 = 2^-1022 * 2^53) so only the last step rounds. */
    x *= 0x1p-969;
    k += 969;
    if (k < -1022) {
      x *= 0x1p-969;
      k += 969;
      if (k < -1022) k = -1022;
    }
  }
  return x * pow2(k);
}

double __exp_core(double xh, double xl, double *lo, int *k)
{
  static const double shifter = 0x1.8p52;
  /* Rounding to an integer by adding 1.5*2^52: n is then the low word of kd's bits. */
  double kd = xh * __exp_inv_c + shifter;
  int n = (int)(uint32_t)asuint64(kd);
  kd -= shifter;
  int j = n & 31;
  *k = (n - j) / 32;
  double rh = xh - kd * __exp_c_hi;     /* exact: the product is exact and close to xh */
  double rl = xl - kd * __exp_c_lo;
  double q = rh * rh * (0.5 + rh * (0x1.5555555555555p-3 + rh * (0x1.5555555555555p-5 +
             rh * (0x1.1111111111111p-7 + rh * (0x1.6c16c16c16c17p-10 + rh * 0x1.a01a01a01a01ap-13)))));
  double pl = q + rl * (1.0 + rh + q);  /* exp(rh + rl) - 1 = rh + pl (rl^2 is below 2^-110) */
  double th = __exp_tab[j][0], tl = __exp_tab[j][1];
  double ae, a = two_prod(th, rh, &ae);
  double se, s = fast_two_sum(th, a, &se);
  return fast_two_sum(s, se + ae + th * pl + tl + tl * (rh + pl), lo);
}

/* 2^k * (hi + lo), with errno ERANGE on overflow or underflow. */
static double finish(double hi, double lo, int k)
{
  double r = __scale(hi + lo, k);
  if (r == INFINITY || r < 0x1p-1022) errno = ERANGE;
  return r;
}

double exp(double x)
{
  if (!(x < 710)) return x != x ? x + x : x == INFINITY ? x : __math_err(ERANGE, INFINITY);
  if (!(x > -746)) return x == -INFINITY ? 0 : __math_err(ERANGE, 0);
  if (fabs(x) < 0x1p-54) return 1.0 + x;
  double lo;
  int k;
  double hi = __exp_core(x, 0, &lo, &k);
  return finish(hi, lo, k);
}

double exp2(double x)
{
  if (!(x < 1024)) return x != x ? x + x : x == INFINITY ? x : __math_err(ERANGE, INFINITY);
  if (!(x > -1076)) return x == -INFINITY ? 0 : __math_err(ERANGE, 0);
  if (fabs(x) < 0x1p-54) return 1.0 + x;
  double e, h = two_prod(x, __ln2_dd[0], &e);
  double l = e + x * __ln2_dd[1];
  h = fast_two_sum(h, l, &l);
  double lo;
  int k;
  double hi = __exp_core(h, l, &lo, &k);
  return finish(hi, lo, k);
}

double expm1(double x)
{
  if (!(x < 710)) return x != x ? x + x : x == INFINITY ? x : __math_err(ERANGE, INFINITY);
  if (x < -38) return -1.0;   /* e^x < 2^-54: -1 + e^x rounds to -1 */
  double ax = fabs(x);
  if (ax < 0x1p-54) return x;
  if (ax < 0x1.62e42fefa39efp-7) {
    /* |x| < ln2/64: x + x^2/2 + ... with the square exact; the tail is below 2^-20 of x. */
    double e2, x2 = two_prod(x, x, &e2);
    double e, s = fast_two_sum(x, 0.5 * x2, &e);
    double t = x * x2 * (0x1.5555555555555p-3 + x * (0x1.5555555555555p-5 + x * (0x1.1111111111111p-7 +
               x * (0x1.6c16c16c16c17p-10 + x * (0x1.a01a01a01a01ap-13 + x * 0x1.a01a01a01a01ap-16)))));
    return s + (e + 0.5 * e2 + t);
  }
  /* e^x - 1 from the double-double e^x: the cancellation loses at most 7 bits of its 66. */
  double lo;
  int k;
  double hi = __exp_core(x, 0, &lo, &k);
  if (k > 1020) return finish(hi, lo, k);
  hi = __scale(hi, k);
  lo = __scale(lo, k);
  double e, s = two_sum(hi, -1.0, &e);
  return s + (e + lo);
}
