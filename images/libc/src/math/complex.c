/*
 * The <complex.h> functions from the real ones. Double forms here; the float forms round the
 * double results, the long double forms are the double ones (long double is double here).
 * Infinite and NaN parts go through the formulas as they are, except where noted: C99's
 * Annex G special values are not all reproduced.
 */
#include <complex.h>
#include <math.h>
#include "mathlib.h"

static double _Complex mk(double x, double y)
{
  return CMPLX(x, y);
}

double creal(double _Complex z) { return __real__ z; }
double cimag(double _Complex z) { return __imag__ z; }
double _Complex conj(double _Complex z) { return mk(__real__ z, -__imag__ z); }
double cabs(double _Complex z) { return hypot(__real__ z, __imag__ z); }
double carg(double _Complex z) { return atan2(__imag__ z, __real__ z); }

double _Complex cproj(double _Complex z)
{
  if (isinf(__real__ z) || isinf(__imag__ z)) return mk(INFINITY, copysign(0.0, __imag__ z));
  return z;
}

/* e^x (cos y + i sin y); a real argument (y == 0) gives a real result with y's zero. */
double _Complex cexp(double _Complex z)
{
  double x = __real__ z, y = __imag__ z, s, c;
  if (y == 0) return mk(exp(x), y);
  if (isinf(x) && x < 0 && !isfinite(y)) return mk(0.0, 0.0);
  sincos(y, &s, &c);
  double r = exp(x);
  return mk(r * c, r * s);
}

/*
 * log |z| + i arg z. Near |z| = 1, log |z| = log1p(|z|^2 - 1) / 2 with |z|^2 - 1 = u^2 + 2u + b^2
 * (u = a - 1 exact, a the larger part, b the smaller), the squares in double-double.
 */
double _Complex clog(double _Complex z)
{
  double x = __real__ z, y = __imag__ z;
  double a = fabs(x), b = fabs(y), m;
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (a > 0.5 && a < 2 && b < 1) {
    double u = a - 1, ul, uh = two_prod(u, u, &ul), bl, bh = two_prod(b, b, &bl);
    double e, s = two_sum(2 * u, uh, &e);
    double e2;
    s = two_sum(s, bh, &e2);
    m = 0.5 * log1p(s + (e + e2 + ul + bl));
  } else {
    m = log(hypot(x, y));
  }
  return mk(m, atan2(y, x));
}

/*
 * sqrt((|x| + |z|) / 2) and y over twice it, arranged by the sign of x; scaled down first when
 * the sum could overflow.
 */
double _Complex csqrt(double _Complex z)
{
  double x = __real__ z, y = __imag__ z;
  if (x == 0 && y == 0) return mk(0.0, y);
  if (isinf(y)) return mk(INFINITY, y);
  if (isinf(x)) {
    if (x > 0) return mk(x, isnan(y) ? y : copysign(0.0, y));
    return mk(isnan(y) ? fabs(y - y) : 0.0, copysign(INFINITY, y));
  }
  double scale = 1;
  if (fabs(x) > 0x1p1020 || fabs(y) > 0x1p1020) {
    x *= 0.25;
    y *= 0.25;
    scale = 2;
  }
  double t = sqrt((fabs(x) + hypot(x, y)) * 0.5);
  if (t == 0) return mk(0.0, y);
  if (x >= 0) return mk(t * scale, y / (2 * t) * scale);
  return mk(fabs(y) / (2 * t) * scale, copysign(t, y) * scale);
}

double _Complex cpow(double _Complex z, double _Complex w)
{
  if (__real__ z == 0 && __imag__ z == 0) {
    if (__imag__ w == 0 && __real__ w > 0) return mk(0.0, 0.0);
  }
  return cexp(w * clog(z));
}

double _Complex csinh(double _Complex z)
{
  double x = __real__ z, y = __imag__ z, s, c;
  if (y == 0) return mk(sinh(x), y);
  sincos(y, &s, &c);
  return mk(sinh(x) * c, cosh(x) * s);
}

double _Complex ccosh(double _Complex z)
{
  double x = __real__ z, y = __imag__ z, s, c;
  if (y == 0) return mk(cosh(x), x == 0 ? y * x : copysign(0.0, x) * y);
  sincos(y, &s, &c);
  return mk(cosh(x) * c, sinh(x) * s);
}

/*
 * Kahan's form: with t = tan y, b = 1 + t^2, s = sinh x, r = sqrt(1 + s^2) = cosh x,
 * tanh z = (b r s + i t) / (1 + b s^2), which neither overflows early nor cancels; for |x| > 22,
 * tanh x is +-1 to the last bit and the imaginary part is 4 sin y cos y / e^(2|x|).
 */
double _Complex ctanh(double _Complex z)
{
  double x = __real__ z, y = __imag__ z;
  if (!isfinite(x)) {
    if (isnan(x)) return mk(x, y == 0 ? y : x);
    return mk(copysign(1.0, x), isfinite(y) ? copysign(0.0, sin(y) * cos(y)) : copysign(0.0, y));
  }
  if (fabs(x) > 22) {
    double e = exp(-2 * fabs(x));
    return mk(copysign(1.0, x), 4 * sin(y) * cos(y) * e);
  }
  double t = tan(y), b = 1 + t * t, s = sinh(x), r = sqrt(1 + s * s);
  double d = 1 + b * s * s;
  return mk(b * r * s / d, t / d);
}

/* The circular functions from the hyperbolic ones: f(z) = -i h(iz) or h(iz) (C99 7.3.5). */
static double _Complex times_i(double _Complex z)
{
  return mk(-__imag__ z, __real__ z);
}

static double _Complex times_minus_i(double _Complex z)
{
  return mk(__imag__ z, -__real__ z);
}

double _Complex csin(double _Complex z) { return times_minus_i(csinh(times_i(z))); }
double _Complex ccos(double _Complex z) { return ccosh(times_i(z)); }
double _Complex ctan(double _Complex z) { return times_minus_i(ctanh(times_i(z))); }

/* asinh z = log(z + sqrt(z^2 + 1)), taken with Re z >= 0 (asinh(-z) = -asinh z). */
double _Complex casinh(double _Complex z)
{
  double x = __real__ z, y = __imag__ z;
  int neg = signbit(x) != 0;
  double _Complex w = neg ? -z : z;
  double _Complex r = clog(w + csqrt(w * w + 1));
  if (neg) r = -r;
  if (y == 0 && isfinite(x)) return mk(__real__ r, y);
  return r;
}

double _Complex casin(double _Complex z) { return times_minus_i(casinh(times_i(z))); }

/* acos z = -i log(z + i sqrt(1 - z^2)) */
double _Complex cacos(double _Complex z)
{
  return times_minus_i(clog(z + times_i(csqrt(1 - z * z))));
}

/* acosh z = log(z + sqrt(z + 1) sqrt(z - 1)) */
double _Complex cacosh(double _Complex z)
{
  return clog(z + csqrt(z + 1) * csqrt(z - 1));
}

/* atanh z = (log(1 + z) - log(1 - z)) / 2 */
double _Complex catanh(double _Complex z)
{
  double x = __real__ z, y = __imag__ z;
  if (y == 0 && fabs(x) < 1) return mk(atanh(x), y);
  if (x == 0 && !isnan(y)) return mk(x, atan(y)); /* atanh(±0 + iy) = ±0 + i atan y */
  return 0.5 * (clog(1 + z) - clog(1 - z));
}

double _Complex catan(double _Complex z) { return times_minus_i(catanh(times_i(z))); }

/* The float and long double forms. */
#define C1(name)                                                                         \
  float _Complex name##f(float _Complex z) { return (float _Complex)name((double _Complex)z); } \
  long double _Complex name##l(long double _Complex z) { return name((double _Complex)z); }
C1(cacos) C1(casin) C1(catan) C1(ccos) C1(csin) C1(ctan) C1(cacosh) C1(casinh) C1(catanh)
C1(ccosh) C1(csinh) C1(ctanh) C1(cexp) C1(clog) C1(csqrt) C1(cproj) C1(conj)

#define R1(name)                                                         \
  float name##f(float _Complex z) { return (float)name((double _Complex)z); } \
  long double name##l(long double _Complex z) { return name((double _Complex)z); }
R1(cabs) R1(carg) R1(cimag) R1(creal)

float _Complex cpowf(float _Complex z, float _Complex w)
{
  return (float _Complex)cpow(z, w);
}

long double _Complex cpowl(long double _Complex z, long double _Complex w)
{
  return cpow(z, w);
}
