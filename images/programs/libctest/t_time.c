/*
 * Time: gmtime, mktime (normalisation), timegm, asctime, ctime and strftime with every C99 and
 * POSIX conversion and the GNU flags, on fixed and random times across the 32-bit time_t range.
 * Local time is made UTC (TZ=UTC on the host; the guest has no time zones).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "libctest.h"

static const char *const formats[] = {
  "%a %A %b %B %h", "%c", "%C %y %Y %G %g", "%d %e %j %m", "%D %F %R %T %r", "%H %I %k %l %M %S %p %P",
  "%u %w %U %W %V", "%x %X", "%n%t%%", "%s", "%-d %-m %-H %-j", "%_d %_m %_H", "%05Y %3d %4j", "%^a %^B %^p",
  "%Ey %EY %Od %OH %OM", "%10A|%-10d|%_5m",
};

static void show(time_t t)
{
  struct tm tm;
  char buf[256];
  gmtime_r(&t, &tm);
  printf("%ld: %04d-%02d-%02d %02d:%02d:%02d wday %d yday %d | %s", (long)t, tm.tm_year + 1900, tm.tm_mon + 1,
         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_wday, tm.tm_yday, asctime(&tm));
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
    size_t n = strftime(buf, sizeof buf, formats[i], &tm);
    printf("  [%s] -> %zu [%s]\n", formats[i], n, buf);
  }
}

void test_time(void)
{
  setenv("TZ", "UTC", 1);
  tzset();
  const time_t fixed[] = { 0, 1, -1, 951782400, 951868799, 1234567890, 2147483647, -2147483647 - 1, 86399,
                           1104451200, 1230681600, 1262217600, 1293753600, 1609372800, 1640995200, 1703980800 };
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) show(fixed[i]);

  /* ISO 8601 weeks around New Year, 1999-2030. */
  block_begin("iso-weeks");
  for (int y = 1999; y <= 2030; y++) {
    for (int d = -4; d <= 4; d++) {
      struct tm tm = { 0 };
      char buf[64], line[96];
      tm.tm_year = y - 1900;
      tm.tm_mon = 0;
      tm.tm_mday = 1 + d;
      tm.tm_hour = 12;
      time_t t = mktime(&tm);
      strftime(buf, sizeof buf, "%F %a %G-W%V-%u %g %U %W %j", &tm);
      snprintf(line, sizeof line, "%ld %s", (long)t, buf);
      block_case(line, strlen(line));
    }
  }
  block_end();

  rng_seed(20261127);
  block_begin("strftime-random");
  for (int i = 0; i < 600; i++) {
    time_t t = (time_t)(int32_t)(uint32_t)rng();
    struct tm tm;
    char buf[512], line[600];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%a %A %b %B %c %C %d %D %e %F %g %G %H %I %j %k %l %m %M %p %r %R %s %S %T %u %U %V %w %W %x %X %y %Y", &tm);
    snprintf(line, sizeof line, "%ld %s", (long)t, buf);
    block_case(line, strlen(line));
    struct tm back = tm;
    check(mktime(&back) == t && timegm(&tm) == t, "mktime(gmtime(%ld)) round trip", (long)t);
  }
  block_end();

  /* mktime normalises out-of-range fields and fills tm_wday and tm_yday. */
  const int fields[][6] = { { 2020, 13, 1, 0, 0, 0 }, { 2021, 0, 0, 0, 0, 0 }, { 2021, 2, 31, 25, 61, 61 },
                            { 1999, -1, 15, -1, -1, -1 }, { 2000, 1, 29, 23, 59, 60 }, { 1970, 0, 1, 0, 0, -1 },
                            { 2038, 0, 19, 3, 14, 7 }, { 1901, 11, 13, 20, 45, 52 }, { 2024, 11, 400, 0, 0, 0 } };
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    struct tm tm = { 0 };
    tm.tm_year = fields[i][0] - 1900;
    tm.tm_mon = fields[i][1];
    tm.tm_mday = fields[i][2];
    tm.tm_hour = fields[i][3];
    tm.tm_min = fields[i][4];
    tm.tm_sec = fields[i][5];
    time_t t = mktime(&tm);
    printf("mktime(%d-%d-%d %d:%d:%d) = %ld -> %04d-%02d-%02d %02d:%02d:%02d wday %d yday %d\n", fields[i][0],
           fields[i][1], fields[i][2], fields[i][3], fields[i][4], fields[i][5], (long)t, tm.tm_year + 1900,
           tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_wday, tm.tm_yday);
  }

  time_t t = 1000000000;
  char cbuf[26];
  printf("ctime: %s", ctime(&t));
  printf("ctime_r: %s", ctime_r(&t, cbuf));
  struct tm tm;
  gmtime_r(&t, &tm);
  printf("asctime_r: %s", asctime_r(&tm, cbuf));
  printf("localtime = gmtime: %d\n", memcmp(localtime(&t), gmtime(&t), sizeof tm) == 0);
  printf("%%Z of gmtime: %s\n", strftime(cbuf, sizeof cbuf, "%Z", gmtime(&t)) ? cbuf : "?");
  char small[8];
  size_t n1 = strftime(small, sizeof small, "%Y-%m-%d", &tm);
  size_t n2 = strftime(small, 5, "%Y", &tm);
  printf("too small: %zu; exact fit: %zu [%s]\n", n1, n2, small);
  printf("empty: %zu\n", strftime(small, sizeof small, "", &tm));
  struct timespec ts;
  check(clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000 &&
        ts.tv_sec >= time(NULL) - 1, "clock_gettime(CLOCK_REALTIME)");
  check(clock_gettime(CLOCK_MONOTONIC, &ts) == 0 && clock_getres(CLOCK_REALTIME, &ts) == 0 && ts.tv_sec == 0 &&
        ts.tv_nsec > 0, "clock_gettime(CLOCK_MONOTONIC), clock_getres");
}
