/*
 * Multibyte and wide character conversions in the C locale (<stdlib.h> 7.22.7-8, <wchar.h>
 * 7.24.6): every byte is one character whose wide value is the byte's (0-255); a wide character
 * above 255 has no multibyte form: EILSEQ. There is no shift state.
 */
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>

wint_t btowc(int c)
{
  return c == -1 ? WEOF : (wint_t)(unsigned char)c;
}

int wctob(wint_t c)
{
  return c < 256 ? (int)c : -1;
}

int mbsinit(const mbstate_t *ps)
{
  (void)ps;
  return 1;
}

size_t mbrtowc(wchar_t *restrict pwc, const char *restrict s, size_t n, mbstate_t *restrict ps)
{
  (void)ps;
  if (s == NULL) return 0;
  if (n == 0) return (size_t)-2;
  if (pwc) *pwc = (unsigned char)*s;
  return *s != 0;
}

size_t mbrlen(const char *restrict s, size_t n, mbstate_t *restrict ps)
{
  return mbrtowc(NULL, s, n, ps);
}

size_t wcrtomb(char *restrict s, wchar_t wc, mbstate_t *restrict ps)
{
  (void)ps;
  if (s == NULL) return 1;
  if ((unsigned long)wc > 255) {
    errno = EILSEQ;
    return (size_t)-1;
  }
  *s = (char)wc;
  return 1;
}

size_t mbsrtowcs(wchar_t *restrict d, const char **restrict src, size_t n, mbstate_t *restrict ps)
{
  const unsigned char *s = (const unsigned char *)*src;
  size_t i = 0;
  (void)ps;
  for (; d == NULL || i < n; i++) {
    if (d) d[i] = s[i];
    if (s[i] == 0) {
      if (d) *src = NULL;
      return i;
    }
  }
  *src = (const char *)s + i;
  return i;
}

size_t wcsrtombs(char *restrict d, const wchar_t **restrict src, size_t n, mbstate_t *restrict ps)
{
  const wchar_t *s = *src;
  size_t i = 0;
  (void)ps;
  for (; d == NULL || i < n; i++) {
    if ((unsigned long)s[i] > 255) {
      if (d) *src = s + i;
      errno = EILSEQ;
      return (size_t)-1;
    }
    if (d) d[i] = (char)s[i];
    if (s[i] == 0) {
      if (d) *src = NULL;
      return i;
    }
  }
  *src = s + i;
  return i;
}

int mblen(const char *s, size_t n)
{
  return mbtowc(NULL, s, n);
}

int mbtowc(wchar_t *restrict pwc, const char *restrict s, size_t n)
{
  if (s == NULL) return 0;   /* no shift states */
  if (n == 0) {
    errno = EILSEQ;
    return -1;
  }
  if (pwc) *pwc = (unsigned char)*s;
  return *s != 0;
}

int wctomb(char *s, wchar_t wc)
{
  if (s == NULL) return 0;
  return (int)wcrtomb(s, wc, NULL);
}

size_t mbstowcs(wchar_t *restrict d, const char *restrict s, size_t n)
{
  return mbsrtowcs(d, &s, n, NULL);
}

size_t wcstombs(char *restrict d, const wchar_t *restrict s, size_t n)
{
  return wcsrtombs(d, &s, n, NULL);
}
