/*
 * Process termination: exit (atexit handlers in reverse order of registration, then the stdio
 * flush, then _exit), atexit, _Exit.
 */
#include <stdlib.h>
#include <unistd.h>

#define ATEXIT_MAX 64   /* C11 requires at least 32 */

static void (*handlers[ATEXIT_MAX])(void);
static int nhandlers;

/* Defined by stdio (stdfiles.c) when the program uses it; weak so exit alone does not pull in
 * stdio. */
extern void __stdio_exit(void) __attribute__((__weak__));

int atexit(void (*fn)(void))
{
  if (nhandlers >= ATEXIT_MAX) return -1;
  handlers[nhandlers++] = fn;
  return 0;
}

void exit(int status)
{
  /* A handler may itself call atexit or exit: take each one off the list before running it. */
  while (nhandlers > 0) handlers[--nhandlers]();
  if (__stdio_exit) __stdio_exit();
  _exit(status);
}

void _Exit(int status)
{
  _exit(status);
}
