/*
 * remainder and remquo (C99 7.12.10.2-3): x - n*y for the integer n nearest x/y (ties to even),
 * exact, by the binary long division fmod uses, keeping the quotient's low bits. remquo's
 * quotient is the truncated quotient's low three bits, plus one when the remainder was rounded
 * the other way (so 0 to 8), with the sign of x/y: glibc's choice, which C99's "congruent modulo
 * 2^n, n >= 3" allows.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* |a| = m * 2^e with m a 53-bit integer (top bit 52), a finite and nonzero. */
static uint64_t unpack(double a, int *e)
{
  uint64_t u = asuint64(a) & 0x7fffffffffffffffULL;
  int be = (int)(u >> 52);
  uint64_t m = u & 0x000fffffffffffffULL;
  if (be == 0) {
    *e = -1074;
    while (!(m >> 52)) m <<= 1, (*e)--;
  } else {
    m |= 0x0010000000000000ULL;
    *e = be - 1075;
  }
  return m;
}

/* m * 2^e as a double (exact: m < 2^53 and the result is at least the smallest subnormal's multiple). */
static double pack(uint64_t m, int e)
{
  if (m == 0) return 0.0;
  while (!(m >> 52)) m <<= 1, e--;
  if (e >= -1074) return asdouble(((uint64_t)(e + 1075 - 1) << 52) + m);
  return asdouble(m >> (-1074 - e));
}

static double rem(double x, double y, int *quo)
{
  double ax = fabs(x), ay = fabs(y), r;
  unsigned q = 0;   /* the truncated quotient's low bits, then 1 more if rounded up */
  int neg = signbit(x) != 0;
  if (x != x || y != y) return *quo = 0, x + y;
  if (ax == INFINITY || ay == 0) return *quo = 0, __math_err(EDOM, __builtin_nan(""));
  if (ax < ay) {
    r = ax;
    /* ay - ax is exact when it matters (ax >= ay/2, Sterbenz), and never overflows. */
    if (ax > ay - ax) {
      r = -(ay - ax);
      q = 1;
    }
  } else {
    int ex, ey;
    uint64_t mx = unpack(ax, &ex), my = unpack(ay, &ey), m = mx;
    for (int n = ex - ey; n > 0; n--) {
      if (m >= my) m -= my, q |= 1;
      m <<= 1;
      q <<= 1;
    }
    if (m >= my) m -= my, q |= 1;
    q &= 7;
    if (2 * m > my || (2 * m == my && (q & 1))) {
      r = -pack(my - m, ey);
      q++;
    } else {
      r = pack(m, ey);
    }
  }
  int qneg = neg != (signbit(y) != 0);
  *quo = qneg ? -(int)q : (int)q;
  if (r == 0) return neg ? -0.0 : 0.0;
  return neg ? -r : r;
}

double remainder(double x, double y)
{
  int q;
  return rem(x, y, &q);
}

double remquo(double x, double y, int *quo)
{
  return rem(x, y, quo);
}
