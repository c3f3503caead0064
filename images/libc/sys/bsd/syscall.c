/*
 * syscall(number, ...) for the BSD flavour (4.4BSD syscall(2)): the trap `number` of
 * <sys/syscall.h> with up to eight argument words, passed as the trap takes them (an off_t is
 * two words after a pad word; the result is the first return word only). A number the kernel
 * does not implement gets ENOSYS and SIGSYS.
 */
#include <stdarg.h>
#include <unistd.h>

long __sys_indir(long, long, long, long, long, long, long, long, long);

long
syscall(long number, ...)
{
	long a[8];
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 8; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return __sys_indir(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], number);
}
