/*
 * String to integer: strtol, strtoul, strtoll, strtoull, strtoimax, strtoumax (C11 7.22.1.4).
 * Leading white space, an optional sign, a "0x"/"0X" prefix for bases 16 and 0 (base 0 takes
 * a leading 0 as octal). Out-of-range values clamp with errno ERANGE; strtoul negates in
 * unsigned arithmetic, as C specifies. The long forms work in 32-bit arithmetic, the long long
 * forms in 64-bit.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

static int digitval(int c)
{
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

/*
 * Parses sign and prefix: returns the first digit's position (NULL if the subject sequence is
 * empty or the base invalid) and sets *neg and *base.
 */
static const char *prefix(const char *s, int *neg, int *base)
{
  while (isspace((unsigned char)*s)) s++;
  *neg = 0;
  if (*s == '-' || *s == '+') *neg = *s++ == '-';
  int b = *base;
  if (b < 0 || b == 1 || b > 36) {
    errno = EINVAL;
    return NULL;
  }
  if ((b == 0 || b == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digitval((unsigned char)s[2]) < 16) {
    s += 2;
    b = 16;
  } else if (b == 0) {
    b = s[0] == '0' ? 8 : 10;
  }
  *base = b;
  return digitval((unsigned char)*s) < b ? s : NULL;
}

/* Defines NAME parsing into the unsigned type UT, magnitudes above limit(neg) overflowing. */
#define STRTO(NAME, T, UT, LIMIT, CLAMP, RESULT)                                          \
  T NAME(const char *restrict str, char **restrict end, int base)                         \
  {                                                                                       \
    int neg;                                                                              \
    const char *s = prefix(str, &neg, &base);                                             \
    if (s == NULL) {                                                                      \
      if (end) *end = (char *)str;                                                        \
      return 0;                                                                           \
    }                                                                                     \
    UT limit = LIMIT, acc = 0, cutoff = limit / (UT)base;                                 \
    int cutlim = (int)(limit % (UT)base), over = 0, d;                                    \
    for (; (d = digitval((unsigned char)*s)) < base; s++) {                               \
      if (over || acc > cutoff || (acc == cutoff && d > cutlim)) over = 1;                \
      else acc = acc * (UT)base + (UT)d;                                                  \
    }                                                                                     \
    if (end) *end = (char *)s;                                                            \
    if (over) {                                                                           \
      errno = ERANGE;                                                                     \
      return CLAMP;                                                                       \
    }                                                                                     \
    return RESULT;                                                                        \
  }

STRTO(strtol, long, unsigned long, neg ? (unsigned long)LONG_MAX + 1 : LONG_MAX,
      neg ? LONG_MIN : LONG_MAX, neg ? (long)-acc : (long)acc)
STRTO(strtoul, unsigned long, unsigned long, ULONG_MAX, ULONG_MAX, neg ? -acc : acc)
STRTO(strtoll, long long, unsigned long long, neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX,
      neg ? LLONG_MIN : LLONG_MAX, neg ? (long long)-acc : (long long)acc)
STRTO(strtoull, unsigned long long, unsigned long long, ULLONG_MAX, ULLONG_MAX, neg ? -acc : acc)

intmax_t strtoimax(const char *restrict s, char **restrict end, int base)
{
  return strtoll(s, end, base);
}

uintmax_t strtoumax(const char *restrict s, char **restrict end, int base)
{
  return strtoull(s, end, base);
}
