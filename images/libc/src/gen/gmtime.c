/*
 * Broken-down UTC time. The guest has no time zones: localtime is gmtime, mktime (and timegm)
 * read the fields as UTC, tzset has nothing to do. Days are converted with the proleptic
 * Gregorian calendar's 400-year cycle.
 */
#include <errno.h>
#include <time.h>

char *tzname[2] = { "GMT", "GMT" };
long timezone;
int daylight;

void
tzset(void)
{
}

#define SECSPERDAY	86400L

/* Days from 1970-01-01 to y-m-d (m 1..12). */
static long
days_from_civil(long y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

struct tm *
gmtime_r(const time_t *tp, struct tm *tm)
{
	long t = *tp, days = t / SECSPERDAY, secs = t % SECSPERDAY;
	long era, doe, yoe, y, doy, mp;

	if (secs < 0) {
		secs += SECSPERDAY;
		days--;
	}
	tm->tm_hour = secs / 3600;
	tm->tm_min = secs / 60 % 60;
	tm->tm_sec = secs % 60;
	tm->tm_wday = (int)((days % 7 + 11) % 7);	/* 1970-01-01 was a Thursday */
	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	tm->tm_mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	tm->tm_mon = (int)(mp < 10 ? mp + 2 : mp - 10);
	y += tm->tm_mon <= 1;
	tm->tm_year = (int)(y - 1900);
	tm->tm_yday = (int)(days - 719468 - days_from_civil(y, 1, 1));
	tm->tm_isdst = 0;
	return tm;
}

struct tm *
gmtime(const time_t *tp)
{
	static struct tm tm;

	return gmtime_r(tp, &tm);
}

struct tm *
localtime_r(const time_t *tp, struct tm *tm)
{
	return gmtime_r(tp, tm);
}

struct tm *
localtime(const time_t *tp)
{
	return gmtime(tp);
}

/*
 * Normalises the fields (a tm_mon of 13 is February of the next year, and so on) and returns
 * the time; -1 with errno EOVERFLOW, and tm unchanged, when a time_t cannot hold it.
 */
time_t
mktime(struct tm *tm)
{
	long y = tm->tm_year + 1900L, mon = tm->tm_mon;
	long long secs;
	time_t t;

	y += mon / 12;
	mon %= 12;
	if (mon < 0) {
		mon += 12;
		y--;
	}
	if (y < -1000000 || y > 1000000) {
		errno = EOVERFLOW;
		return (time_t)-1;
	}
	secs = ((long long)days_from_civil(y, (int)mon + 1, 1) + tm->tm_mday - 1) * SECSPERDAY +
	    tm->tm_hour * 3600LL + tm->tm_min * 60LL + tm->tm_sec;
	t = (time_t)secs;
	if (t != secs) {
		errno = EOVERFLOW;
		return (time_t)-1;
	}
	gmtime_r(&t, tm);
	return t;
}

time_t
timegm(struct tm *tm)
{
	return mktime(tm);
}
