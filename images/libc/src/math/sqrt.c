/*
 * sqrt, correctly rounded. SPARC v8 has fsqrtd. MIPS I has no square root instruction (sqrt.d
 * came with MIPS II), so it is computed here exactly: the digit-by-digit integer square root of
 * the significand scaled by 2^56 gives 55 bits of the root and a remainder, which decide the
 * rounding (half to even) with no error at all.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* The root proper; sqrt and sqrtf call it by this name, which gcc does not know (it would turn
 * (float)sqrt(f) back into a call of sqrtf). */
static double root(double x)
{
#if defined(__sparc__)
  double r;
  if (x < 0) return __math_err(EDOM, __builtin_nan(""));
  __asm__("fsqrtd %1, %0" : "=f"(r) : "f"(x));
  return r;
#else
  uint64_t u = asuint64(x);
  int be = (int)(u >> 52);       /* sign included */
  if (be >= 0x7ff || x <= 0) {
    if (x != x || x == 0 || x == INFINITY) return x + x;   /* NaN (quietened), +-0, +inf */
    return __math_err(EDOM, __builtin_nan(""));
  }
  uint64_t m = u & 0x000fffffffffffffULL;
  int e;
  if (be == 0) {                 /* subnormal: normalise */
    e = -1074;
    while (!(m >> 52)) m <<= 1, e--;
  } else {
    m |= 0x0010000000000000ULL;
    e = be - 1075;
  }
  /* x = m * 2^e; make e even (m then in [2^52, 2^54)). */
  if (e & 1) {
    m <<= 1;
    e--;
  }
  /* Root of M = m * 2^56 (110 bits, consumed two bits at a time from the top): q in [2^54, 2^55). */
  uint64_t q = 0, r = 0;
  for (int i = 0; i < 55; i++) {
    int pos = 108 - 2 * i;       /* bit position in M of the pair's low bit */
    uint64_t pair = pos >= 56 ? (m >> (pos - 56)) & 3 : 0;
    r = (r << 2) | pair;
    uint64_t t = (q << 2) | 1;
    q <<= 1;
    if (r >= t) {
      r -= t;
      q |= 1;
    }
  }
  uint64_t mant = q >> 2;
  int round = (int)(q >> 1) & 1, sticky = (q & 1) || r != 0;
  if (round && (sticky || (mant & 1))) mant++;
  /* sqrt(x) = q * 2^(e/2 - 28) = mant * 2^(e/2 - 26); mant's hidden bit adds one to the field. */
  int E = e / 2 + 26;
  return asdouble(((uint64_t)(E + 1022) << 52) + mant);
#endif
}

double sqrt(double x)
{
  return root(x);
}

float sqrtf(float x)
{
  /* Rounding the correctly rounded double root to float is correct: 53 >= 2 * 24 + 2. */
  return (float)root(x);
}
