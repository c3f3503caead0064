/* systest: the program break (sbrk, brk). */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include "systest.h"

void
t_memory(void)
{
	char *a, *b, *c;
	int i, ok = 1;

	outf("== memory\n");
	a = sbrk(0);
	b = sbrk(8192);
	CHECK_SYS("sbrk(n) returns the old break", b == a);
	c = sbrk(0);
	check("the break moved by n", c == a + 8192, 0);
	for (i = 0; i < 8192; i++)
		b[i] = (char)i;
	for (i = 0; i < 8192; i++)
		ok &= b[i] == (char)i;
	check("the new memory holds what is written", ok, 0);
	check("sbrk(-n) gives it back", sbrk(-8192) == c && sbrk(0) == a, 0);
	CHECK_SYS("brk moves the break", brk(a + 4096) == 0 && sbrk(0) == a + 4096);
	check("brk back", brk(a) == 0 && sbrk(0) == a, 0);
}
