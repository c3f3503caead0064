/*
 * Locales and wide characters in the C locale: setlocale and localeconv, the multibyte
 * conversions, the wide string functions, wide classification, wcsto*, the wide printf and
 * scanf families, wide stream input and output, wcsftime. Only ASCII data: glibc's C locale
 * has no characters above 127, this library's maps all 256 bytes.
 */
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>
#include "libctest.h"

static void show(const char *what, const wchar_t *w)
{
  printf("%s: [", what);
  for (; *w; w++) putchar((int)*w);
  printf("]\n");
}

void test_wide(void)
{
  const char *l = setlocale(LC_ALL, NULL);
  printf("setlocale: %s %s %s %d\n", l, setlocale(LC_ALL, "C"), setlocale(LC_NUMERIC, "POSIX"),
         setlocale(LC_ALL, "no-such-locale") == NULL);
  struct lconv *lc = localeconv();
  printf("localeconv: [%s] [%s] %d %d\n", lc->decimal_point, lc->thousands_sep, lc->frac_digits == CHAR_MAX,
         lc->p_sign_posn == CHAR_MAX);

  wchar_t w[64], w2[64];
  char b[64];
  printf("mblen %d %d; MB_CUR_MAX %d\n", mblen("ab", 2), mblen("", 1), (int)MB_CUR_MAX);
  /* One call per statement where the results are read back: argument order is unspecified. */
  wchar_t wc;
  int r1 = mbtowc(&wc, "Q", 1), r2 = wctomb(b, L'z');
  printf("mbtowc %d %d; wctomb %d %c\n", r1, (int)wc, r2, b[0]);
  size_t z1 = mbstowcs(w, "hello", 64), z2 = wcstombs(b, L"world", 64);
  printf("mbstowcs %zu; wcstombs %zu [%s]\n", z1, z2, b);
  show("mbstowcs result", w);
  mbstate_t st;
  memset(&st, 0, sizeof st);
  const char *src = "abc";
  size_t z3 = mbrtowc(&wc, "y", 1, &st), z4 = mbsrtowcs(w, &src, 64, &st);
  printf("mbsinit %d mbrlen %zu mbrtowc %zu %c btowc %d wctob %d mbsrtowcs %zu src %s\n", mbsinit(&st), mbrlen("x", 1, &st),
         z3, (int)wc, (int)btowc('A'), wctob(L'B'), z4, src ? src : "NULL");

  wcscpy(w, L"wide ");
  wcscat(w, L"strings");
  show("wcscpy+wcscat", w);
  printf("wcslen %zu wcscmp %d %d wcsncmp %d wcschr %d wcsrchr %d wcsstr %d wcsspn %zu wcscspn %zu\n", wcslen(w),
         wcscmp(L"abc", L"abd") < 0, wcscmp(L"b", L"a") > 0, wcsncmp(L"abcx", L"abcy", 3), (int)(wcschr(w, L's') - w),
         (int)(wcsrchr(w, L's') - w), (int)(wcsstr(w, L"str") - w), wcsspn(w, L"wide"), wcscspn(w, L" "));
  wmemset(w2, L'#', 8);
  wcsncpy(w2, L"ab", 5);
  int zf = w2[4] == 0 && w2[5] == L'#';
  printf("wcsncpy zero-fills %d; wcspbrk %d; wmemcmp %d; wcscoll %d; wcsxfrm %zu\n", zf, (int)(wcspbrk(w, L"ng") - w),
         wmemcmp(L"aaa", L"aab", 3) < 0, wcscoll(L"x", L"x"), wcsxfrm(w2, L"coll", 64));
  wchar_t tok[] = L"a,b,,c", *last, *t;
  printf("wcstok:");
  for (t = wcstok(tok, L",", &last); t; t = wcstok(NULL, L",", &last)) printf(" %d", (int)*t);
  printf("\n");
  wmemset(w2, L'x', 3);
  w2[3] = 0;
  wmemmove(w2 + 1, w2, 2);
  show("wmemset+wmemmove", w2);

  int cls = 0;
  for (wint_t c = 0; c < 128; c++)
    cls += iswalpha(c) + 2 * iswdigit(c) + 4 * iswspace(c) + 8 * iswpunct(c) + 16 * iswupper(c) + 32 * iswxdigit(c) +
           64 * iswcntrl(c) + 128 * iswblank(c);
  printf("classes %d towupper %c towlower %c iswctype %d %d towctrans %c\n", cls != 0, (int)towupper(L'q'), (int)towlower(L'Q'),
         iswctype(L'7', wctype("digit")) != 0, iswctype(L'a', wctype("digit")) != 0, (int)towctrans(L'k', wctrans("toupper")));
  int sum = 0;
  for (wint_t c = 0; c < 128; c++)
    sum += (iswalpha(c) != 0) * 1 + (iswdigit(c) != 0) * 3 + (iswspace(c) != 0) * 7 + (iswpunct(c) != 0) * 11 +
           (iswupper(c) != 0) * 13 + (iswlower(c) != 0) * 17 + (iswcntrl(c) != 0) * 19 + (iswprint(c) != 0) * 23 +
           (iswgraph(c) != 0) * 29 + (iswxdigit(c) != 0) * 31 + (iswblank(c) != 0) * 37 + (iswalnum(c) != 0) * 41;
  printf("class checksum over ASCII %d\n", sum);

  wchar_t *end;
  printf("wcstol %ld %ld; wcstoul %lu; wcstoll %lld; wcstod %.17g; wcstof %.9g;", wcstol(L"  -123xyz", NULL, 10),
         wcstol(L"0x1f", NULL, 0), wcstoul(L"777", NULL, 8), wcstoll(L"9000000000", NULL, 10), wcstod(L"2.5e-3", NULL),
         (double)wcstof(L"0.1", NULL));
  wcstod(L"1.5kg", &end);
  printf(" end at %d\n", (int)(end - L"1.5kg"));

  int n = swprintf(w, 64, L"%d|%5.2f|%s|%ls|%c|%lc|%x", 42, 3.14159, "narrow", L"wide", 'c', L'W', 255);
  printf("swprintf %d: ", n);
  show("", w);
  printf("swprintf too small %d\n", swprintf(w, 4, L"%s", "toolong"));
  int i1 = 0;
  float f1 = 0;
  char s1[16] = "";
  wchar_t ws1[16] = L"";
  n = swscanf(L"17 2.5 word wideword", L"%d %f %s %ls", &i1, &f1, s1, ws1);
  printf("swscanf %d: %d %g %s ", n, i1, (double)f1, s1);
  show("", ws1);

  FILE *f = tmpfile();
  fputws(L"line one\nline two\n", f);
  fwprintf(f, L"%d-%ls\n", 7, L"seven");
  fputwc(L'Z', f);
  rewind(f);
  printf("fgetws:");
  while (fgetws(w, 64, f)) {
    size_t k = wcslen(w);
    printf(" %zu", k);
  }
  printf("\n");
  rewind(f);
  wint_t c1 = fgetwc(f);
  ungetwc(L'X', f);
  wint_t c2 = getwc(f);
  int o1 = fwide(f, 1) > 0, o2 = fwide(f, 0) >= 0;
  printf("fgetwc %c ungetwc/getwc %c fwide %d %d\n", (int)c1, (int)c2, o1, o2);
  fclose(f);
  struct tm tm;
  time_t tt = 1234567890;
  gmtime_r(&tt, &tm);
  n = (int)wcsftime(w, 64, L"%Y-%m-%d %H:%M:%S %a", &tm);
  printf("wcsftime %d: ", n);
  show("", w);
}
