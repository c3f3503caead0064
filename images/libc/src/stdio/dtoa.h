/* Exact decimal digits of a double (dtoa.c), private to images/libc/src/stdio. */
#ifndef _STDIO_DTOA_H_
#define _STDIO_DTOA_H_

/* Room for every digit __dtoa can store: a double has at most 767 significant decimal digits,
 * and digits come nine at a time. */
#define DTOA_BUFSIZE 800

/*
 * Correctly rounded decimal digits of |x| (x finite; the sign is ignored), rounding half to even
 * on the exact binary value:
 *   mode 'e': ndig (>= 1) significant digits;
 *   mode 'f': the digits through the ndig-th (>= 0) after the decimal point.
 * Stores the digits, without leading or trailing zeros, in buf (DTOA_BUFSIZE bytes, no NUL) and
 * returns their count n; *decpt gets the decimal exponent: |x| ~ 0.d1 d2 ... dn * 10^decpt.
 * Returns 0 when the result is zero (x == 0, or mode 'f' rounding to zero).
 */
int __dtoa(double x, int mode, int ndig, char *buf, int *decpt);

#endif /* !_STDIO_DTOA_H_ */
