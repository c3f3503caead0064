/*
 * trbufmap(2) (<sys/trbuf.h>, os/syscalls.master): a plain stub, in an object of its own so that
 * only a program that calls it links it — the instrumenter's prologue makes the call itself, and
 * every other program keeps the layout it had without the call (the stubs of syscalls.list share
 * one object).
 */
#include <SYS.h>

	.text
	PSEUDO	trbufmap, SYS_trbufmap
