/*
 * __divlu: a 64-by-32-bit division with 32-bit divide instructions only, for the big-number
 * code of strtod and printf. gcc would call the general 64-bit division helper, which on these
 * machines (no 64-bit divide) is a much longer bit-serial loop. Hacker's Delight's divlu:
 * schoolbook division in 16-bit digits, each quotient digit estimated from the divisor's top
 * half and corrected at most twice.
 *
 * Requires u1 < v (the quotient fits 32 bits) and v normalised (bit 31 set).
 */
#include <stdint.h>

uint32_t __divlu(uint32_t u1, uint32_t u0, uint32_t v, uint32_t *rem)
{
  const uint32_t b = 65536;
  uint32_t vn1 = v >> 16, vn0 = v & 0xffff;
  uint32_t un1 = u0 >> 16, un0 = u0 & 0xffff;
  uint32_t q1 = u1 / vn1, rhat = u1 - q1 * vn1;
  while (q1 >= b || q1 * vn0 > b * rhat + un1) {
    q1--;
    rhat += vn1;
    if (rhat >= b) break;
  }
  uint32_t un21 = u1 * b + un1 - q1 * v;   /* exact modulo 2^32: the true value is below v */
  uint32_t q0 = un21 / vn1;
  rhat = un21 - q0 * vn1;
  while (q0 >= b || q0 * vn0 > b * rhat + un0) {
    q0--;
    rhat += vn1;
    if (rhat >= b) break;
  }
  *rem = un21 * b + un0 - q0 * v;
  return q1 * b + q0;
}
