/*
 * times (4.4BSD lib/libc/gen/times.c): CPU times of the process and of its waited-for children
 * from getrusage, in clock ticks of CLK_TCK (100 per second), and the time of day in ticks as
 * the return value (its origin is arbitrary: only differences mean something).
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>

/* A timeval in clock ticks, truncated; the time of day wraps
 * around (unsigned arithmetic), which differences survive. */
#define TICKS(tv)	((clock_t)(tv).tv_sec * CLK_TCK + (clock_t)(tv).tv_usec / (1000000 / CLK_TCK))

clock_t
times(struct tms *tp)
{
	struct rusage ru;
	struct timeval t;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return (clock_t)-1;
	tp->tms_utime = TICKS(ru.ru_utime);
	tp->tms_stime = TICKS(ru.ru_stime);
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return (clock_t)-1;
	tp->tms_cutime = TICKS(ru.ru_utime);
	tp->tms_cstime = TICKS(ru.ru_stime);
	if (gettimeofday(&t, 0) < 0)
		return (clock_t)-1;
	return TICKS(t);
}
