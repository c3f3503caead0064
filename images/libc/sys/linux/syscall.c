/*
 * syscall(number, ...) for the Linux flavour: the Linux system call `number` (this architecture's
 * numbering, <sys/syscall.h>) with up to six argument words, its failure translated to errno.
 */
#include <lsys.h>
#include <stdarg.h>
#include <unistd.h>

long
syscall(long number, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return __lsys_ret(__lsyscall(a[0], a[1], a[2], a[3], a[4], a[5], number));
}
