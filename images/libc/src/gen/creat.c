/* creat (4.4BSD lib/libc/compat-43/creat.c). */
#include <fcntl.h>

int
creat(const char *path, mode_t mode)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}
