/*
 * nextafter, nexttoward (long double is double here) and nan: the neighbours of a double by
 * its bits; ERANGE when the step overflows, or lands on a subnormal or zero from a nonzero x
 * (C99 F.9.8.3 leaves errno to the implementation; this is glibc's choice).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "mathlib.h"

double nextafter(double x, double y)
{
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  uint64_t u = asuint64(x);
  if (x == 0) u = (asuint64(y) & 0x8000000000000000ULL) | 1;
  else if ((x < y) == (x > 0)) u++;
  else u--;
  double r = asdouble(u);
  if (fabs(r) == INFINITY || (fabs(r) < 0x1p-1022 && x != 0)) errno = ERANGE;
  return r;
}

double nexttoward(double x, long double y)
{
  return nextafter(x, (double)y);
}

/*
 * nan("n"): a quiet NaN, with payload n (a number as strtoull reads it) in its low fraction bits.
 * The R2010 follows the original IEEE 754 MIPS encoding, where a quiet NaN has the top fraction
 * bit clear; SPARC's quiet NaNs have it set.
 */
double nan(const char *tag)
{
  uint64_t payload = *tag ? strtoull(tag, NULL, 0) & 0x0007ffffffffffffULL : 0;
  if (payload == 0) return __builtin_nan("");
#ifdef __mips__
  return asdouble(0x7ff0000000000000ULL | payload);
#else
  return asdouble(0x7ff8000000000000ULL | payload);
#endif
}
