/*
 * printf's floating-point conversions: %f %F %e %E %g %G from the exact digits of __dtoa, and
 * %a %A from the bits. Output is glibc's, byte for byte: "inf"/"nan" (upper case for F E G A),
 * a '-' on negative NaNs and zeros, two-digit minimum exponents for %e, round-half-even.
 */
#include <stdint.h>
#include "dtoa.h"
#include "printf.h"

/*
 * A formatted number: sign, prefix ("0x" for %a), zeros (the '0' flag, when zeropad), then the
 * body; justified in the field width. bodylen counts the prefix.
 */
static void emit_padded(struct pout *o, const struct pspec *sp, char sign, const char *prefix, int bodylen,
                        int zeropad, void (*body)(struct pout *, const void *), const void *arg)
{
  int len = bodylen + (sign != 0);
  int pad = sp->width > len ? sp->width - len : 0;
  int zeros = 0;
  if (zeropad && (sp->flags & (PF_ZERO | PF_MINUS)) == PF_ZERO) {
    zeros = pad;
    pad = 0;
  }
  if (!(sp->flags & PF_MINUS)) __pout_pad(o, ' ', pad);
  if (sign) __pout_write(o, &sign, 1);
  if (prefix) __pout_write(o, prefix, 2);
  __pout_pad(o, '0', zeros);
  body(o, arg);
  if (sp->flags & PF_MINUS) __pout_pad(o, ' ', pad);
}

/* A number in the digits-and-exponent form of __dtoa, to be laid out as %f or %e. */
struct dnum {
  const char *d;  /* significant digits, digits beyond nd are zeros */
  int nd;
  int dp;         /* value = 0.d * 10^dp */
  int frac;       /* digits after the point */
  int point;      /* print the decimal point */
  int exp;        /* %e: the exponent; INT_MIN for %f */
  char e;         /* 'e' or 'E' */
};

/* Writes digits d[from..to) of n, zeros where d has none. */
static void digits(struct pout *o, const struct dnum *n, int from, int to)
{
  if (from < 0) {
    int z = (to < 0 ? to : 0) - from;
    __pout_pad(o, '0', z);
    from += z;
  }
  if (from >= to) return;
  int hi = to < n->nd ? to : n->nd;
  if (from < hi) __pout_write(o, n->d + from, (size_t)(hi - from));
  if (to > (from > hi ? from : hi)) __pout_pad(o, '0', to - (from > hi ? from : hi));
}

static int exp_len(int e)
{
  if (e < 0) e = -e;
  return e >= 1000 ? 4 : e >= 100 ? 3 : 2;
}

static void body_f(struct pout *o, const void *arg)
{
  const struct dnum *n = arg;
  if (n->dp > 0) digits(o, n, 0, n->dp);
  else __pout_write(o, "0", 1);
  if (n->point) __pout_write(o, ".", 1);
  digits(o, n, n->dp, n->dp + n->frac);
}

static void body_e(struct pout *o, const void *arg)
{
  const struct dnum *n = arg;
  digits(o, n, 0, 1);
  if (n->point) __pout_write(o, ".", 1);
  digits(o, n, 1, 1 + n->frac);
  char buf[8];
  int e = n->exp, k = 0;
  buf[k++] = n->e;
  buf[k++] = e < 0 ? '-' : '+';
  if (e < 0) e = -e;
  int len = exp_len(e);
  for (int i = len - 1; i >= 0; i--) buf[k + i] = (char)('0' + e % 10), e /= 10;
  __pout_write(o, buf, (size_t)(k + len));
}

static int len_f(const struct dnum *n)
{
  return (n->dp > 0 ? n->dp : 1) + n->point + n->frac;
}

static int len_e(const struct dnum *n)
{
  return 1 + n->point + n->frac + 2 + exp_len(n->exp);
}

static void body_str(struct pout *o, const void *arg)
{
  __pout_write(o, arg, 3);
}

/* %a: hexadecimal significand, binary exponent. */
static void fmt_hex(struct pout *o, const struct pspec *sp, char sign, uint64_t bits, int upper);

void __pfloat(struct pout *o, const struct pspec *sp, double x)
{
  union { double d; uint64_t u; } v = { x };
  int neg = (int)(v.u >> 63);
  char sign = neg ? '-' : (sp->flags & PF_PLUS) ? '+' : (sp->flags & PF_SPACE) ? ' ' : 0;
  char c = sp->conv;
  int upper = c == 'F' || c == 'E' || c == 'G' || c == 'A';
  uint64_t mag = v.u & ~((uint64_t)1 << 63);
  if ((uint32_t)(mag >> 52) == 0x7ff) {
    int nan = (mag & (((uint64_t)1 << 52) - 1)) != 0;
    const char *s = nan ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    emit_padded(o, sp, sign, NULL, 3, 0, body_str, s);
    return;
  }
  if (c == 'a' || c == 'A') {
    fmt_hex(o, sp, sign, mag, upper);
    return;
  }
  union { uint64_t u; double d; } a = { mag };
  double ax = a.d;
  int prec = sp->prec < 0 ? 6 : sp->prec;
  int alt = (sp->flags & PF_ALT) != 0;
  char buf[DTOA_BUFSIZE];
  struct dnum n = { buf, 0, 1, 0, 0, 0, upper ? 'E' : 'e' };
  int style = c | 0x20;
  if (style == 'g') {
    int P = prec ? prec : 1;
    int X = 0;
    if (ax != 0) {
      n.nd = __dtoa(ax, 'e', P, buf, &n.dp);
      X = n.dp - 1;
    } else {
      n.dp = 1;
    }
    if (P > X && X >= -4) {
      style = 'f';
      n.frac = alt ? P - 1 - X : (n.nd - n.dp > 0 ? n.nd - n.dp : 0);
    } else {
      style = 'e';
      n.frac = alt ? P - 1 : (n.nd > 1 ? n.nd - 1 : 0);
      n.exp = X;
    }
  } else if (style == 'f') {
    n.nd = ax != 0 ? __dtoa(ax, 'f', prec, buf, &n.dp) : 0;
    if (n.nd == 0) n.dp = 1;
    n.frac = prec;
  } else {
    if (ax != 0) {
      n.nd = __dtoa(ax, 'e', prec + 1, buf, &n.dp);
      n.exp = n.dp - 1;
    }
    n.frac = prec;
  }
  n.point = n.frac > 0 || alt;
  if (style == 'f') emit_padded(o, sp, sign, NULL, len_f(&n), 1, body_f, &n);
  else emit_padded(o, sp, sign, NULL, len_e(&n), 1, body_e, &n);
}

struct hnum {
  char lead;
  const char *d;
  int nd;        /* hex digits after the point */
  int point;
  int exp;
  int upper;
};

static void body_hex(struct pout *o, const void *arg)
{
  const struct hnum *h = arg;
  char buf[8];
  __pout_write(o, &h->lead, 1);
  if (h->point) __pout_write(o, ".", 1);
  __pout_write(o, h->d, (size_t)(h->nd < 13 ? h->nd : 13));
  if (h->nd > 13) __pout_pad(o, '0', h->nd - 13);
  int e = h->exp, k = 0;
  buf[k++] = h->upper ? 'P' : 'p';
  buf[k++] = e < 0 ? '-' : '+';
  if (e < 0) e = -e;
  char t[6];
  int nt = 0;
  do t[nt++] = (char)('0' + e % 10); while ((e /= 10) != 0);
  while (nt) buf[k++] = t[--nt];
  __pout_write(o, buf, (size_t)k);
}

static void fmt_hex(struct pout *o, const struct pspec *sp, char sign, uint64_t bits, int upper)
{
  const char *xd = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  int bexp = (int)(bits >> 52);
  uint64_t frac = bits & (((uint64_t)1 << 52) - 1);
  unsigned lead = bexp != 0;
  int exp = bits == 0 ? 0 : bexp ? bexp - 1023 : -1022;
  int nd = 13;
  if (sp->prec >= 0 && sp->prec < 13) {
    /* Round the 52-bit fraction to prec hex digits, half to even; a carry reaches the lead. */
    int drop = 4 * (13 - sp->prec);
    uint64_t rem = frac & (((uint64_t)1 << drop) - 1), half = (uint64_t)1 << (drop - 1);
    frac >>= drop;
    if (rem > half || (rem == half && (sp->prec ? (frac & 1) : (lead & 1)))) {
      frac++;
      if (frac >> (4 * sp->prec)) {
        frac = 0;
        lead++;
      }
    }
    frac <<= drop;
    nd = sp->prec;
  } else if (sp->prec < 0) {
    while (nd > 0 && ((frac >> (4 * (13 - nd))) & 15) == 0) nd--;
  } else {
    nd = sp->prec;
  }
  char d[13];
  for (int i = 0; i < 13; i++) d[i] = xd[(frac >> (48 - 4 * i)) & 15];
  struct hnum h = { (char)('0' + lead), d, nd, nd > 0 || (sp->flags & PF_ALT), exp, upper };
  int elen = 2;
  for (int e = exp < 0 ? -exp : exp; e >= 10; e /= 10) elen++;
  emit_padded(o, sp, sign, upper ? "0X" : "0x", 3 + h.point + nd + 1 + elen, 1, body_hex, &h);
}
