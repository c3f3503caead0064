/*
 * erf and erfc from the fits of fits.c (genfits.py): erf(x) = x P(x^2) for |x| <= 1; beyond,
 * erfc(x) = exp(-x^2) g(x) with g = erfc(x) e^(x^2) fitted on [1, 2] and [2, 4] and as H(1/x^2)/x
 * on [4, 28], e^(-x^2) from the double-double square (x^2 is not exact in a double). Then
 * erf = 1 - erfc and erfc(-x) = 2 - erfc(x). Errors are within a few ulps; erfc underflows
 * (ERANGE) past 26.55.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

extern const double __erf_p[13], __erfc_g1[18], __erfc_g2[20], __erfc_h[16], __erfc_h_mid, __erfc_h_half;

static double horner(const double *c, int n, double u)
{
  double r = c[n - 1];
  for (int i = n - 2; i >= 0; i--) r = r * u + c[i];
  return r;
}

/* erfc(x) for 1 <= x < 28. */
static double erfc_big(double x)
{
  double g;
  if (x < 2) {
    g = horner(__erfc_g1, 18, (x - 1.5) * 2);
  } else if (x < 4) {
    g = horner(__erfc_g2, 20, x - 3);
  } else {
    double t = 1 / (x * x);
    g = horner(__erfc_h, 16, (t - __erfc_h_mid) / __erfc_h_half) / x;
  }
  /* e^(-x^2) with x^2 = s + sl exactly. */
  double sl, s = two_prod(x, x, &sl);
  int k;
  double lo, hi = __exp_core(-s, -sl, &lo, &k);
  return __scale((hi + lo) * g, k);
}

double erf(double x)
{
  double a = fabs(x);
  if (x != x) return x + x;
  if (a <= 1) {
    if (a < 0x1p-60) return x * __erf_p[0];
    return x * horner(__erf_p, 13, x * x);
  }
  if (a >= 6) return copysign(1.0, x);
  return copysign(1 - erfc_big(a), x);
}

double erfc(double x)
{
  if (x != x) return x + x;
  if (x < 1) {
    if (x > -1) return 1 - x * horner(__erf_p, 13, x * x);
    if (x <= -6) return 2.0;
    return 2 - erfc_big(-x);
  }
  if (x >= 28) return __math_err(ERANGE, 0.0);
  double r = erfc_big(x);
  if (r < 0x1p-1022) errno = ERANGE;
  return r;
}
