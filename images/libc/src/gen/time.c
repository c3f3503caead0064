/* time, clock and difftime over gettimeofday and getrusage. */
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

time_t
time(time_t *t)
{
	struct timeval tv;

	if (gettimeofday(&tv, 0) < 0)
		return (time_t)-1;
	if (t)
		*t = tv.tv_sec;
	return tv.tv_sec;
}

/* User plus system CPU time in CLOCKS_PER_SEC units (microseconds); wraps after 71 minutes. */
clock_t
clock(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return (clock_t)-1;
	return (clock_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * CLOCKS_PER_SEC +
	    ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

double
difftime(time_t t1, time_t t0)
{
	return (double)t1 - (double)t0;
}
