/* wait and waitpid over wait4 (4.4BSD lib/libc/gen/wait.c, waitpid.c). */
#include <sys/wait.h>

pid_t
wait(int *status)
{
	return wait4(WAIT_ANY, status, 0, 0);
}

pid_t
waitpid(pid_t pid, int *status, int options)
{
	return wait4(pid, status, options, 0);
}
