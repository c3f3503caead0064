/*
 * trbufmap for the Linux flavour: Linux has no trace buffer device, and answers a call it does not
 * know with ENOSYS; so does this entry point (<sys/trbuf.h>).
 */
#include <errno.h>
#include <sys/trbuf.h>

int
trbufmap(void)
{
	errno = ENOSYS;
	return -1;
}
