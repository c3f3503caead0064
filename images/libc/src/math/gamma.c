/*
 * lgamma, lgamma_r and tgamma.
 *
 * For y >= 8, Stirling's series in double-double: lgamma(y) = (y - 1/2) log y - y + log(2 pi)/2
 * + sum B_2k / (2k (2k - 1) y^(2k-1)) (fits.c), for an argument y given as a double-double.
 * tgamma(x) for 0 < x < 8 is Gamma(x + n) / (x (x + 1) ... (x + n - 1)) with x + n >= 8, where
 * x + n, the product and Gamma(x + n) = exp(Stirling) are all double-doubles, so the result
 * keeps about 53 bits. lgamma for 0 < x < 8 uses the Taylor series of lgamma(1 + e) near 1 and of
 * lgamma(2 + e) near 2 (fits.c), which keep the relative accuracy at the zeros x = 1 and x = 2
 * and around the minimum of Gamma at 1.46, and steps to them: lgamma(x) = lgamma(x - n) +
 * log((x - 1) ... (x - n)) above 2.5, lgamma(x + 1) - log x below 0.7. Negative arguments use the
 * reflection Gamma(x) Gamma(1 - x) = pi / sin(pi x) with Gamma(1 - x) = -x Gamma(-x) (1 - x
 * itself could lose a bit); lgamma is less accurate near its zeros for x < 0 (x near -2.46, -2.75,
 * -3.14, -3.96, ...), where the two logarithms cancel. Poles (0, negative integers): lgamma
 * +inf and tgamma +-inf with ERANGE (tgamma of a negative integer: NaN, EDOM). lgamma stores the
 * sign of Gamma(x) in signgam (lgamma_r: in *sign).
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

extern const double __lgamma1[40], __lgamma2[40], __stirling[10], __half_log_2pi[2];

int signgam;

/* Stirling's sum for y = yh + yl >= 8 as a double-double hi + *lo. */
static double stirling(double yh, double yl, double *lo)
{
  double ll, lh = __log_core(yh, &ll);
  ll += yl / yh;                         /* log(yh + yl) = log(yh) + yl/yh */
  /* (y - 1/2) log y; yh - 1/2 is exact for 8 <= yh < 2^52. */
  double xm = yh - 0.5;
  double pl, ph = two_prod(xm, lh, &pl);
  pl += xm * ll + yl * lh;
  double z = 1 / yh, z2 = z * z, s = __stirling[9];
  for (int i = 8; i >= 0; i--) s = s * z2 + __stirling[i];
  s *= z;
  double e, r = two_sum(ph, -yh, &e);
  e += pl - yl;
  double e2;
  r = two_sum(r, __half_log_2pi[0], &e2);
  e += e2 + __half_log_2pi[1] + s;
  return fast_two_sum(r, e, lo);
}

static double series(const double *c, double e)
{
  double r = c[39];
  for (int i = 38; i >= 0; i--) r = r * e + c[i];
  return r * e + 0.0;   /* lgamma(1) and lgamma(2) are +0 */
}

/* Gamma(x) for 0 < x, as a double (overflowing to +inf past 171.6). */
static double gamma_pos(double x)
{
  double ph = 1, pl = 0, yh = x, yl = 0;
  while (yh < 8) {
    /* (ph + pl) * (yh + yl), then y + 1, all in double-double. */
    double e, p = two_prod(ph, yh, &e);
    pl = pl * yh + ph * yl + e;
    ph = fast_two_sum(p, pl, &pl);
    double t;
    yh = two_sum(yh, 1.0, &t);
    yh = fast_two_sum(yh, yl + t, &yl);
  }
  double sl, sh = stirling(yh, yl, &sl);
  if (sh > 710) return __math_err(ERANGE, INFINITY);
  int k;
  double gl, gh = __exp_core(sh, sl, &gl, &k);
  if (ph != 1 || pl != 0) gh = dd_div(gh, gl, ph, pl, &gl);
  double r = __scale(gh + gl, k);
  if (r == INFINITY) errno = ERANGE;
  return r;
}

/* sin(pi x) for finite x, with no error beyond the double-double evaluation. */
static double sinpi(double x)
{
  double n = round(2 * x);   /* x = n/2 + f, |f| <= 1/4 */
  double f = x - n / 2;      /* exact */
  double rl, rh = two_prod(__pi_dd[0], f, &rl);
  rl += __pi_dd[1] * f;
  int q = (int)fmod(n, 4.0);
  if (q < 0) q += 4;
  double lo, r;
  switch (q) {
  case 0: r = __sin_kernel(rh, rl, &lo); return r + lo;
  case 1: r = __cos_kernel(rh, rl, &lo); return r + lo;
  case 2: r = __sin_kernel(rh, rl, &lo); return -(r + lo);
  default: r = __cos_kernel(rh, rl, &lo); return -(r + lo);
  }
}

/* lgamma(x) for 0 < x. */
static double lgamma_pos(double x)
{
  if (x > 0x1p990) {
    /* The other terms are below an ulp of x (log x - 1); the double-double parts would overflow. */
    double r = x * (log(x) - 1);
    if (r == INFINITY) errno = ERANGE;
    return r;
  }
  if (x >= 8) {
    double lo, hi = stirling(x, 0, &lo);
    return hi + lo;
  }
  if (x > 2.5) {
    /* Down to 2 + e: lgamma(x) = lgamma(y) + log((y)(y + 1)...(x - 1)), y in (1.5, 2.5]. */
    double y = x, p = 1;
    while (y > 2.5) {
      y -= 1;
      p *= y;
    }
    return series(__lgamma2, y - 2) + log(p);
  }
  if (x >= 1.2) return series(__lgamma2, x - 2);
  if (x >= 0.7) return series(__lgamma1, x - 1);
  /* lgamma(x) = lgamma(x + 1) - log x, x + 1 in (1, 1.7): x + 1 - 2 = x - 1 is exact here. */
  return (x <= 0.2 ? series(__lgamma1, x) : series(__lgamma2, x - 1)) - log(x);
}

double lgamma_r(double x, int *sign)
{
  *sign = 1;
  if (x != x) return x + x;
  if (fabs(x) == INFINITY) return INFINITY;
  if (x > 0) return lgamma_pos(x);
  if (x == floor(x)) {                                      /* a pole */
    if (x == 0 && signbit(x)) *sign = -1;                  /* Gamma(-0) is -inf */
    return __math_err(ERANGE, INFINITY);
  }
  if (x > -0x1p-60) {
    *sign = -1;
    return -log(-x);
  }
  /* lgamma(x) = log(pi / |sin(pi x)|) - log(-x) - lgamma(-x) */
  double s = sinpi(x), lo;
  if (s < 0) *sign = -1;
  double hi = __log_core(__pi_dd[0] / fabs(s * -x), &lo);
  return (hi + lo) - lgamma_pos(-x);
}

double lgamma(double x)
{
  return lgamma_r(x, &signgam);
}

double tgamma(double x)
{
  if (x != x) return x + x;
  if (x == INFINITY) return x;
  if (x == 0) return __math_err(ERANGE, copysign(INFINITY, x));
  if (x > 0) return gamma_pos(x);
  if (x == floor(x) || x == -INFINITY) return __math_err(EDOM, __builtin_nan(""));
  if (x < -190) return __math_err(ERANGE, (int)fmod(floor(x), 2.0) ? -0.0 : 0.0);
  if (x > -0x1p-60) return 1 / x;
  /* Gamma(x) = pi / (sin(pi x) (-x) Gamma(-x)) */
  double g = gamma_pos(-x), s = sinpi(x);
  if (g == INFINITY) return __math_err(ERANGE, s > 0 ? 0.0 : -0.0);
  double dl, d = two_prod(s, -x, &dl);
  double r = __pi_dd[0] / ((d + dl) * g);
  if (r == 0) errno = ERANGE;
  return r;
}
