/* sleep and usleep over nanosleep. sleep returns the unslept seconds when a signal ends it early. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

unsigned int
sleep(unsigned int seconds)
{
	struct timespec req, rem;

	req.tv_sec = seconds;
	req.tv_nsec = 0;
	if (nanosleep(&req, &rem) < 0 && errno == EINTR)
		return rem.tv_sec + (rem.tv_nsec > 0);
	return 0;
}

int
usleep(useconds_t usec)
{
	struct timespec req;

	req.tv_sec = usec / 1000000;
	req.tv_nsec = (usec % 1000000) * 1000;
	return nanosleep(&req, 0);
}
