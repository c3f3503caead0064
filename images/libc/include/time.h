/*
 * C and POSIX time functions. The guest's clock is the emulator's virtual clock (or the host's
 * under qemu); there are no time zones: local time is UTC.
 */
#ifndef _TIME_H_
#define _TIME_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#include <stddef.h>

#ifndef _STRUCT_TIMESPEC_DECLARED
#define _STRUCT_TIMESPEC_DECLARED
struct timespec {
	time_t	tv_sec;		/* seconds */
	long	tv_nsec;	/* and nanoseconds */
};
#endif

/* clock() counts microseconds of user plus system CPU time. */
#define CLOCKS_PER_SEC	1000000

/* clock_gettime() clocks (Linux's values) */
typedef int clockid_t;
#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2

struct tm {
	int	tm_sec;		/* seconds after the minute [0-60] */
	int	tm_min;		/* minutes after the hour [0-59] */
	int	tm_hour;	/* hours since midnight [0-23] */
	int	tm_mday;	/* day of the month [1-31] */
	int	tm_mon;		/* months since January [0-11] */
	int	tm_year;	/* years since 1900 */
	int	tm_wday;	/* days since Sunday [0-6] */
	int	tm_yday;	/* days since January 1 [0-365] */
	int	tm_isdst;	/* Daylight Savings Time flag (always 0) */
};

__BEGIN_DECLS
extern char *tzname[2];		/* {"GMT", "GMT"}: there are no time zones */
extern long timezone;		/* 0 */
extern int daylight;		/* 0 */

time_t	time(time_t *);
clock_t	clock(void);
double	difftime(time_t, time_t);
struct tm *gmtime(const time_t *);
struct tm *gmtime_r(const time_t *, struct tm *);
struct tm *localtime(const time_t *);
struct tm *localtime_r(const time_t *, struct tm *);
time_t	mktime(struct tm *);
time_t	timegm(struct tm *);
void	tzset(void);
size_t	strftime(char *restrict, size_t, const char *restrict, const struct tm *restrict);
char	*asctime(const struct tm *);
char	*asctime_r(const struct tm *restrict, char *restrict);
char	*ctime(const time_t *);
char	*ctime_r(const time_t *, char *);
int	nanosleep(const struct timespec *, struct timespec *);
int	clock_gettime(clockid_t, struct timespec *);
int	clock_getres(clockid_t, struct timespec *);
__END_DECLS

#endif /* !_TIME_H_ */
