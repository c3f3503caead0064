/*
 * Argument reduction for sin, cos and tan: x = n*pi/2 + r with |r| <= pi/4 (about), r as a
 * double-double.
 *
 * |x| < 2^19 * pi/2: n = round(x * 2/pi) and r = x - n*(P1 + P2 + P3) with 33-bit P1 and P2
 * (the products n*P1, n*P2 are exact; Cody-Waite). If that leaves |r| < 2^-20, too many bits
 * have cancelled, and the general method below is used instead.
 *
 * Larger x (Payne-Hanek): x = m * 2^e with m a 53-bit integer; the bits of 2/pi whose product
 * with m * 2^e are multiples of 4 cannot change n mod 4 or the fraction and are skipped, and the
 * next 224 bits are multiplied by m exactly (32-bit limbs). The integer part mod 4 gives n, the
 * top 128 fraction bits f (made signed, |f| <= 1/2), and r = f * pi/2 in double-double.
 */
#include "mathlib.h"

#define W 7   /* words of 2/pi used after the skipped ones */

static int payne_hanek(double x, double *rh, double *rl)
{
  uint64_t u = asuint64(x);
  int neg = (int)(u >> 63);
  int be = (int)(u >> 52) & 0x7ff;
  uint64_t m = (u & 0x000fffffffffffffULL) | 0x0010000000000000ULL;
  int e = be - 1075;   /* x = m * 2^e; only called with |x| > 2^-20, normal */
  /* Word i (1-based) of 2/pi weighs 2^(-32 i): with m * 2^e its contributions are multiples of 4
   * while e - 32 i >= 2. */
  int i0 = e >= 2 ? (e - 2) / 32 + 1 : 1;
  uint32_t p[W + 3] = { 0 };   /* the product, and a zero limb the bit gathering may read */
  uint32_t m0 = (uint32_t)m, m1 = (uint32_t)(m >> 32);
  /* p = m * (words i0 .. i0+W-1), little-endian limbs. */
  for (int k = 0; k < W; k++) {
    uint32_t w = __twoopi[i0 - 1 + W - 1 - k];
    uint64_t t = (uint64_t)w * m0 + p[k];
    p[k] = (uint32_t)t;
    t = (uint64_t)w * m1 + p[k + 1] + (t >> 32);
    p[k + 1] = (uint32_t)t;
    p[k + 2] += (uint32_t)(t >> 32);
  }
  /* The binary point lies b bits up: value = p * 2^(e - 32 (i0 + W - 1)). */
  int b = 32 * (i0 + W - 1) - e;
  /* Gather the 2 integer bits and 128 fraction bits below them into q and f[3..0]. */
  uint32_t f[4];
  for (int k = 0; k < 4; k++) {
    int pos = b - 32 * (4 - k);   /* lowest bit of f[k] */
    int wi = pos >> 5, sh = pos & 31;
    uint32_t lo = p[wi] >> sh;
    uint32_t hi = sh ? p[wi + 1] << (32 - sh) : 0;
    f[k] = lo | hi;
  }
  int wi = b >> 5, sh = b & 31;
  uint32_t qbits = (p[wi] >> sh) | (sh ? p[wi + 1] << (32 - sh) : 0);
  int n = (int)(qbits & 3);
  int fneg = 0;
  if (f[3] >> 31) {
    /* f >= 1/2: use f - 1 and the next quadrant. */
    n++;
    fneg = 1;
    uint32_t carry = 1;
    for (int k = 0; k < 4; k++) {
      uint32_t v = ~f[k] + carry;
      carry = carry && v == 0;
      f[k] = v;
    }
  }
  double s = (double)f[3] * 0x1p-32, err, l = 0;
  s = two_sum(s, (double)f[2] * 0x1p-64, &err);
  l += err;
  s = two_sum(s, (double)f[1] * 0x1p-96, &err);
  l += err + (double)f[0] * 0x1p-128;
  s = fast_two_sum(s, l, &l);
  /* r = f * pi/2 */
  double pe, ph = two_prod(s, __pio2_dd[0], &pe);
  pe += s * __pio2_dd[1] + l * __pio2_dd[0];
  ph = fast_two_sum(ph, pe, &pe);
  if (fneg != neg) {
    ph = -ph;
    pe = -pe;
  }
  *rh = ph;
  *rl = pe;
  return neg ? -n : n;
}

int __rem_pio2(double x, double *rh, double *rl)
{
  double ax = x < 0 ? -x : x;
  if (ax <= 0x1.921fb54442d18p-1) {
    *rh = x;
    *rl = 0;
    return 0;
  }
  if (ax < 0x1.921fb54442d18p19) {
    static const double shifter = 0x1.8p52;
    double nd = x * __invpio2 + shifter;
    int n = (int)(uint32_t)asuint64(nd);
    nd -= shifter;
    double r1 = x - nd * __pio2_1;              /* exact */
    double t2 = nd * __pio2_2;                  /* exact: 33 bits times at most 20 */
    double e, r2 = two_sum(r1, -t2, &e);
    double r3 = e - nd * __pio2_3;
    double h = fast_two_sum(r2, r3, rl);
    if (h > 0x1p-20 || h < -0x1p-20) {
      *rh = h;
      return n;
    }
  }
  return payne_hanek(x, rh, rl);
}
