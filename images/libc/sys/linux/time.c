/*
 * Time calls of the Linux flavour. struct timeval, struct timespec, struct itimerval and struct
 * rusage are laid out the same by 32-bit Linux (32-bit time_t) and by 4.4BSD, and the ITIMER_*
 * values are the same.
 */
#include <lsys.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

int
gettimeofday(struct timeval *tp, struct timezone *tzp)
{
	return __lsys_ret(__lsys2(LNR_gettimeofday, tp, tzp));
}

int
nanosleep(const struct timespec *rqtp, struct timespec *rmtp)
{
	return __lsys_ret(__lsys2(LNR_nanosleep, rqtp, rmtp));
}

int
getrusage(int who, struct rusage *ru)
{
	return __lsys_ret(__lsys2(LNR_getrusage, who, ru));
}

int
getitimer(int which, struct itimerval *itv)
{
	return __lsys_ret(__lsys2(LNR_getitimer, which, itv));
}

int
setitimer(int which, const struct itimerval *itv, struct itimerval *oitv)
{
	return __lsys_ret(__lsys3(LNR_setitimer, which, itv, oitv));
}
