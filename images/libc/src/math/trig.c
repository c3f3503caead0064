/*
 * sin, cos, tan. After __rem_pio2, r = a + b with a = j/64 the nearest table point and
 * |b| <= 1/128 (exact, r being near a):
 *   sin r = sin a + cos a * b + sin a * (cos b - 1) + cos a * (sin b - b)
 *   cos r = cos a - sin a * b + cos a * (cos b - 1) - sin a * (sin b - b)
 * with sin a, cos a double-doubles from the table, the products with b exact, and the small
 * series terms (below 2^-14 relative) in plain arithmetic; near 0 (j = 0) the Taylor series
 * of r itself. Results are double-doubles good to about 2^-68 before the final rounding.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* sin b - b and cos b - 1 for |b| <= 1/128 (truncation below 2^-75); bl is b's low part. */
static double sinb_b(double b, double b2)
{
  return b * b2 * (-0x1.5555555555555p-3 + b2 * (0x1.1111111111111p-7 + b2 * -0x1.a01a01a01a01ap-13));
}

static double cosb_1(double b, double bl, double b2)
{
  return -0.5 * b2 - b * bl + b2 * b2 * (0x1.5555555555555p-5 + b2 * (-0x1.6c16c16c16c17p-10 + b2 * 0x1.a01a01a01a01ap-16));
}

double __sin_kernel(double rh, double rl, double *lo)
{
  int neg = rh < 0;
  if (neg) rh = -rh, rl = -rl;
  int j = (int)(rh * 64 + 0.5);
  double s, l;
  if (j == 0) {
    double r2 = rh * rh;
    s = rh;
    l = rl + rh * r2 * (-0x1.5555555555555p-3 + r2 * (0x1.1111111111111p-7 + r2 * (-0x1.a01a01a01a01ap-13 +
        r2 * 0x1.71de3a556c734p-19)));
  } else {
    double b = rh - j * 0x1p-6, bl = rl, b2 = b * b;   /* exact: rh is within 1/128 of j/64 */
    const double *S = __sin_tab[j], *C = __cos_tab[j];
    double pe, p = two_prod(C[0], b, &pe);
    double e, h = fast_two_sum(S[0], p, &e);
    s = h;
    l = e + pe + S[1] + C[1] * b + C[0] * bl + C[0] * sinb_b(b, b2) + S[0] * cosb_1(b, bl, b2);
  }
  s = fast_two_sum(s, l, &l);
  *lo = neg ? -l : l;
  return neg ? -s : s;
}

double __cos_kernel(double rh, double rl, double *lo)
{
  if (rh < 0) rh = -rh, rl = -rl;
  int j = (int)(rh * 64 + 0.5);
  double s, l;
  if (j == 0) {
    double r2 = rh * rh;
    s = 1.0;
    l = -0.5 * r2 - rh * rl + r2 * r2 * (0x1.5555555555555p-5 + r2 * (-0x1.6c16c16c16c17p-10 + r2 * (0x1.a01a01a01a01ap-16 +
        r2 * -0x1.27e4fb7789f5cp-22)));
  } else {
    double b = rh - j * 0x1p-6, bl = rl, b2 = b * b;
    const double *S = __sin_tab[j], *C = __cos_tab[j];
    double pe, p = two_prod(S[0], b, &pe);
    double e, h = fast_two_sum(C[0], -p, &e);
    s = h;
    l = e - pe + C[1] - S[1] * b - S[0] * bl - S[0] * sinb_b(b, b2) + C[0] * cosb_1(b, bl, b2);
  }
  return fast_two_sum(s, l, lo);
}

/* NaN for infinite arguments (EDOM), the NaN itself for NaN. */
static double nonfinite(double x)
{
  return x != x ? x + x : __math_err(EDOM, __builtin_nan(""));
}

double sin(double x)
{
  double ax = fabs(x);
  if (!(ax < INFINITY)) return nonfinite(x);
  if (ax < 0x1p-26) return x;   /* sin x = x - x^3/6: the cubic is below half an ulp */
  double rh, rl, lo, hi;
  int n = __rem_pio2(x, &rh, &rl);
  hi = n & 1 ? __cos_kernel(rh, rl, &lo) : __sin_kernel(rh, rl, &lo);
  double r = hi + lo;
  return n & 2 ? -r : r;
}

double cos(double x)
{
  double ax = fabs(x);
  if (!(ax < INFINITY)) return nonfinite(x);
  if (ax < 0x1p-27) return 1.0;
  double rh, rl, lo, hi;
  int n = __rem_pio2(x, &rh, &rl);
  hi = n & 1 ? __sin_kernel(rh, rl, &lo) : __cos_kernel(rh, rl, &lo);
  double r = hi + lo;
  return (n + 1) & 2 ? -r : r;
}

double tan(double x)
{
  double ax = fabs(x);
  if (!(ax < INFINITY)) return nonfinite(x);
  if (ax < 0x1p-27) return x;
  double rh, rl, sl, cl;
  int n = __rem_pio2(x, &rh, &rl);
  double sh = __sin_kernel(rh, rl, &sl);
  double ch = __cos_kernel(rh, rl, &cl);
  double ql, qh;
  if (n & 1) {
    qh = dd_div(ch, cl, sh, sl, &ql);
    return -(qh + ql);
  }
  qh = dd_div(sh, sl, ch, cl, &ql);
  return qh + ql;
}
