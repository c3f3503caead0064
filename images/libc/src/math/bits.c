/*
 * The exact functions, by manipulation of the representation: fabs, fabsf, copysign, floor,
 * ceil, trunc, round, lround, llround, rint, nearbyint, lrint, modf, frexp, ldexp, scalbn,
 * ilogb, logb, fmin, fmax, fdim.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include "mathlib.h"

#define SIGN 0x8000000000000000ULL
#define FRAC 0x000fffffffffffffULL

double fabs(double x)
{
  return asdouble(asuint64(x) & ~SIGN);
}

float fabsf(float x)
{
  union { float f; uint32_t u; } v = { x };
  v.u &= 0x7fffffff;
  return v.f;
}

double copysign(double x, double y)
{
  return asdouble((asuint64(x) & ~SIGN) | (asuint64(y) & SIGN));
}

/* Unbiased exponent of x's field (-1023 for zero and subnormals, 1024 for inf and NaN). */
static int expo(uint64_t u)
{
  return (int)((u >> 52) & 0x7ff) - 1023;
}

double trunc(double x)
{
  uint64_t u = asuint64(x);
  int e = expo(u);
  if (e >= 52) return e == 1024 ? x + x : x;   /* integral; inf; NaN (quietened) */
  if (e < 0) return asdouble(u & SIGN);
  return asdouble(u & ~(FRAC >> e));
}

double floor(double x)
{
  uint64_t u = asuint64(x);
  int e = expo(u);
  if (e >= 52) return e == 1024 ? x + x : x;
  if (e < 0) {
    if ((u << 1) == 0) return x;          /* +-0 */
    return (u & SIGN) ? -1.0 : 0.0;
  }
  uint64_t mask = FRAC >> e;
  if ((u & mask) == 0) return x;
  if (u & SIGN) u += mask + 1;            /* away from zero: a carry into the exponent is right */
  return asdouble(u & ~mask);
}

double ceil(double x)
{
  uint64_t u = asuint64(x);
  int e = expo(u);
  if (e >= 52) return e == 1024 ? x + x : x;
  if (e < 0) {
    if ((u << 1) == 0) return x;
    return (u & SIGN) ? -0.0 : 1.0;
  }
  uint64_t mask = FRAC >> e;
  if ((u & mask) == 0) return x;
  if (!(u & SIGN)) u += mask + 1;
  return asdouble(u & ~mask);
}

/* Halfway cases away from zero. */
double round(double x)
{
  uint64_t u = asuint64(x);
  int e = expo(u);
  if (e >= 52) return e == 1024 ? x + x : x;
  if (e < 0) return asdouble((u & SIGN) | (e == -1 ? 0x3ff0000000000000ULL : 0));
  uint64_t mask = FRAC >> e;
  u += (mask + 1) >> 1;
  return asdouble(u & ~mask);
}

long lround(double x)
{
  return (long)round(x);
}

long long llround(double x)
{
  return (long long)round(x);
}

/* In the current rounding mode (round to nearest, ties to even, unless a program changed it):
 * adding and removing 2^52 rounds away the fraction. */
double rint(double x)
{
  uint64_t u = asuint64(x);
  if (expo(u) >= 52) return expo(u) == 1024 ? x + x : x;
  double big = 0x1p52;
  double r = (u & SIGN) ? (x - big) + big : (x + big) - big;
  return copysign(r, x);
}

double nearbyint(double x)
{
  return rint(x);
}

long lrint(double x)
{
  return (long)rint(x);
}

long long llrint(double x)
{
  return (long long)rint(x);
}

double modf(double x, double *ip)
{
  uint64_t u = asuint64(x);
  int e = expo(u);
  if (e >= 52) {
    *ip = x;
    if (x != x) return x;
    return asdouble(u & SIGN);            /* +-0 fraction for integers and infinities */
  }
  if (e < 0) {
    *ip = asdouble(u & SIGN);
    return x;
  }
  uint64_t mask = FRAC >> e;
  if ((u & mask) == 0) {
    *ip = x;
    return asdouble(u & SIGN);
  }
  *ip = asdouble(u & ~mask);
  return x - *ip;                         /* exact */
}

double frexp(double x, int *ep)
{
  uint64_t u = asuint64(x);
  int be = (int)((u >> 52) & 0x7ff);
  if (be == 0) {
    if ((u << 1) == 0) {
      *ep = 0;
      return x;
    }
    x *= 0x1p64;
    u = asuint64(x);
    be = (int)((u >> 52) & 0x7ff) - 64;
  } else if (be == 0x7ff) {
    *ep = 0;
    return x + x;
  }
  *ep = be - 1022;
  return asdouble((u & ~0x7ff0000000000000ULL) | 0x3fe0000000000000ULL);
}

double scalbn(double x, int e)
{
  double r = __scale(x, e);
  if (x != 0 && (r == 0 || fabs(r) == INFINITY) && fabs(x) != INFINITY) errno = ERANGE;
  return r;
}

double ldexp(double x, int e)
{
  return scalbn(x, e);
}

double scalbln(double x, long e)
{
  return scalbn(x, e);   /* long is int here */
}

int ilogb(double x)
{
  uint64_t u = asuint64(x);
  int be = (int)((u >> 52) & 0x7ff);
  if (be == 0) {
    if ((u << 1) == 0) return __math_err(EDOM, 0), FP_ILOGB0;
    return (int)((asuint64(x * 0x1p64) >> 52) & 0x7ff) - 1023 - 64;
  }
  if (be == 0x7ff) return __math_err(EDOM, 0), (u << 12) ? FP_ILOGBNAN : INT_MAX;
  return be - 1023;
}

double logb(double x)
{
  if (x == 0) return __math_err(ERANGE, -INFINITY);
  if (x != x) return x + x;
  if (fabs(x) == INFINITY) return INFINITY;
  return ilogb(x);
}

double fmin(double x, double y)
{
  if (x != x) return y;
  if (y != y) return x;
  if (x == y) return signbit(x) ? x : y;  /* fmin(-0, +0) is -0 */
  return x < y ? x : y;
}

double fmax(double x, double y)
{
  if (x != x) return y;
  if (y != y) return x;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}

double fdim(double x, double y)
{
  if (x != x || y != y) return x + y;
  return x > y ? x - y : 0.0;
}
