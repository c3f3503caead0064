/*
 * brk and sbrk over 4.4BSD's break(2), which moves the end of the data segment to an address and
 * returns 0 (or fails with ENOMEM). The kernel starts the break at the end of bss, the linker's
 * `end` symbol; the library keeps the current value, as 4.4BSD's libc did (`curbrk`).
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

int __sys_break(char *nsize);

extern char end[];
char *__curbrk = end;

int
brk(void *addr)
{
	if (__sys_break(addr) < 0)
		return -1;
	__curbrk = addr;
	return 0;
}

void *
sbrk(intptr_t incr)
{
	char *old = __curbrk;

	if (incr == 0)
		return old;
	/* A break that wraps around the address space is as impossible as one past the stack. */
	if ((incr > 0 && (uintptr_t)old + (uintptr_t)incr < (uintptr_t)old) ||
	    (incr < 0 && (uintptr_t)-incr > (uintptr_t)old)) {
		errno = ENOMEM;
		return (void *)-1;
	}
	if (__sys_break(old + incr) < 0)
		return (void *)-1;
	__curbrk = old + incr;
	return old;
}
