/* The plain BSD-flavour system-call stubs for SPARC (list in ../include/syscalls.list). */
#include <SYS.h>

	.text
#include <syscalls.list>
