/* The plain BSD-flavour system-call stubs for MIPS (list in ../include/syscalls.list). */
#include <SYS.h>

	.text
#include <syscalls.list>

