/*
 * clock_gettime and clock_getres (POSIX.1b) over gettimeofday and getrusage: CLOCK_REALTIME and
 * CLOCK_MONOTONIC are the time of day (which nothing sets), CLOCK_PROCESS_CPUTIME_ID the user
 * plus system time of the process; all with a microsecond resolution.
 */
#include <errno.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	struct timeval tv;
	struct rusage ru;

	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
		if (gettimeofday(&tv, 0) < 0)
			return -1;
		break;
	case CLOCK_PROCESS_CPUTIME_ID:
		if (getrusage(RUSAGE_SELF, &ru) < 0)
			return -1;
		timeradd(&ru.ru_utime, &ru.ru_stime, &tv);
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	ts->tv_sec = tv.tv_sec;
	ts->tv_nsec = tv.tv_usec * 1000;
	return 0;
}

int
clock_getres(clockid_t id, struct timespec *ts)
{
	if (id != CLOCK_REALTIME && id != CLOCK_MONOTONIC && id != CLOCK_PROCESS_CPUTIME_ID) {
		errno = EINVAL;
		return -1;
	}
	if (ts) {
		ts->tv_sec = 0;
		ts->tv_nsec = 1000;
	}
	return 0;
}
