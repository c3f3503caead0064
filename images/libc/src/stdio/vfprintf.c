/*
 * The printf engine: parses the format and converts every argument. Conversions: d i u o x X c
 * s p n % m, lc and ls (wide characters, C locale: a code above 255 is EILSEQ), and (pfloat.c)
 * f F e E g G a A; flags - + space # 0 (and ' accepted, no effect in the C locale); width and
 * precision, '*' included; length hh h l ll q L j z Z t; POSIX's numbered arguments ("%2$d",
 * "%*3$d", "%.*1$f", at most NL_ARGMAX of them). Output and corner cases (the "(null)" and
 * "(nil)" spellings, "-nan") follow glibc.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "printf.h"
#include "../stdlib/bignum.h"

void __pout_write(struct pout *o, const char *s, size_t n)
{
  o->total += n;
  if (o->fp) {
    if (__sfwrite(s, n, o->fp) != n) o->err = 1;
    return;
  }
  while (n) {
    size_t room = o->cap - o->used;
    if (room == 0) {
      if (!o->spill) return;
      if (__sfwrite(o->buf, o->used, o->spill) != o->used) o->err = 1;
      o->used = 0;
      room = o->cap;
    }
    size_t k = n < room ? n : room;
    memcpy(o->buf + o->used, s, k);
    o->used += k;
    s += k;
    n -= k;
  }
}

void __pout_pad(struct pout *o, char c, int n)
{
  static const char spaces[16] = "                ";
  static const char zeros[16] = "0000000000000000";
  const char *src = c == '0' ? zeros : spaces;
  while (n > 0) {
    int k = n < 16 ? n : 16;
    __pout_write(o, src, (size_t)k);
    n -= k;
  }
}

/* Writes body (n bytes) justified in sp->width with spaces. */
static void justify(struct pout *o, const struct pspec *sp, const char *body, size_t n)
{
  int pad = sp->width > (int)n ? sp->width - (int)n : 0;
  if (!(sp->flags & PF_MINUS)) __pout_pad(o, ' ', pad);
  __pout_write(o, body, n);
  if (sp->flags & PF_MINUS) __pout_pad(o, ' ', pad);
}

/* Integer conversions: sign is '-', '+', ' ' or 0; digits of v in base 8, 10 or 16. */
static void fmt_int(struct pout *o, const struct pspec *sp, uint64_t v, char sign)
{
  char dig[24];
  char *end = dig + sizeof dig, *p = end;
  const char *xd = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  unsigned base = sp->conv == 'o' ? 8 : (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p') ? 16 : 10;
  if ((v >> 32) == 0) {
    /* 32-bit arithmetic where it suffices: no 64-bit division helper on 32-bit targets. */
    uint32_t w = (uint32_t)v;
    if (base == 10) while (w) *--p = (char)('0' + w % 10), w /= 10;
    else if (base == 16) while (w) *--p = xd[w & 15], w >>= 4;
    else while (w) *--p = (char)('0' + (w & 7)), w >>= 3;
  } else if (base == 10) {
    /* 9-digit chunks: v / 10^9 as hi / 10^9, then (hi % 10^9 : lo) / 10^9 with the divisor
     * normalised to 4 * 10^9 (32-bit divisions only, see __divlu). */
    while (v >> 32) {
      uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;
      uint32_t qh = hi / 1000000000u, rh = hi % 1000000000u, r;
      uint32_t ql = __divlu((rh << 2) | (lo >> 30), lo << 2, 4000000000u, &r);
      r >>= 2;
      v = ((uint64_t)qh << 32) | ql;
      for (int i = 0; i < 9; i++) *--p = (char)('0' + r % 10), r /= 10;
    }
    for (uint32_t w = (uint32_t)v; w; w /= 10) *--p = (char)('0' + w % 10);
  } else {
    unsigned sh = base == 16 ? 4 : 3, mask = base - 1;
    while (v) *--p = xd[(unsigned)v & mask], v >>= sh;
  }
  int ndig = (int)(end - p);
  int zeros = sp->prec > ndig ? sp->prec - ndig : 0;
  if ((sp->flags & PF_ALT) && base == 8 && zeros == 0 && (ndig == 0 || *p != '0')) zeros = 1;
  if (sp->prec < 0 && ndig == 0) zeros = 1;   /* the value 0 with no precision: "0" */
  char pre[3];
  int npre = 0;
  if (sign) pre[npre++] = sign;
  if (((sp->flags & PF_ALT) && base == 16 && end != p) || sp->conv == 'p') {
    pre[npre++] = '0';
    pre[npre++] = sp->conv == 'X' ? 'X' : 'x';
  }
  int len = npre + zeros + ndig;
  int pad = sp->width > len ? sp->width - len : 0;
  if ((sp->flags & (PF_ZERO | PF_MINUS)) == PF_ZERO && sp->prec < 0) {
    zeros += pad;
    pad = 0;
  }
  if (!(sp->flags & PF_MINUS)) __pout_pad(o, ' ', pad);
  __pout_write(o, pre, (size_t)npre);
  __pout_pad(o, '0', zeros);
  __pout_write(o, p, (size_t)ndig);
  if (sp->flags & PF_MINUS) __pout_pad(o, ' ', pad);
}

enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_LD };

/*
 * Numbered arguments: their classes, found by a first scan of the format, then their values,
 * fetched in order from the va_list (whose slots depend on each argument's type).
 */
enum { A_NONE, A_WORD, A_LL, A_DBL };
union parg {
  uint32_t w;     /* int, long, size_t, pointers: one 32-bit word on these targets */
  uint64_t ll;
  double d;
};

/* "123$" at *f: the number (1..NL_ARGMAX), advancing *f past the '$'; 0 when there is none. */
static int argnum(const char **f)
{
  const char *p = *f;
  int n = 0;
  while (*p >= '0' && *p <= '9') n = n * 10 + (*p++ - '0');
  if (*p != '$' || p == *f || n < 1 || n > NL_ARGMAX) return 0;
  *f = p + 1;
  return n;
}

/* The classes of the numbered arguments of fmt into cls[1..]; the largest number, or 0 if none. */
static int scan_args(const char *f, unsigned char *cls)
{
  int max = 0;
  while ((f = strchr(f, '%')) != NULL) {
    f++;
    if (*f == '%') {
      f++;
      continue;
    }
    int n = argnum(&f);
    if (n == 0) return 0;
    if (n > max) max = n;
    while (*f == '-' || *f == '+' || *f == ' ' || *f == '#' || *f == '0' || *f == '\'') f++;
    for (int part = 0; part < 2; part++) {
      if (*f == '*') {
        f++;
        int m = argnum(&f);
        if (m == 0) return 0;
        cls[m] = A_WORD;
        if (m > max) max = m;
      } else {
        while (*f >= '0' && *f <= '9') f++;
      }
      if (part == 0 && *f == '.') f++;
      else break;
    }
    int ll = 0;
    while (strchr("hlqLjzZt", *f) && *f) {
      if (*f == 'q' || *f == 'j' || (*f == 'l' && f[1] == 'l')) ll = 1;
      f += *f == 'l' && f[1] == 'l' ? 2 : 1;
    }
    if (*f == '\0') break;
    cls[n] = strchr("fFeEgGaA", *f) ? A_DBL : ll && strchr("diouxX", *f) ? A_LL : A_WORD;
    f++;
  }
  return max;
}

int __vprintf_out(struct pout *o, const char *fmt, __builtin_va_list ap)
{
  const char *f = fmt;
  union parg pv[NL_ARGMAX + 1];
  union parg *pa = NULL;
  if (strchr(fmt, '$')) {
    unsigned char cls[NL_ARGMAX + 1] = { 0 };
    int max = scan_args(fmt, cls);
    for (int i = 1; i <= max; i++) {
      if (cls[i] == A_DBL) pv[i].d = __builtin_va_arg(ap, double);
      else if (cls[i] == A_LL) pv[i].ll = __builtin_va_arg(ap, unsigned long long);
      else pv[i].w = __builtin_va_arg(ap, uint32_t);   /* A_NONE: POSIX requires every one used */
    }
    if (max) pa = pv;
  }
  /* The next argument of type T (through a union member for numbered ones). */
#define ARG(T, member) (pa ? (T)pa[pos++].member : __builtin_va_arg(ap, T))
  while (*f) {
    const char *lit = f;
    while (*f && *f != '%') f++;
    if (f > lit) __pout_write(o, lit, (size_t)(f - lit));
    if (!*f) break;
    const char *start = f++;
    struct pspec sp = { 0, 0, -1, 0 };
    int pos = 0;
    if (pa) {
      pos = argnum(&f);
      if (pos == 0 && *f != '%') {
        /* A conversion without a number among numbered ones: undefined; printed as written. */
        __pout_write(o, start, 1);
        continue;
      }
    }
    int convpos = pos;
    for (;; f++) {
      if (*f == '-') sp.flags |= PF_MINUS;
      else if (*f == '+') sp.flags |= PF_PLUS;
      else if (*f == ' ') sp.flags |= PF_SPACE;
      else if (*f == '#') sp.flags |= PF_ALT;
      else if (*f == '0') sp.flags |= PF_ZERO;
      else if (*f != '\'') break;
    }
    if (*f == '*') {
      f++;
      if (pa) pos = argnum(&f);
      int w = ARG(int, w);
      if (w < 0) {
        sp.flags |= PF_MINUS;
        w = w == INT_MIN ? INT_MAX : -w;
      }
      sp.width = w;
    } else {
      while (*f >= '0' && *f <= '9') sp.width = sp.width * 10 + (*f++ - '0');
    }
    if (*f == '.') {
      f++;
      sp.prec = 0;
      if (*f == '*') {
        f++;
        if (pa) pos = argnum(&f);
        int pr = ARG(int, w);
        sp.prec = pr < 0 ? -1 : pr;
      } else {
        while (*f >= '0' && *f <= '9') sp.prec = sp.prec * 10 + (*f++ - '0');
      }
    }
    int len = L_NONE;
    switch (*f) {
    case 'h': len = f[1] == 'h' ? (f++, L_HH) : L_H; f++; break;
    case 'l': len = f[1] == 'l' ? (f++, L_LL) : L_L; f++; break;
    case 'q': len = L_LL; f++; break;
    case 'L': len = L_LD; f++; break;
    case 'j': len = L_J; f++; break;
    case 'z': case 'Z': len = L_Z; f++; break;
    case 't': len = L_T; f++; break;
    }
    sp.conv = *f;
    if (sp.conv) f++;
    pos = convpos;
    switch (sp.conv) {
    case 'd':
    case 'i': {
      int64_t v;
      if (len == L_LL || len == L_J) v = ARG(long long, ll);
      else if (len == L_L) v = ARG(long, w);
      else if (len == L_Z || len == L_T) v = ARG(ptrdiff_t, w);
      else v = ARG(int, w);
      if (len == L_HH) v = (signed char)v;
      else if (len == L_H) v = (short)v;
      char sign = v < 0 ? '-' : (sp.flags & PF_PLUS) ? '+' : (sp.flags & PF_SPACE) ? ' ' : 0;
      fmt_int(o, &sp, v < 0 ? -(uint64_t)v : (uint64_t)v, sign);
      break;
    }
    case 'u':
    case 'o':
    case 'x':
    case 'X': {
      uint64_t v;
      if (len == L_LL || len == L_J) v = ARG(unsigned long long, ll);
      else if (len == L_L) v = ARG(unsigned long, w);
      else if (len == L_Z || len == L_T) v = ARG(size_t, w);
      else v = ARG(unsigned, w);
      if (len == L_HH) v = (unsigned char)v;
      else if (len == L_H) v = (unsigned short)v;
      fmt_int(o, &sp, v, 0);
      break;
    }
    case 'p': {
      void *p = ARG(void *, w);
      if (p == NULL) {
        justify(o, &sp, "(nil)", 5);
      } else {
        /* glibc takes the '+' and ' ' flags for pointers too */
        fmt_int(o, &sp, (uintptr_t)p, (sp.flags & PF_PLUS) ? '+' : (sp.flags & PF_SPACE) ? ' ' : 0);
      }
      break;
    }
    case 'c': {
      unsigned w = ARG(unsigned, w);
      if (len == L_L && w > 255) {
        o->err = EILSEQ;
        break;
      }
      char c = (char)w;
      justify(o, &sp, &c, 1);
      break;
    }
    case 's':
    case 'm': {
      if (len == L_L && sp.conv == 's') {
        const __WCHAR_TYPE__ *ws = ARG(const __WCHAR_TYPE__ *, w);
        if (ws == NULL) ws = (const __WCHAR_TYPE__ *)L"(null)";
        /* The wide string as bytes (C locale), at most prec of them. */
        size_t n = 0;
        while (ws[n] && (sp.prec < 0 || n < (size_t)sp.prec)) {
          if ((unsigned long)ws[n] > 255) o->err = EILSEQ;
          n++;
        }
        if (o->err) break;
        int pad = sp.width > (int)n ? sp.width - (int)n : 0;
        if (!(sp.flags & PF_MINUS)) __pout_pad(o, ' ', pad);
        for (size_t i = 0; i < n; ) {
          char b[64];
          size_t k = 0;
          while (k < sizeof b && i < n) b[k++] = (char)ws[i++];
          __pout_write(o, b, k);
        }
        if (sp.flags & PF_MINUS) __pout_pad(o, ' ', pad);
        break;
      }
      const char *s = sp.conv == 'm' ? strerror(errno) : ARG(const char *, w);
      if (s == NULL) s = sp.prec < 0 || sp.prec >= 6 ? "(null)" : "";
      justify(o, &sp, s, sp.prec < 0 ? strlen(s) : strnlen(s, (size_t)sp.prec));
      break;
    }
    case 'n': {
      void *p = ARG(void *, w);
      size_t n = o->total;
      switch (len) {
      case L_HH: *(signed char *)p = (signed char)n; break;
      case L_H: *(short *)p = (short)n; break;
      case L_L: *(long *)p = (long)n; break;
      case L_LL: case L_J: *(long long *)p = (long long)n; break;
      case L_Z: case L_T: *(size_t *)p = n; break;
      default: *(int *)p = (int)n; break;
      }
      break;
    }
    case '%':
      __pout_write(o, "%", 1);
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      __pfloat(o, &sp, ARG(double, d));   /* long double is double here */
      break;
    default:
      /* Not a conversion: copied through as written, like glibc. */
      __pout_write(o, start, (size_t)(f - start));
      break;
    }
  }
#undef ARG
  if (o->err) {
    if (o->err == EILSEQ) errno = EILSEQ;
    return -1;
  }
  if (o->total > INT_MAX) {
    errno = EOVERFLOW;
    return -1;
  }
  return (int)o->total;
}

int __vfprintf(FILE *fp, const char *fmt, __builtin_va_list ap)
{
  if (!(fp->flags & F_WRING) && __swsetup(fp)) return -1;
  if (fp->flags & F_NBF) {
    /* One write per call on an unbuffered stream (what a reader of stderr expects). */
    char tmp[512];
    struct pout o = { NULL, tmp, sizeof tmp, 0, fp, 0, 0 };
    int rc = __vprintf_out(&o, fmt, ap);
    if (o.used && __sfwrite(tmp, o.used, fp) != o.used) rc = -1;
    return rc;
  }
  struct pout o = { fp, NULL, 0, 0, NULL, 0, 0 };
  return __vprintf_out(&o, fmt, ap);
}
