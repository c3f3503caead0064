/* Time structures of the system-call interface (4.4BSD <sys/time.h>). */
#ifndef _SYS_TIME_H_
#define _SYS_TIME_H_

#include <sys/cdefs.h>
#include <sys/types.h>

/* A time of day or interval, in seconds and microseconds. */
struct timeval {
	long	tv_sec;		/* seconds */
	long	tv_usec;	/* and microseconds */
};

#ifndef _STRUCT_TIMESPEC_DECLARED
#define _STRUCT_TIMESPEC_DECLARED
/* A time of day or interval, in seconds and nanoseconds (POSIX.1b). */
struct timespec {
	time_t	tv_sec;		/* seconds */
	long	tv_nsec;	/* and nanoseconds */
};
#endif

struct timezone {
	int	tz_minuteswest;	/* minutes west of Greenwich */
	int	tz_dsttime;	/* type of dst correction */
};

/* Interval timers (setitimer, getitimer). */
#define ITIMER_REAL	0	/* virtual time of day: SIGALRM */
#define ITIMER_VIRTUAL	1	/* the process's user time: SIGVTALRM */
#define ITIMER_PROF	2	/* its user and system time: SIGPROF */

struct itimerval {
	struct	timeval it_interval;	/* timer interval */
	struct	timeval it_value;	/* current value */
};

#define timerclear(tvp)		((tvp)->tv_sec = (tvp)->tv_usec = 0)
#define timerisset(tvp)		((tvp)->tv_sec || (tvp)->tv_usec)
#define timercmp(tvp, uvp, cmp)						\
	(((tvp)->tv_sec == (uvp)->tv_sec) ?				\
	    ((tvp)->tv_usec cmp (uvp)->tv_usec) :			\
	    ((tvp)->tv_sec cmp (uvp)->tv_sec))

#define timeradd(tvp, uvp, vvp) do {					\
	(vvp)->tv_sec = (tvp)->tv_sec + (uvp)->tv_sec;			\
	(vvp)->tv_usec = (tvp)->tv_usec + (uvp)->tv_usec;		\
	if ((vvp)->tv_usec >= 1000000) {				\
		(vvp)->tv_sec++;					\
		(vvp)->tv_usec -= 1000000;				\
	}								\
} while (0)
#define timersub(tvp, uvp, vvp) do {					\
	(vvp)->tv_sec = (tvp)->tv_sec - (uvp)->tv_sec;			\
	(vvp)->tv_usec = (tvp)->tv_usec - (uvp)->tv_usec;		\
	if ((vvp)->tv_usec < 0) {					\
		(vvp)->tv_sec--;					\
		(vvp)->tv_usec += 1000000;				\
	}								\
} while (0)

__BEGIN_DECLS
int	gettimeofday(struct timeval *, struct timezone *);
int	getitimer(int, struct itimerval *);
int	setitimer(int, const struct itimerval *, struct itimerval *);
int	utimes(const char *, const struct timeval *);
__END_DECLS

#include <sys/select.h>

#endif /* !_SYS_TIME_H_ */
