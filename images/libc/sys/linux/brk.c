/*
 * brk and sbrk for the Linux flavour. Linux's brk(addr) returns the new break, or the unchanged
 * old one when it cannot move it (never -1), and brk(0) returns the current break, which Linux
 * starts at the page-rounded end of bss, not at `end`. The break is queried once, lazily.
 */
#include <errno.h>
#include <lsys.h>
#include <stdint.h>
#include <unistd.h>

static char *curbrk;

static int
setbrk(char *addr)
{
	char *r = (char *)__lsys1(LNR_brk, addr);

	if (r != addr) {
		errno = ENOMEM;
		return -1;
	}
	curbrk = addr;
	return 0;
}

int
brk(void *addr)
{
	return setbrk(addr);
}

void *
sbrk(intptr_t incr)
{
	char *old;

	if (curbrk == 0)
		curbrk = (char *)__lsys1(LNR_brk, 0);
	old = curbrk;
	if (incr == 0)
		return old;
	if ((incr > 0 && (uintptr_t)old + (uintptr_t)incr < (uintptr_t)old) ||
	    (incr < 0 && (uintptr_t)-incr > (uintptr_t)old)) {
		errno = ENOMEM;
		return (void *)-1;
	}
	if (setbrk(old + incr) < 0)
		return (void *)-1;
	return old;
}
