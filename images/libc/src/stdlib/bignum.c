/*
 * Unsigned big integers on 32-bit limbs, just what exact decimal conversion needs (strtod and
 * printf's __dtoa): multiply-add by a small number, multiply by a power of five, shift left,
 * bit length, and a 64-bit quotient with a sticky remainder bit.
 */
#include "bignum.h"

/* a = a * m + c, m and c below 2^32. */
void __big_muladd(struct big *a, uint32_t m, uint32_t c)
{
  for (int i = 0; i < a->n; i++) {
    uint64_t p = (uint64_t)a->v[i] * m + c;
    a->v[i] = (uint32_t)p;
    c = (uint32_t)(p >> 32);
  }
  if (c) a->v[a->n++] = c;
}

/* a *= 5^k: thirteen factors of 5 (5^13 < 2^32) per pass. */
void __big_mulpow5(struct big *a, int k)
{
  static const uint32_t p5[13] = { 1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625 };
  for (; k >= 13; k -= 13) __big_muladd(a, 1220703125u, 0);
  if (k) __big_muladd(a, p5[k], 0);
}

/* a <<= s bits. */
void __big_shl(struct big *a, int s)
{
  int w = s >> 5, b = s & 31;
  if (a->n == 0) return;
  if (b) {
    uint32_t carry = 0;
    for (int i = 0; i < a->n; i++) {
      uint32_t x = a->v[i];
      a->v[i] = (x << b) | carry;
      carry = x >> (32 - b);
    }
    if (carry) a->v[a->n++] = carry;
  }
  if (w) {
    for (int i = a->n - 1; i >= 0; i--) a->v[i + w] = a->v[i];
    for (int i = 0; i < w; i++) a->v[i] = 0;
    a->n += w;
  }
}

int __big_bits(const struct big *a)
{
  if (a->n == 0) return 0;
  uint32_t top = a->v[a->n - 1];
  int b = 32 * (a->n - 1);
  while (top) b++, top >>= 1;
  return b;
}

/*
 * floor(a / b) for a < b * 2^64 (b != 0), by Knuth's algorithm D with 32-bit digits (two
 * quotient digits); *sticky is set when the remainder is nonzero. Destroys a and b.
 */
uint64_t __big_div64(struct big *a, struct big *b, int *sticky)
{
  /* Normalise: the divisor's top bit set (the quotient is unchanged). */
  int sh = 0;
  for (uint32_t top = b->v[b->n - 1]; !(top & 0x80000000u); top <<= 1) sh++;
  __big_shl(a, sh);
  __big_shl(b, sh);
  int n = b->n;
  while (a->n < n + 2) a->v[a->n++] = 0;
  uint32_t *u = a->v, *v = b->v;
  uint64_t q = 0;
  for (int j = 1; j >= 0; j--) {
    /* qhat = min((u[j+n] u[j+n-1]) / v[n-1], 2^32 - 1), then corrected with v[n-2]. */
    uint64_t qhat, rhat;
    if (u[j + n] >= v[n - 1]) {   /* only equality is possible */
      qhat = 0xffffffffu;
      rhat = (uint64_t)u[j + n - 1] + v[n - 1];
    } else {
      uint32_t r32;
      qhat = __divlu(u[j + n], u[j + n - 1], v[n - 1], &r32);
      rhat = r32;
    }
    while (!(rhat >> 32) && n > 1 && qhat * v[n - 2] > ((rhat << 32) | u[j + n - 2])) {
      qhat--;
      rhat += v[n - 1];
    }
    /* u[j .. j+n] -= qhat * v */
    uint32_t carry = 0, borrow = 0;
    for (int i = 0; i < n; i++) {
      uint64_t p = qhat * v[i] + carry;
      carry = (uint32_t)(p >> 32);
      uint32_t lo = (uint32_t)p, t = u[i + j] - lo;
      uint32_t b2 = u[i + j] < lo;
      u[i + j] = t - borrow;
      borrow = b2 | (t < borrow);
    }
    uint32_t t = u[j + n] - carry;
    uint32_t under = u[j + n] < carry || t < borrow;
    u[j + n] = t - borrow;
    if (under) {
      /* qhat was one too large (rare): add v back. */
      qhat--;
      uint32_t c = 0;
      for (int i = 0; i < n; i++) {
        uint64_t sum = (uint64_t)u[i + j] + v[i] + c;
        u[i + j] = (uint32_t)sum;
        c = (uint32_t)(sum >> 32);
      }
      u[j + n] += c;
    }
    q = (q << 32) | (uint32_t)qhat;
  }
  int nz = 0;
  for (int i = 0; i < n; i++) nz |= u[i] != 0;
  *sticky = nz;
  return q;
}

