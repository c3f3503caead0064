/* isatty (4.4BSD lib/libc/gen/isatty.c): a descriptor is a terminal if TIOCGETA works on it. */
#include <sys/ioctl.h>
#include <unistd.h>

int
isatty(int fd)
{
	struct termios t;

	return ioctl(fd, TIOCGETA, &t) == 0;
}
