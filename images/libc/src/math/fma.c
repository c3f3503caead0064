/*
 * fma(x, y, z) = x*y + z rounded once (C99 7.12.13.1), to nearest even. Neither MIPS I nor
 * SPARC v8 has a fused multiply-add, so the exact sum is formed in integers: the 106-bit product
 * of the significands and z's significand, aligned in 128 bits (a shifted-out tail collapses into
 * a sticky bit, which cannot change the rounding with 70 bits to spare), added or subtracted,
 * then rounded to a double (normal or subnormal). NaNs, infinite or zero factors go through
 * ordinary arithmetic, which already gives the fused result for them; an infinite z with finite
 * factors is the result. fmaf rounds the exact double sum of
 * its float operands the same way.
 */
#include <errno.h>
#include <math.h>
#include "mathlib.h"

/* A 128-bit unsigned integer. */
struct u128 {
  uint64_t hi, lo;
};

static struct u128 shl(struct u128 a, int n)
{
  if (n == 0) return a;
  if (n >= 128) return (struct u128){ 0, 0 };
  if (n >= 64) return (struct u128){ a.lo << (n - 64), 0 };
  return (struct u128){ a.hi << n | a.lo >> (64 - n), a.lo << n };
}

static struct u128 shr(struct u128 a, int n)
{
  if (n == 0) return a;
  if (n >= 128) return (struct u128){ 0, 0 };
  if (n >= 64) return (struct u128){ 0, a.hi >> (n - 64) };
  return (struct u128){ a.hi >> n, a.hi << (64 - n) | a.lo >> n };
}

/* a >> n, with every bit shifted out or-ed into bit 0 (sticky). */
static struct u128 shr_sticky(struct u128 a, int n)
{
  struct u128 r = shr(a, n);
  struct u128 back = shl(r, n);
  r.lo |= back.hi != a.hi || back.lo != a.lo;
  return r;
}

static int less(struct u128 a, struct u128 b)
{
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

static struct u128 add(struct u128 a, struct u128 b)
{
  uint64_t lo = a.lo + b.lo;
  return (struct u128){ a.hi + b.hi + (lo < a.lo), lo };
}

static struct u128 sub(struct u128 a, struct u128 b)
{
  return (struct u128){ a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo };
}

/* Index of the highest set bit (a nonzero). */
static int top(struct u128 a)
{
  uint64_t w = a.hi ? a.hi : a.lo;
  int n = a.hi ? 64 : 0;
  while (w >>= 1) n++;
  return n;
}

/* (-1)^neg * r * 2^e rounded to the nearest double, ties to even; r nonzero. */
static double round_pack(int neg, struct u128 r, int e)
{
  int E = top(r) + e;                      /* the value is in [2^E, 2^(E+1)) */
  int lsb = E < -1022 ? -1074 : E - 52;    /* the exponent of the result's last bit */
  int drop = lsb - e;
  uint64_t m;
  if (drop <= 0) {
    m = shl(r, -drop).lo;                  /* exact: at most 53 bits */
  } else if (drop > 128) {
    m = 0;                                 /* below half the smallest subnormal */
  } else {
    struct u128 kept = shr(r, drop);
    struct u128 rest = sub(r, shl(kept, drop));
    struct u128 half = shl((struct u128){ 0, 1 }, drop - 1);
    m = kept.lo;
    if (less(half, rest) || (!less(rest, half) && (m & 1))) m++;
  }
  double v;
  if (lsb == -1074 && m < (1ULL << 52)) {
    v = asdouble(m);                       /* subnormal */
  } else {
    if (m >> 53) {                         /* rounding carried into a new bit */
      m >>= 1;
      lsb++;
    }
    int be = lsb + 52 + 1023;
    if (be >= 2047) {
      errno = ERANGE;
      v = INFINITY;
    } else {
      v = asdouble((uint64_t)be << 52 | (m & 0x000fffffffffffffULL));
    }
  }
  return neg ? -v : v;
}

double fma(double x, double y, double z)
{
  if (x != x || y != y || z != z || x == 0 || y == 0 || fabs(x) == INFINITY || fabs(y) == INFINITY)
    return x * y + z;
  if (fabs(z) == INFINITY) return z;   /* x*y is finite, even where the product would overflow */
  int ex, ey, ez;
  uint64_t mx = unpack53(x, &ex), my = unpack53(y, &ey);
  /* The product of the significands, 32-bit halves by 32-bit halves. */
  uint64_t a0 = (uint32_t)mx, a1 = mx >> 32, b0 = (uint32_t)my, b1 = my >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  struct u128 p = { p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (uint32_t)p00 };
  int ep = ex + ey;
  int pneg = signbit(x) != signbit(y);
  if (z == 0) return round_pack(pneg, p, ep);
  int zneg = signbit(z) != 0;
  struct u128 q = { 0, unpack53(z, &ez) };
  /* Both with their top bit at 125 at most (two bits of headroom for the sum). */
  int sp = 125 - top(p), sq = 125 - top(q);
  p = shl(p, sp);
  ep -= sp;
  q = shl(q, sq);
  ez -= sq;
  if (ep > ez) {
    q = shr_sticky(q, ep - ez > 200 ? 200 : ep - ez);
    ez = ep;
  } else if (ez > ep) {
    p = shr_sticky(p, ez - ep > 200 ? 200 : ez - ep);
    ep = ez;
  }
  struct u128 r;
  int neg;
  if (pneg == zneg) {
    r = add(p, q);
    neg = pneg;
  } else if (less(p, q)) {
    r = sub(q, p);
    neg = zneg;
  } else {
    r = sub(p, q);
    neg = pneg;
  }
  if (r.hi == 0 && r.lo == 0) return 0.0;   /* exact cancellation: +0 when rounding to nearest */
  return round_pack(neg, r, ep);
}

/*
 * The float operands' product is exact in a double, and so is the sum as the double-double
 * s + e. Rounding s to odd (its last bit set when e is not zero, moving it one ulp toward e)
 * keeps what decides the rounding to float, which then happens once.
 */
float fmaf(float x, float y, float z)
{
  double p = (double)x * y, e;
  double s = two_sum(p, (double)z, &e);
  if (s != s || fabs(s) == INFINITY) return (float)(p + z);
  if (e != 0 && (asuint64(s) & 1) == 0) s = asdouble(asuint64(s) + ((e > 0) == (s > 0) ? 1 : -1));
  return (float)s;
}
