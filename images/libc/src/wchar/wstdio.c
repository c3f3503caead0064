/*
 * Wide input and output (C99 7.24.2-3) over the byte streams, a character per byte (C locale):
 * the wide printf and scanf families convert their format (and, for swscanf, the input) to
 * bytes and run the byte engines, whose %lc, %ls and %l[ already handle wide arguments. Streams
 * keep no orientation: fwide answers as if the one asked for were set. Also wcsftime.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <wchar.h>
#include "narrow.h"

wint_t fgetwc(FILE *fp)
{
  int c = fgetc(fp);
  return c == EOF ? WEOF : (wint_t)c;
}

wint_t getwc(FILE *fp)
{
  return fgetwc(fp);
}

wint_t getwchar(void)
{
  return fgetwc(stdin);
}

wint_t fputwc(wchar_t wc, FILE *fp)
{
  if ((unsigned long)wc > 255) {
    errno = EILSEQ;
    return WEOF;
  }
  return fputc((int)wc, fp) == EOF ? WEOF : (wint_t)wc;
}

wint_t putwc(wchar_t wc, FILE *fp)
{
  return fputwc(wc, fp);
}

wint_t putwchar(wchar_t wc)
{
  return fputwc(wc, stdout);
}

wint_t ungetwc(wint_t wc, FILE *fp)
{
  if (wc == WEOF || wc > 255) return WEOF;
  return ungetc((int)wc, fp) == EOF ? WEOF : wc;
}

wchar_t *fgetws(wchar_t *restrict s, int n, FILE *restrict fp)
{
  int i = 0, c = 0;
  if (n <= 0) return NULL;
  while (i < n - 1 && (c = fgetc(fp)) != EOF) {
    s[i++] = (wchar_t)c;
    if (c == '\n') break;
  }
  if (i == 0 && c == EOF) return NULL;
  s[i] = 0;
  return s;
}

int fputws(const wchar_t *restrict s, FILE *restrict fp)
{
  for (; *s; s++)
    if (fputwc(*s, fp) == WEOF) return -1;
  return 0;
}

int fwide(FILE *fp, int mode)
{
  (void)fp;
  return mode > 0 ? 1 : mode < 0 ? -1 : 0;
}

/* The format as bytes (its characters above 255 are an encoding error: EILSEQ). */
static char *fmt_bytes(const wchar_t *f, char *buf, size_t n)
{
  int bad = 0;
  char *b = __narrow(f, buf, n, '?', &bad);
  if (b != NULL && bad) {
    if (b != buf) free(b);
    errno = EILSEQ;
    return NULL;
  }
  return b;
}

int vfwprintf(FILE *restrict fp, const wchar_t *restrict fmt, __builtin_va_list ap)
{
  char buf[256], *f = fmt_bytes(fmt, buf, sizeof buf);
  if (f == NULL) return -1;
  int r = vfprintf(fp, f, ap);
  if (f != buf) free(f);
  return r;
}

/* C99 7.24.2.7: a negative result when n or more wide characters (with the null) would be written. */
int vswprintf(wchar_t *restrict s, size_t n, const wchar_t *restrict fmt, __builtin_va_list ap)
{
  char buf[256], *f = fmt_bytes(fmt, buf, sizeof buf), *out;
  if (f == NULL) return -1;
  int r = vasprintf(&out, f, ap);
  if (f != buf) free(f);
  if (r < 0) return -1;
  if ((size_t)r >= n) {
    if (n > 0) {
      for (size_t i = 0; i + 1 < n; i++) s[i] = (unsigned char)out[i];
      s[n - 1] = 0;
    }
    free(out);
    return -1;
  }
  for (int i = 0; i <= r; i++) s[i] = (unsigned char)out[i];
  free(out);
  return r;
}

int vwprintf(const wchar_t *restrict fmt, __builtin_va_list ap)
{
  return vfwprintf(stdout, fmt, ap);
}

int fwprintf(FILE *restrict fp, const wchar_t *restrict fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int r = vfwprintf(fp, fmt, ap);
  __builtin_va_end(ap);
  return r;
}

int swprintf(wchar_t *restrict s, size_t n, const wchar_t *restrict fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int r = vswprintf(s, n, fmt, ap);
  __builtin_va_end(ap);
  return r;
}

int wprintf(const wchar_t *restrict fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int r = vfwprintf(stdout, fmt, ap);
  __builtin_va_end(ap);
  return r;
}

int vfwscanf(FILE *restrict fp, const wchar_t *restrict fmt, __builtin_va_list ap)
{
  char buf[256], *f = fmt_bytes(fmt, buf, sizeof buf);
  if (f == NULL) return EOF;
  int r = vfscanf(fp, f, ap);
  if (f != buf) free(f);
  return r;
}

/* The input's characters above 255 read as byte 0xff, which no directive of a byte format matches. */
int vswscanf(const wchar_t *restrict s, const wchar_t *restrict fmt, __builtin_va_list ap)
{
  char fbuf[256], sbuf[256];
  char *f = fmt_bytes(fmt, fbuf, sizeof fbuf);
  if (f == NULL) return EOF;
  char *in = __narrow(s, sbuf, sizeof sbuf, '\xff', NULL);
  int r = in ? vsscanf(in, f, ap) : EOF;
  if (in && in != sbuf) free(in);
  if (f != fbuf) free(f);
  return r;
}

int vwscanf(const wchar_t *restrict fmt, __builtin_va_list ap)
{
  return vfwscanf(stdin, fmt, ap);
}

int fwscanf(FILE *restrict fp, const wchar_t *restrict fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int r = vfwscanf(fp, fmt, ap);
  __builtin_va_end(ap);
  return r;
}

int swscanf(const wchar_t *restrict s, const wchar_t *restrict fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int r = vswscanf(s, fmt, ap);
  __builtin_va_end(ap);
  return r;
}

int wscanf(const wchar_t *restrict fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int r = vfwscanf(stdin, fmt, ap);
  __builtin_va_end(ap);
  return r;
}

size_t wcsftime(wchar_t *restrict s, size_t n, const wchar_t *restrict fmt, const struct tm *restrict tm)
{
  char fbuf[256], obuf[512];
  char *f = fmt_bytes(fmt, fbuf, sizeof fbuf);
  if (f == NULL || n == 0) return 0;
  char *out = n <= sizeof obuf ? obuf : malloc(n);
  size_t r = out ? strftime(out, n, f, tm) : 0;
  if (r > 0) for (size_t i = 0; i <= r; i++) s[i] = (unsigned char)out[i];
  if (out && out != obuf) free(out);
  if (f != fbuf) free(f);
  return r;
}
