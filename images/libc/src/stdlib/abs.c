/* Integer arithmetic: abs, labs, llabs, imaxabs, div, ldiv, lldiv, imaxdiv (C11 division
 * truncates toward zero, which is what the hardware divide and gcc's helpers do). */
#include <inttypes.h>
#include <stdlib.h>

int abs(int i) { return i < 0 ? -i : i; }
long labs(long i) { return i < 0 ? -i : i; }
long long llabs(long long i) { return i < 0 ? -i : i; }
intmax_t imaxabs(intmax_t i) { return i < 0 ? -i : i; }

div_t div(int num, int den)
{
  div_t r = { num / den, num % den };
  return r;
}

ldiv_t ldiv(long num, long den)
{
  ldiv_t r = { num / den, num % den };
  return r;
}

lldiv_t lldiv(long long num, long long den)
{
  lldiv_t r = { num / den, num % den };
  return r;
}

imaxdiv_t imaxdiv(intmax_t num, intmax_t den)
{
  imaxdiv_t r = { num / den, num % den };
  return r;
}
