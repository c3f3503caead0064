/*
 * Exact binary-to-decimal conversion for printf's %e %f %g.
 *
 * A finite double is m * 2^e exactly (m < 2^53). Its integer part is a big binary integer turned
 * into decimal by repeated division by 10^4; its fraction f / 2^F (F = -e fraction bits) yields
 * nine decimal digits at a time by multiplying the big binary fraction by 10^9 and taking what
 * carries out above the binary point. Every step is exact integer arithmetic on 32-bit limbs, so
 * the digit string is the true decimal expansion of the binary value, and rounding it (half to
 * even on exact ties, as glibc does in the default rounding mode) gives the correctly rounded
 * result for any precision.
 */
#include <stdint.h>
#include "dtoa.h"
#include "../stdlib/bignum.h"

#define INT_LIMBS 36   /* integer part < 2^1024, plus the two limbs m << e may overhang */
#define FRAC_LIMBS 36  /* fraction of up to 1074 bits, aligned up to a limb boundary */

/* Appends the decimal digits of the big integer a[0..n) (little-endian limbs, destroyed). */
static int int_digits(uint32_t *a, int n, char *out)
{
  uint16_t chunk[80];
  int nc = 0;
  while (n > 0 && a[n - 1] == 0) n--;
  if (n == 0) return 0;
  while (n > 0) {
    /* Divide by 10^4 sixteen bits at a time: the partial dividends stay below 2^32, so only
     * 32-bit division (by a constant) is needed. */
    uint32_t r = 0;
    for (int i = n - 1; i >= 0; i--) {
      uint32_t x = (r << 16) | (a[i] >> 16);
      uint32_t qh = x / 10000;
      r = x - qh * 10000;
      x = (r << 16) | (a[i] & 0xffff);
      uint32_t ql = x / 10000;
      r = x - ql * 10000;
      a[i] = (qh << 16) | ql;
    }
    chunk[nc++] = (uint16_t)r;
    while (n > 0 && a[n - 1] == 0) n--;
  }
  int nd = 0;
  char tmp[4];
  unsigned c = chunk[--nc];
  int k = 0;
  do tmp[k++] = (char)('0' + c % 10); while ((c /= 10) != 0);
  while (k) out[nd++] = tmp[--k];
  while (nc > 0) {
    c = chunk[--nc];
    out[nd + 3] = (char)('0' + c % 10); c /= 10;
    out[nd + 2] = (char)('0' + c % 10); c /= 10;
    out[nd + 1] = (char)('0' + c % 10); c /= 10;
    out[nd] = (char)('0' + c);
    nd += 4;
  }
  return nd;
}

/*
 * Multiplies the fraction f (limbs lo..hi nonzero, binary point above limb nlimb-1) by 10^9 and
 * returns the part that moves above the binary point (0..999999999).
 */
static uint32_t frac_mul(uint32_t *f, int *plo, int *phi, int nlimb)
{
  int lo = *plo, hi = *phi;
  uint32_t carry = 0;
  for (int i = lo; i <= hi; i++) {
    uint64_t p = (uint64_t)f[i] * 1000000000u + carry;
    f[i] = (uint32_t)p;
    carry = (uint32_t)(p >> 32);
  }
  if (carry && hi + 1 < nlimb) {
    f[++hi] = carry;
    carry = 0;
  }
  while (lo <= hi && f[lo] == 0) lo++;
  while (hi >= lo && f[hi] == 0) hi--;
  *plo = lo;
  *phi = hi;
  return carry;
}

/*
 * Rounds the digits buf[0..nd) to need digits, half to even on the exact value (sticky: nonzero
 * digits follow those in buf); a carry out of the first digit increments *decpt. Returns the
 * digit count without trailing zeros.
 */
static int round_digits(char *buf, int nd, int need, int sticky, int *decpt)
{
  if (nd > need) {
    int rd = buf[need] - '0';
    int rest = sticky;
    for (int i = need + 1; i < nd && !rest; i++) rest = buf[i] != '0';
    int odd = need > 0 && ((buf[need - 1] - '0') & 1);
    nd = need;
    if (rd > 5 || (rd == 5 && (rest || odd))) {
      int i = need - 1;
      while (i >= 0 && buf[i] == '9') i--;
      if (i < 0) {
        buf[0] = '1';
        nd = 1;
        (*decpt)++;
      } else {
        buf[i]++;
        nd = i + 1;
      }
    }
  }
  while (nd > 0 && buf[nd - 1] == '0') nd--;
  return nd;
}

/*
 * The leading digits of a large integer m * 2^e (bits = its bit length, more than 60) for mode
 * 'e' with at most 17 digits: Q = floor(m * 2^e / 10^K) by one big division, with K chosen so
 * that Q has 18 or 19 digits, and a sticky bit for the remainder. This replaces converting all
 * of up to 309 integer digits. Returns the digit count; *dp receives the decimal exponent.
 */
static int top_digits(uint64_t m, int e, int bits, char *buf, int *dp, int *sticky)
{
  int dest = (int)(((uint32_t)(bits - 1) * 78913u) >> 18) + 1;   /* digits of 2^(bits-1) */
  int K = dest - 18;
  static struct big num, den;
  num.n = 2;
  num.v[0] = (uint32_t)m;
  num.v[1] = (uint32_t)(m >> 32);
  if (num.v[1] == 0) num.n = 1;
  den.n = 1;
  den.v[0] = 1;
  __big_mulpow5(&den, K);
  if (e >= K) __big_shl(&num, e - K);
  else __big_shl(&den, K - e);
  uint64_t q = __big_div64(&num, &den, sticky);   /* m 2^e / (5^K 2^K) < 10^19 < 2^64 */
  char tmp[20];
  int k = 0;
  while (q >> 32) {
    uint32_t hi = (uint32_t)(q >> 32), lo = (uint32_t)q, r;
    uint32_t qh = hi / 1000000000u, rh = hi % 1000000000u;
    uint32_t ql = __divlu((rh << 2) | (lo >> 30), lo << 2, 4000000000u, &r);
    r >>= 2;
    q = ((uint64_t)qh << 32) | ql;
    for (int i = 0; i < 9; i++) tmp[k++] = (char)('0' + r % 10), r /= 10;
  }
  for (uint32_t w = (uint32_t)q; w; w /= 10) tmp[k++] = (char)('0' + w % 10);
  int nd = 0;
  while (k) buf[nd++] = tmp[--k];
  *dp = nd + K;
  return nd;
}

int __dtoa(double x, int mode, int ndig, char *buf, int *decpt)
{
  union { double d; uint64_t u; } v = { x };
  uint32_t whi = (uint32_t)(v.u >> 32), wlo = (uint32_t)v.u;
  int bexp = (int)((whi >> 20) & 0x7ff);
  uint64_t m = ((uint64_t)(whi & 0xfffff) << 32) | wlo;
  int e;
  if (bexp) {
    m |= (uint64_t)1 << 52;
    e = bexp - 1075;
  } else {
    e = -1074;
  }
  if (m == 0) {
    *decpt = 1;
    return 0;
  }
  while (((uint32_t)m & 0xff) == 0) m >>= 8, e += 8;
  while (((uint32_t)m & 1) == 0) m >>= 1, e++;

  uint32_t a[INT_LIMBS];
  uint32_t f[FRAC_LIMBS];
  int na = 0, flo = 0, fhi = -1, nlimb = 0;
  int mbits = 64;
  while (!(m >> (mbits - 1))) mbits--;
  int nd, dp, sticky;
  if (e > 0 && mode == 'e' && ndig <= 17 && mbits + e > 60) {
    nd = top_digits(m, e, mbits + e, buf, &dp, &sticky);
    *decpt = dp;
    return round_digits(buf, nd, ndig, sticky, decpt);
  }
  if (e >= 0) {
    /* Integer: m << e. */
    int w = e >> 5, b = e & 31;
    for (int i = 0; i < w; i++) a[i] = 0;
    uint32_t l0 = (uint32_t)m, l1 = (uint32_t)(m >> 32);
    a[w] = l0 << b;
    a[w + 1] = b ? (l1 << b) | (l0 >> (32 - b)) : l1;
    a[w + 2] = b ? l1 >> (32 - b) : 0;
    na = w + 3;
  } else {
    int F = -e;
    uint64_t fr;
    if (F < 64) {
      uint64_t ip = m >> F;
      a[0] = (uint32_t)ip;
      a[1] = (uint32_t)(ip >> 32);
      na = 2;
      fr = m & (((uint64_t)1 << F) - 1);
    } else {
      fr = m;
    }
    /* Align the binary point to a limb boundary: value = f / 2^(32 * nlimb). */
    nlimb = (F + 31) >> 5;
    int sh = 32 * nlimb - F;
    uint32_t l0 = (uint32_t)fr, l1 = (uint32_t)(fr >> 32);
    f[0] = l0 << sh;
    f[1] = sh ? (l1 << sh) | (l0 >> (32 - sh)) : l1;
    f[2] = sh ? l1 >> (32 - sh) : 0;
    for (int i = 3; i < nlimb; i++) f[i] = 0;
    fhi = nlimb < 3 ? nlimb - 1 : 2;
    while (flo <= fhi && f[flo] == 0) flo++;
    while (fhi >= flo && f[fhi] == 0) fhi--;
  }

  nd = int_digits(a, na, buf);
  dp = nd;
  int need = mode == 'e' ? ndig : dp + ndig;
  while (flo <= fhi) {
    if (nd > 0 && nd > need) break;
    if (nd == 0 && mode == 'f' && -dp > ndig) break;   /* below half a unit of the last place */
    if (nd + 9 > DTOA_BUFSIZE) break;                   /* cannot happen: <= 767 digits */
    uint32_t c = frac_mul(f, &flo, &fhi, nlimb);
    if (nd == 0) {
      if (c == 0) {
        dp -= 9;
        continue;
      }
      int k = 0;
      char tmp[9];
      do tmp[k++] = (char)('0' + c % 10); while ((c /= 10) != 0);
      dp -= 9 - k;
      while (k) buf[nd++] = tmp[--k];
      need = mode == 'e' ? ndig : dp + ndig;
    } else {
      for (int i = 8; i >= 0; i--) {
        buf[nd + i] = (char)('0' + c % 10);
        c /= 10;
      }
      nd += 9;
    }
  }
  sticky = flo <= fhi;
  *decpt = dp;
  if (nd == 0 || need < 0) return 0;
  return round_digits(buf, nd, need, sticky, decpt);
}
