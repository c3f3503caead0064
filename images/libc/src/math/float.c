/*
 * The float (f) and long double (l) forms of the math functions (C99 7.12).
 *
 * long double is double on both targets (MIPS o32; SPARC with -mlong-double-64), so each l form
 * is its double function. A float function is its double function on the float argument,
 * rounded to float: exact wherever the double result is exact (rounding, remainders, scaling,
 * fmin...), and within half an ulp plus a tiny fraction for the others (the double result is
 * correct to about 2^-52 relative, so only a value within that of a float rounding boundary can
 * round the wrong way). fmaf (fma.c) and sqrtf (sqrt.c) are correctly rounded; nextafterf works
 * on float bits.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/*
 * The double functions are called under other C names (the same symbols, by asm labels) that
 * gcc does not know as builtins, so that it does not narrow (float)f((double)x) back into a
 * call of the float function being defined.
 */
#define F1(name) \
  extern double d_##name(double) __asm__(#name); \
  float name##f(float x) { return (float)d_##name(x); } \
  long double name##l(long double x) { return name(x); }
#define F2(name) \
  extern double d_##name(double, double) __asm__(#name); \
  float name##f(float x, float y) { return (float)d_##name(x, y); } \
  long double name##l(long double x, long double y) { return name(x, y); }

F1(acos) F1(asin) F1(atan) F1(cos) F1(sin) F1(tan)
F1(acosh) F1(asinh) F1(atanh) F1(cosh) F1(sinh) F1(tanh)
F1(exp) F1(exp2) F1(expm1) F1(log) F1(log10) F1(log1p) F1(log2) F1(logb)
F1(cbrt) F1(erf) F1(erfc) F1(lgamma) F1(tgamma)
F1(ceil) F1(floor) F1(nearbyint) F1(rint) F1(round) F1(trunc)
F2(atan2) F2(hypot) F2(pow) F2(fmod) F2(remainder) F2(copysign) F2(fdim) F2(fmax) F2(fmin)

long double fabsl(long double x) { return fabs(x); }
long double sqrtl(long double x) { return sqrt(x); }
long double fmal(long double x, long double y, long double z) { return fma(x, y, z); }

float frexpf(float x, int *e) { return (float)frexp(x, e); }
long double frexpl(long double x, int *e) { return frexp(x, e); }
float ldexpf(float x, int e) { return (float)ldexp(x, e); }
long double ldexpl(long double x, int e) { return ldexp(x, e); }
float scalbnf(float x, int e) { return (float)scalbn(x, e); }
long double scalbnl(long double x, int e) { return scalbn(x, e); }
float scalblnf(float x, long e) { return (float)scalbln(x, e); }
long double scalblnl(long double x, long e) { return scalbln(x, e); }
int ilogbf(float x) { return ilogb(x); }
int ilogbl(long double x) { return ilogb(x); }
long lrintf(float x) { return lrint(x); }
long lrintl(long double x) { return lrint(x); }
long long llrintf(float x) { return llrint(x); }
long long llrintl(long double x) { return llrint(x); }
long lroundf(float x) { return lround(x); }
long lroundl(long double x) { return lround(x); }
long long llroundf(float x) { return llround(x); }
long long llroundl(long double x) { return llround(x); }
float remquof(float x, float y, int *q) { return (float)remquo(x, y, q); }
long double remquol(long double x, long double y, int *q) { return remquo(x, y, q); }
float nanf(const char *tag) { return (float)nan(tag); }
long double nanl(const char *tag) { return nan(tag); }
long double nextafterl(long double x, long double y) { return nextafter(x, y); }
long double nexttowardl(long double x, long double y) { return nextafter(x, y); }
float lgammaf_r(float x, int *sign) { return (float)lgamma_r(x, sign); }

float modff(float x, float *ip)
{
  double i, f = modf(x, &i);
  *ip = (float)i;
  return (float)f;
}

long double modfl(long double x, long double *ip)
{
  double i, f = modf(x, &i);
  *ip = i;
  return f;
}

/* The float next to x in the direction of y, on float bits; ERANGE as nextafter. */
float nextafterf(float x, float y)
{
  union { float f; uint32_t u; } v = { x };
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0) {
    union { float f; uint32_t u; } t = { y };
    v.u = (t.u & 0x80000000u) | 1;
  } else if ((x < y) == (x > 0)) {
    v.u++;
  } else {
    v.u--;
  }
  if (fabsf(v.f) == INFINITY || (fabsf(v.f) < 0x1p-126f && x != 0)) errno = ERANGE;
  return v.f;
}

float nexttowardf(float x, long double y)
{
  if (x != x || y != y) return (float)(x + y);
  if ((long double)x == y) return (float)y;
  return nextafterf(x, x < y ? INFINITY : -INFINITY);
}

/*
 * sincos (a GNU extension, declared in <math.h>): gcc turns a sin and a cos of the same argument
 * into one call of it when optimising, so a program calling only sin and cos may need it. Its
 * own sin and cos go by other C names, or gcc would turn them into a call of sincos itself.
 */
extern double d_sin2(double) __asm__("sin");
extern double d_cos2(double) __asm__("cos");

void sincos(double x, double *s, double *c)
{
  *s = d_sin2(x);
  *c = d_cos2(x);
}

void sincosf(float x, float *s, float *c)
{
  *s = (float)d_sin2(x);
  *c = (float)d_cos2(x);
}

void sincosl(long double x, long double *s, long double *c)
{
  *s = d_sin2(x);
  *c = d_cos2(x);
}
