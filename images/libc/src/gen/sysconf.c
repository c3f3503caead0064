/*
 * sysconf and getpagesize: the limits of the guest system (<limits.h>, the kernel's page size
 * and clock rate). One CPU.
 */
#include <errno.h>
#include <limits.h>
#include <unistd.h>

int
getpagesize(void)
{
	return 4096;
}

long
sysconf(int name)
{
	switch (name) {
	case _SC_ARG_MAX:
		return ARG_MAX;
	case _SC_CHILD_MAX:
		return CHILD_MAX;
	case _SC_CLK_TCK:
		return 100;
	case _SC_NGROUPS_MAX:
		return 16;
	case _SC_OPEN_MAX:
		return OPEN_MAX;
	case _SC_JOB_CONTROL:
	case _SC_SAVED_IDS:
		return 1;
	case _SC_VERSION:
		return 200112L;
	case _SC_PAGESIZE:
		return getpagesize();
	case _SC_NPROCESSORS_CONF:
	case _SC_NPROCESSORS_ONLN:
		return 1;
	default:
		errno = EINVAL;
		return -1;
	}
}
