/*
 * strtod, strtof, strtold (long double is double on these targets): correctly rounded
 * conversion of decimal and hexadecimal floating-point text (C11 7.22.1.3), "inf", "infinity"
 * and "nan[(chars)]" in any case.
 *
 * Decimal input is D * 10^E with D an integer of up to MAXDIG significant digits (more digits are
 * summarised by a final nonzero digit, which puts D on the same side of every rounding boundary,
 * since a halfway point between doubles has at most 767 significant digits). Short inputs with
 * small exponents take Clinger's fast path (one correctly rounded IEEE multiply or divide of
 * exact operands); everything else is exact big-integer arithmetic on D * 5^E * 2^E: the top 64
 * bits of D * 5^E, or the 64-bit quotient of D * 2^s by 5^-E (Knuth's algorithm D), with a
 * sticky bit for what lies below, then one rounding, half to even.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "bignum.h"

#define MAXDIG 800

/*
 * The correctly rounded IEEE bit pattern of q * 2^e2 (+ a nonzero tail below q's last bit when
 * sticky) for a format with mbits significand bits (hidden bit included) and exponent range
 * [emin, emax]; q != 0. *range is set to ERANGE on overflow or inexact underflow.
 */
static uint64_t round_bits(uint64_t q, int e2, int sticky, int mbits, int emin, int emax, int *range)
{
  while (!(q >> 63)) q <<= 1, e2--;
  int E = e2 + 63;                      /* value in [2^E, 2^(E+1)) */
  int shift = 64 - mbits;               /* bits below the significand */
  int sub = E < emin;
  if (sub) shift += emin - E;
  uint64_t mant, rest;
  if (shift > 64) {
    mant = 0;                           /* below half the least subnormal */
    rest = 0;
    sticky = 1;
  } else if (shift == 64) {
    mant = 0;
    rest = q >> 63;                     /* the round bit */
    sticky |= (q << 1) != 0;
  } else {
    mant = q >> shift;
    rest = q & (((uint64_t)1 << shift) - 1);
    sticky |= (rest & (((uint64_t)1 << (shift - 1)) - 1)) != 0;
    rest >>= shift - 1;                 /* the round bit */
  }
  if (sub && (rest || sticky)) *range = ERANGE;
  if (rest && (sticky || (mant & 1))) mant++;
  if (sub) return mant;                 /* biased exponent 0; a carry into bit mbits-1 gives emin */
  if (E > emax) {
    *range = ERANGE;
    return (uint64_t)(emax - emin + 2) << (mbits - 1);   /* infinity */
  }
  uint64_t bits = ((uint64_t)(E - emin) << (mbits - 1)) + mant;   /* mant's hidden bit adds 1 */
  if ((bits >> (mbits - 1)) >= (uint64_t)(emax - emin + 2)) *range = ERANGE;
  return bits;
}

/*
 * D * 10^e = D * 5^e * 2^e as q * 2^*e2 (+ a nonzero tail when *sticky) with 2^62 <= q < 2^64.
 * For e >= 0 the product D * 5^e is an integer whose top 64 bits are q; for e < 0, q is the
 * quotient of D * 2^s by 5^-e. Destroys num and den.
 */
static uint64_t scaled(struct big *num, struct big *den, int e, int *e2, int *sticky)
{
  if (e >= 0) {
    __big_mulpow5(num, e);
    int bits = __big_bits(num);
    if (bits <= 64) {
      __big_shl(num, 64 - bits);
      *sticky = 0;
    } else {
      /* Keep the top 64 bits: drop whole limbs, then shift the rest down. */
      int drop = bits - 64, w = drop >> 5, b = drop & 31, nz = 0;
      for (int i = 0; i < w; i++) nz |= num->v[i] != 0;
      nz |= b && (num->v[w] << (32 - b)) != 0;
      uint32_t x[3];
      for (int i = 0; i < 3; i++) x[i] = w + i < num->n ? num->v[w + i] : 0;
      uint64_t lo = ((uint64_t)x[1] << 32) | x[0];
      uint64_t q = b ? (lo >> b) | ((uint64_t)x[2] << (64 - b)) : lo;
      *sticky = nz;
      *e2 = e + drop;
      return q;
    }
    *e2 = e - (64 - bits);
    return ((uint64_t)num->v[1] << 32) | num->v[0];
  }
  den->n = 1;
  den->v[0] = 1;
  __big_mulpow5(den, -e);
  int s = 63 - (__big_bits(num) - __big_bits(den));
  if (s > 0) __big_shl(num, s);
  else __big_shl(den, -s);
  *e2 = e - s;
  return __big_div64(num, den, sticky);
}

static int lower(int c)
{
  return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Case-insensitive match of the lower-case word w at s; returns its length or 0. */
static int word(const char *s, const char *w)
{
  int i = 0;
  for (; w[i]; i++)
    if (lower((unsigned char)s[i]) != w[i]) return 0;
  return i;
}

static int hexval(int c)
{
  if (c >= '0' && c <= '9') return c - '0';
  c = lower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parses an optional exponent ("e+12", "p-3"): adds it to *exp and returns the text after it,
 * or s itself when no digits follow the marker. Saturates far beyond any finite result. */
static const char *exponent(const char *s, int marker, long *exp)
{
  if (lower((unsigned char)*s) != marker) return s;
  const char *p = s + 1;
  int neg = 0;
  if (*p == '+' || *p == '-') neg = *p++ == '-';
  if (*p < '0' || *p > '9') return s;
  long e = 0;
  for (; *p >= '0' && *p <= '9'; p++)
    if (e < 100000000) e = e * 10 + (*p - '0');
  *exp += neg ? -e : e;
  return p;
}

/* Hexadecimal significand after "0x": returns the end, or NULL if no hex digit follows. */
static const char *parse_hex(const char *s, int mbits, int emin, int emax, uint64_t *bits, int *range)
{
  uint64_t q = 0;
  long e2 = 0;
  int any = 0, sticky = 0, point = 0;
  for (;; s++) {
    int d = hexval((unsigned char)*s);
    if (d < 0) {
      if (*s == '.' && !point) {
        point = 1;
        continue;
      }
      break;
    }
    any = 1;
    if (q >> 60) {
      sticky |= d != 0;
      if (!point) e2 += 4;
    } else {
      q = (q << 4) | (uint64_t)d;
      if (point) e2 -= 4;
    }
  }
  if (!any) return NULL;
  s = exponent(s, 'p', &e2);
  if (q == 0) {
    *bits = 0;
    return s;
  }
  if (e2 > 100000) e2 = 100000;
  if (e2 < -100000) e2 = -100000;
  *bits = round_bits(q, (int)e2, sticky, mbits, emin, emax, range);
  return s;
}

/* Decimal: the bits of the correctly rounded value, or the end of the text in *endp. */
static uint64_t parse_dec(const char *s, const char **endp, int mbits, int emin, int emax, int *range, int fast)
{
  static char dig[MAXDIG + 1];
  int n = 0, any = 0, trunc = 0, point = 0;
  long e10 = 0;
  for (;; s++) {
    int c = (unsigned char)*s;
    if (c == '.' && !point) {
      point = 1;
      continue;
    }
    if (c < '0' || c > '9') break;
    any = 1;
    if (n == 0 && c == '0') {
      if (point) e10--;
      continue;
    }
    if (n < MAXDIG) {
      dig[n++] = (char)(c - '0');
      if (point) e10--;
    } else {
      trunc |= c != '0';
      if (!point) e10++;
    }
  }
  if (!any) {
    *endp = NULL;
    return 0;
  }
  *endp = exponent(s, 'e', &e10);
  if (trunc) {
    dig[n++] = 1;   /* after all MAXDIG kept digits, zeros included */
    e10--;
  } else {
    while (n > 0 && dig[n - 1] == 0) n--, e10++;
  }
  if (n == 0) return 0;
  if (e10 + n > 310) {
    *range = ERANGE;
    return (uint64_t)(emax - emin + 2) << (mbits - 1);
  }
  if (e10 + n < -330) {
    *range = ERANGE;
    return 0;
  }
  int e = (int)e10;
  if (fast && n <= 15 && e >= -22 && e <= 22) {
    static const double p10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
    double d = 0;   /* < 10^15 < 2^53: every step is exact */
    for (int i = 0; i < n; i++) d = d * 10 + dig[i];
    union { double x; uint64_t u; } r;
    r.x = e >= 0 ? d * p10[e] : d / p10[-e];
    return r.u;
  }
  static struct big num, den;
  num.n = 0;
  int i = 0;
  for (; i + 9 <= n; i += 9) {
    uint32_t c = 0;
    for (int k = 0; k < 9; k++) c = c * 10 + (uint32_t)dig[i + k];
    __big_muladd(&num, 1000000000u, c);
  }
  if (i < n) {
    uint32_t c = 0, m = 1;
    for (; i < n; i++) c = c * 10 + (uint32_t)dig[i], m *= 10;
    __big_muladd(&num, m, c);
  }
  int e2, sticky;
  uint64_t q = scaled(&num, &den, e, &e2, &sticky);
  return round_bits(q, e2, sticky, mbits, emin, emax, range);
}

/*
 * The common parser: the bit pattern of the result (sign excluded) for the given format, the
 * sign in *neg, the end of the text in *end (str itself if nothing was converted).
 */
static uint64_t parse(const char *str, char **end, int mbits, int emin, int emax, int *neg, int *isnan)
{
  const char *s = str;
  int range = 0;
  uint64_t bits = 0;
  uint64_t inf = (uint64_t)(emax - emin + 2) << (mbits - 1);
  *isnan = 0;
  while (isspace((unsigned char)*s)) s++;
  *neg = 0;
  if (*s == '+' || *s == '-') *neg = *s++ == '-';
  const char *e = NULL;
  int k;
  if ((k = word(s, "inf")) != 0) {
    e = s + k;
    if ((k = word(e, "inity")) != 0) e += k;
    bits = inf;
  } else if ((k = word(s, "nan")) != 0) {
    e = s + k;
    if (*e == '(') {
      const char *p = e + 1;
      while (isalnum((unsigned char)*p) || *p == '_') p++;
      if (*p == ')') e = p + 1;
    }
    *isnan = 1;
  } else if (s[0] == '0' && lower((unsigned char)s[1]) == 'x' && (e = parse_hex(s + 2, mbits, emin, emax, &bits, &range)) != NULL) {
    /* hexadecimal */
  } else {
    bits = parse_dec(s, &e, mbits, emin, emax, &range, mbits == 53);
  }
  if (e == NULL) {
    if (end) *end = (char *)str;
    *neg = 0;
    return 0;
  }
  if (end) *end = (char *)e;
  if (range) errno = ERANGE;
  return bits;
}

double strtod(const char *restrict s, char **restrict end)
{
  int neg, nan;
  union { uint64_t u; double d; } r;
  r.u = parse(s, end, 53, -1022, 1023, &neg, &nan);
  if (nan) r.d = __builtin_nan("");
  if (neg) r.u |= (uint64_t)1 << 63;
  return r.d;
}

float strtof(const char *restrict s, char **restrict end)
{
  int neg, nan;
  union { uint32_t u; float f; } r;
  r.u = (uint32_t)parse(s, end, 24, -126, 127, &neg, &nan);
  if (nan) r.f = __builtin_nanf("");
  if (neg) r.u |= (uint32_t)1 << 31;
  return r.f;
}

long double strtold(const char *restrict s, char **restrict end)
{
  return strtod(s, end);
}
