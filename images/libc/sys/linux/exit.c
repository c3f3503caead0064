/* _exit for the Linux flavour: exit_group, so that the whole process ends (the guest has one
 * thread, but a plain exit would end only the calling thread under Linux's model). */
#include <lsys.h>
#include <unistd.h>

void
_exit(int status)
{
	for (;;)
		__lsys1(LNR_exit_group, status);
}
