/* Process times (POSIX <sys/times.h>), in clock ticks: CLK_TCK per second. */
#ifndef _SYS_TIMES_H_
#define _SYS_TIMES_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#ifndef CLK_TCK
#define CLK_TCK		100	/* ticks per second (sysconf(_SC_CLK_TCK)) */
#endif

struct tms {
	clock_t	tms_utime;	/* user CPU time */
	clock_t	tms_stime;	/* system CPU time */
	clock_t	tms_cutime;	/* user CPU time of terminated children */
	clock_t	tms_cstime;	/* system CPU time of terminated children */
};

__BEGIN_DECLS
clock_t	times(struct tms *);
__END_DECLS

#endif /* !_SYS_TIMES_H_ */
