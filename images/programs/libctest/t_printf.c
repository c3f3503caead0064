/* printf family: hand-picked corner cases, each printed with its call. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libctest.h"

static char buf[4096];

/* Prints the call, the output (non-printing bytes escaped) and the return value. */
static void show(const char *call, int n)
{
  printf("%s -> \"", call);
  for (int i = 0; i < n && i < (int)sizeof buf - 1; i++) {
    unsigned char c = (unsigned char)buf[i];
    if (c >= ' ' && c < 127 && c != '\\' && c != '"') putchar(c);
    else printf("\\x%02x", c);
  }
  printf("\" %d\n", n);
}

#define P(...) show(#__VA_ARGS__, snprintf(buf, sizeof buf, __VA_ARGS__))

/* Formats chosen at run time (so the compiler's format checks stay quiet about odd ones). */
static int vf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return n;
}

#define V(...) show(#__VA_ARGS__, vf(__VA_ARGS__))

static void integers(void)
{
  P("%d|%d|%d|%d|%i", 0, -1, INT_MAX, INT_MIN, 42);
  P("%u|%x|%X|%o", 4294967295u, 0xdeadbeefu, 0xdeadbeefu, 8u);
  P("%5d|%-5d|%05d|%-05d", 42, 42, 42, 42);
  P("%+d|% d|%+d|% d|%+ d", 5, 5, -5, -5, 5);
  P("%.3d|%.0d|%.0d|%5.3d|%-5.3d|%05.3d|%.0u|%.0x", 7, 0, 1, 7, 7, 7, 0u, 0u);
  P("%#o|%#o|%#.3o|%#x|%#x|%#X|%#.0x|%#5x|%#05x|%#-8x|", 8u, 0u, 8u, 255u, 0u, 255u, 0u, 1u, 1u, 171u);
  P("%+5d|%+05d|% 05d|%+.3d|% -6d|", 12, 12, 12, -1, 3);
  P("%hhd|%hhu|%hd|%hu|%hhx|%hx", 300, 300, 70000, 70000, -1, -1);
  P("%ld|%lu|%lx", -123456789L, 123456789UL, 0x7fffffffUL);
  P("%lld|%llu|%llx|%llo|%llX", LLONG_MIN, ULLONG_MAX, 0x123456789abcdefULL, 01234567012345670ULL, 0xfedcba9876543210ULL);
  P("%lld|%lld|%llu|%lld", 4294967296LL, -4294967297LL, 999999999999999999ULL, 1000000000LL);
  P("%jd|%ju|%zu|%zd|%td", (intmax_t)-5, (uintmax_t)6, (size_t)123, (ptrdiff_t)-8, (ptrdiff_t)-7);
  P("%*d|%-*d|%.*d|%*.*d|", 6, 1, 6, 1, 4, 1, 8, 3, 2);
  P("%*d|%.*d|%*s|", -6, 1, -1, 5, -4, "ab");
  P("%c%c%c|%5c|%-5c|", 'a', 'b', 'c', 'x', 'y');
  P("%c|%c", 0, 255);
  P("%'d|%'u", 1234567, 7654321u);
  P("%%|%d%%|%%%d", 1, 2);
}

static void strings(void)
{
  const char *null = NULL;
  P("%s|%10s|%-10s|%.2s|%10.2s|%-10.2s|", "hello", "hello", "hello", "hello", "hello", "hello");
  P("%s|%.0s|%5s|", "", "abc", "");
  V("%s|%.3s|%.6s|%10s|%-8s|", null, null, null, null, null);
  P("%p|%p|%10p|%-10p|", (void *)0x1234, (void *)0xdeadbeefu, (void *)0x10, (void *)0x10);
  V("%p|%10p|%-8p|", null, null, null);
  int n1 = -1, n2 = -1;
  signed char hn = 0;
  short sn = 0;
  long long ln = 0;
  P("abc%n%5d%n|%hhn%hn%lln", &n1, 7, &n2, &hn, &sn, &ln);
  printf("  %%n stored %d %d %d %d %lld\n", n1, n2, hn, sn, ln);
  /* Flags C leaves undefined or glibc accepts: glibc's output is the reference. */
  V("[%05s][%-05s][%+s][%#s]", "ab", "ab", "ab", "ab");
  V("[%05c][% c][%.3c]", 'x', 'y', 'z');
  V("[%5%][%-5%][%05%][%y][%5y]");
  V("[%+p][% p][%020p][%-+12p][%.5p][%#p]", (void *)0x1234, (void *)0x1234, (void *)0x1234, (void *)0x1234, (void *)0x1234,
    (void *)0x1234);
  V("[%hhi][%llc][%+u][% u][%#.0o]", 0x1ff, 65, 7u, 7u, 0u);
  errno = ENOENT;
  V("%m|%20m|");
  errno = EINVAL;
  V("[%m]");
}

static void floats(void)
{
  P("%f|%e|%g|%a", 0.0, 0.0, 0.0, 0.0);
  P("%f|%e|%g|%a", -0.0, -0.0, -0.0, -0.0);
  P("%f|%e|%g|%a|%F|%E|%G|%A", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0);
  P("%.0f|%.0f|%.0f|%.0f|%.0f|%.0f|%.0f", 0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 0.49999999999999994);
  P("%.1f|%.1f|%.2f|%.2f|%.3f|%.1f", 0.25, 0.35, 0.125, 0.375, 2.0005, 0.05);
  P("%.0e|%.1e|%.2e|%.0e|%.0e", 2.5, 1.25, 1.125, 1.5, 3.5);
  P("%f|%.20f|%.60f", 1e300, 0.1, 0.1);
  P("%.30e|%.40g|%.17g|%.16g|%.15g", 1.0 / 3, 2.0 / 3, 0.1, 0.1, 0.1);
  P("%g|%g|%g|%g|%g|%g", 100000.0, 1000000.0, 1e-4, 1e-5, 123456789.0, 0.000123456);
  P("%g|%g|%g|%g|%.3g|%.3g", 9.9999999, 99999.95, 999999.5, 0.00009999995, 9.9995, 0.0009995);
  P("%#g|%#.3g|%#.0e|%#.0f|%#g|%#.10g", 1.0, 1.0, 1.0, 1.0, 0.0, 1.5);
  P("%.0g|%.1g|%.2g|%.0g|%.1g", 0.0001234, 123.0, 99.5, 0.0, 1e100);
  P("%g|%G|%g|%G", 1e-10, 1e-10, 1e+100, 1.5e-300);
  P("%.17g|%.17g|%.17g|%.17g", DBL_MAX, DBL_MIN, 4.9406564584124654e-324, DBL_EPSILON);
  P("%e|%e|%.0e|%.3e|%E", DBL_MAX, 4.9406564584124654e-324, 4.9406564584124654e-324, DBL_MIN, 2.2250738585072009e-308);
  P("%f|%.3f|%.10f|%.330f", 4.9406564584124654e-324, -4.9406564584124654e-324, 1e-11, 4.9406564584124654e-324);
  P("%.1100f", 4.9406564584124654e-324);
  P("%.1080f", 2.2250738585072014e-308);
  P("%.400e", 4.9406564584124654e-324);
  P("%.770e", 2.2250738585072009e-308);
  P("%f", DBL_MAX);
  P("%.50f|%.0f|%.0f", 1e22, 1e23, 9007199254740993.0);
  P("%.20e|%.25f", 123456789012345678901234567890.0, 1e-20);
  P("%f|%F|%e|%E|%g|%G|%a|%A", INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY);
  P("%f|%F|%e|%E|%g|%G|%a|%A", -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY);
  P("%f|%F|%e|%E|%g|%G|%a|%A", NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN);
  P("%f|%F|%e|%g|%a", -NAN, -NAN, -NAN, -NAN, -NAN);
  P("%10f|%-10f|%010f|%+f|% f|%+010e|%-+8g|", INFINITY, INFINITY, -INFINITY, INFINITY, NAN, NAN, INFINITY);
  P("%010.3f|%-10.3f|%+.3f|% .3f|%+010.3e|%08.2g|%-12.4G|", -3.14159, 3.14159, 3.14159, 3.14159, 31415.9, 0.000314159, 31415.9);
  P("%015.8e|%+015.8e|% 015.8e|%-015.8e|", 1.5, 1.5, 1.5, 1.5);
  P("%5.1f|%5.1f|%.2e|%.1f|%.1f", 9.95, 9.96, 9.995e10, 0.95, 0.05);
  P("%a|%a|%a|%a|%a|%a", 1.0, 0.5, 3.0, 0.1, -2.25, 1e-300);
  P("%.0a|%.1a|%.2a|%.0a|%.0a|%.1a", 1.5, 1.03125, 0.1, 2.5, 1.0625, 1.96875);
  P("%A|%a|%a|%a|%.3a|%.20a", 255.5, DBL_MAX, DBL_MIN, 4.9406564584124654e-324, 4.9406564584124654e-324, 1.0 / 3);
  P("%#a|%#.0a|%20a|%-20a|%020a|%+a|% a|", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0);
  P("%.0a|%.1a|%.13a|%.12a", 1.9999999999999998, 1.96875, 1.9999999999999998, 1.9999999999999998);
  P("%.12a|%.0a|%a", 2.2250738585072009e-308, 1.1125369292536007e-308, 1.1125369292536007e-308);
  P("%Le|%Lf|%Lg", 1.5L, 2.5L, 3.5L);
  P("%.3f|%.3f|%.3f|%.3f", 1.0005, 1.0015, 1.0025, 1.0035);
  P("%.15g|%.16g|%.17g|%.18g|%.20g", 0.3, 0.3, 0.3, 0.3, 0.3);
  P("%.1f|%.1f|%.1f|%.1f", 0.45, 0.55, 1.45, 2.675);
  P("%g|%g|%g|%g", 1e15, 1e16, 1e17, 123456.5);
  P("%.3g|%.3g|%.3g|%.3g", 1e-5, 0.0001, 100.0, 1000.0);
  P("%.99g", 0.1);
  P("%5.0f|%-5.0f|%05.0f|%#5.0f|", 3.0, 3.0, 3.0, 3.0);
}

static void lengths(void)
{
  char small[8];
  int n = snprintf(small, sizeof small, "%s", "hello world");
  printf("snprintf truncates: \"%s\" %d\n", small, n);
  n = snprintf(small, sizeof small, "%d%d%d", 1234, 5678, 9012);
  printf("snprintf truncates: \"%s\" %d\n", small, n);
  n = snprintf(NULL, 0, "%d %s %.3f", 12345, "xyz", 2.5);
  printf("snprintf(NULL, 0): %d\n", n);
  small[0] = 'Q';
  n = snprintf(small, 1, "abc");
  printf("snprintf(s, 1): \"%s\" %d\n", small, n);
  n = sprintf(buf, "%s-%d-%c-%.2f", "sp", 7, 'z', 0.125);
  printf("sprintf: \"%s\" %d\n", buf, n);
  char *a = NULL;
  n = asprintf(&a, "%0*d|%s", 20, 42, "asprintf");
  printf("asprintf: \"%s\" %d\n", a ? a : "(null)", n);
  free(a);
  n = printf("printf returns the count%s\n", "!");
  printf("  -> %d\n", n);
  n = fprintf(stdout, "%s %d %.1f\n", "fprintf", 3, 3.25);
  printf("  -> %d\n", n);
  memset(buf, 'x', 3000);
  buf[3000] = '\0';
  n = snprintf(NULL, 0, "%s%s", buf, buf);
  printf("long output: %d\n", n);
}

void test_printf(void)
{
  integers();
  strings();
  floats();
  lengths();
}
