/* fork for the Linux flavour on MIPS: Linux returns 0 in the child, unlike 4.4BSD's v1 flag. */
#include <lsys.h>
#include <unistd.h>

pid_t
fork(void)
{
	return __lsys_ret(__lsys0(LNR_fork));
}
