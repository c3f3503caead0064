/*
 * Internals of the math library (private to images/libc/src/math): bit access, double-double
 * arithmetic, the shared cores and the generated tables (tables.c).
 *
 * Double-double: a value carried as hi + lo with |lo| <= ulp(hi)/2, about 106 bits. The exact
 * products use Dekker's splitting, since neither MIPS I nor SPARC v8 has a fused multiply-add;
 * gcc never contracts a*b+c on these targets, so every operation below rounds exactly once.
 */
#ifndef _MATHLIB_H_
#define _MATHLIB_H_

#include <stdint.h>

static inline uint64_t asuint64(double x)
{
  union { double d; uint64_t u; } v = { x };
  return v.u;
}

static inline double asdouble(uint64_t u)
{
  union { uint64_t u; double d; } v = { u };
  return v.d;
}

/* The high word (sign, exponent, top 20 significand bits): cheap tests on 32-bit machines. */
static inline uint32_t highword(double x)
{
  return (uint32_t)(asuint64(x) >> 32);
}

/* 2^k as a double, for normal results: -1022 <= k <= 1023. */
static inline double pow2(int k)
{
  return asdouble((uint64_t)(k + 1023) << 52);
}

/* a + b = s + *e exactly (Knuth's two-sum). */
static inline double two_sum(double a, double b, double *e)
{
  double s = a + b;
  double bb = s - a;
  *e = (a - (s - bb)) + (b - bb);
  return s;
}

/* a + b = s + *e exactly, given |a| >= |b| or a == 0 (Dekker's fast two-sum). */
static inline double fast_two_sum(double a, double b, double *e)
{
  double s = a + b;
  *e = b - (s - a);
  return s;
}

/* a * b = p + *e exactly (Dekker), for |a|, |b| < 2^995 and no underflow in the parts. */
static inline double two_prod(double a, double b, double *e)
{
  double p = a * b;
  double ca = 134217729.0 * a, cb = 134217729.0 * b;
  double ah = ca - (ca - a), al = a - ah;
  double bh = cb - (cb - b), bl = b - bh;
  *e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return p;
}

/* (ah + al) / (bh + bl) as a double-double; *ql receives the low part. */
static inline double dd_div(double ah, double al, double bh, double bl, double *ql)
{
  double q = ah / bh, e;
  double p = two_prod(q, bh, &e);
  *ql = (((ah - p) - e) + al - q * bl) / bh;
  return q;
}

/* |a| = m * 2^*e with m a 53-bit integer (top bit 52), for finite a != 0 (subnormals normalised). */
static inline uint64_t unpack53(double a, int *e)
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

/* m * 2^e as a double, for 0 <= m < 2^53 and a value the format holds exactly. */
static inline double pack53(uint64_t m, int e)
{
  if (m == 0) return 0.0;
  while (!(m >> 52)) m <<= 1, e--;
  if (e >= -1074) return asdouble(((uint64_t)(e + 1075 - 1) << 52) + m);
  return asdouble(m >> (-1074 - e));
}

/*
 * |x| = n |y| + m * 2^*ey exactly, n the truncated quotient, for finite x and y != 0 with
 * |x| >= |y| (fmod.c's binary long division). Returns m (below y's significand, *my); *q gets
 * n's low 32 bits.
 */
uint64_t __divrem(double x, double y, int *ey, uint64_t *my, uint32_t *q);

/* Multiplies x by 2^k, rounding once where the result is normal (a subnormal result may be
 * rounded twice). */
double __scale(double x, int k);

/* exp(xh + xl) = 2^*k * (hi + *lo), hi in [0.98, 2.03), |*lo| <= ulp(hi)/2; needs |xh| < 1100 and
 * |xl| <= ulp(xh). */
double __exp_core(double xh, double xl, double *lo, int *k);

/* log(x) = hi + *lo for finite x > 0 (relative error about 2^-68 or better). */
double __log_core(double x, double *lo);

/* atan(th + tl) = hi + *lo for th >= 0. */
double __atan_core(double th, double tl, double *lo);

/* x = n * pi/2 + (*rh + *rl), |*rh| <= pi/4 (about); returns n (only n mod 4 matters). */
int __rem_pio2(double x, double *rh, double *rl);

/* sin and cos of r = rh + rl, |r| <= pi/4 + tiny, as double-doubles. */
double __sin_kernel(double rh, double rl, double *lo);
double __cos_kernel(double rh, double rl, double *lo);

/* Sets errno (EDOM or ERANGE) and returns v: math functions report errors through this. */
double __math_err(int err, double v);

extern const double __ln2_hi, __ln2_lo, __ln2_dd[2], __invln2_dd[2], __invln10_dd[2];
extern const double __exp_c_hi, __exp_c_lo, __exp_inv_c, __exp_tab[32][2];
extern const double __log_invc[64], __log_logc[64][2];
extern const double __sin_tab[52][2], __cos_tab[52][2];
extern const double __atan_tab[65][2];
extern const double __pio2_1, __pio2_2, __pio2_3, __pio2_dd[2], __pi_dd[2], __invpio2;
extern const uint32_t __twoopi[48];

#endif /* !_MATHLIB_H_ */
