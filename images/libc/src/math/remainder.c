/*
 * remainder and remquo (C99 7.12.10.2-3): x - n*y for the integer n nearest x/y (ties to even),
 * exact, from fmod's binary long division (__divrem) and the quotient's low bits. remquo's
 * quotient is the truncated quotient's low three bits, plus one when the remainder was rounded
 * the other way (so 0 to 8), with the sign of x/y: glibc's choice, which C99's "congruent modulo
 * 2^n, n >= 3" allows.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

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
    int ey;
    uint64_t my;
    uint32_t n;
    uint64_t m = __divrem(ax, ay, &ey, &my, &n);
    q = n & 7;
    if (2 * m > my || (2 * m == my && (q & 1))) {
      r = -pack53(my - m, ey);
      q++;
    } else {
      r = pack53(m, ey);
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
