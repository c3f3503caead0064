/*
 * alarm and pause (4.4BSD lib/libc/gen): alarm is ITIMER_REAL without an interval, rounding the
 * time left on the previous alarm up to whole seconds; pause waits for a signal with the mask
 * unchanged.
 */
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

unsigned int
alarm(unsigned int secs)
{
	struct itimerval it, old;

	it.it_interval.tv_sec = it.it_interval.tv_usec = 0;
	it.it_value.tv_sec = secs;
	it.it_value.tv_usec = 0;
	if (setitimer(ITIMER_REAL, &it, &old) < 0)
		return (unsigned int)-1;
	return old.it_value.tv_sec + (old.it_value.tv_usec != 0);
}

int
pause(void)
{
	sigset_t mask;

	if (sigprocmask(SIG_BLOCK, 0, &mask) < 0)
		return -1;
	return sigsuspend(&mask);
}
