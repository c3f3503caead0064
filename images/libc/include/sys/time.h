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

#define timerclear(tvp)		((tvp)->tv_sec = (tvp)->tv_usec = 0)
#define timerisset(tvp)		((tvp)->tv_sec || (tvp)->tv_usec)
#define timercmp(tvp, uvp, cmp)						\
	(((tvp)->tv_sec == (uvp)->tv_sec) ?				\
	    ((tvp)->tv_usec cmp (uvp)->tv_usec) :			\
	    ((tvp)->tv_sec cmp (uvp)->tv_sec))

__BEGIN_DECLS
int	gettimeofday(struct timeval *, struct timezone *);
__END_DECLS

#endif /* !_SYS_TIME_H_ */
