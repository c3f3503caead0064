/*
 * The standard streams, the list of open streams, fflush, and the flush at exit.
 *
 * stdin and stdout decide their buffering at their first I/O (line buffered on a terminal, fully
 * buffered otherwise); stderr is unbuffered from the start.
 */
#include <stdlib.h>
#include <unistd.h>
#include "local.h"

static FILE sf[3] = {
  { .fd = 0, .flags = F_READ, .next = &sf[1] },
  { .fd = 1, .flags = F_WRITE, .next = &sf[2] },
  { .fd = 2, .flags = F_WRITE | F_NBF | F_MODE, .next = NULL },
};

FILE *stdin = &sf[0];
FILE *stdout = &sf[1];
FILE *stderr = &sf[2];

FILE *__sfirst = &sf[0];

void __slink(FILE *fp)
{
  fp->next = __sfirst;
  __sfirst = fp;
}

void __sunlink(FILE *fp)
{
  for (FILE **pp = &__sfirst; *pp; pp = &(*pp)->next)
    if (*pp == fp) {
      *pp = fp->next;
      return;
    }
}

/*
 * POSIX: flushing an input stream moves the descriptor's offset back to the stream's position
 * (when the descriptor can seek), so that another reader of the descriptor, such as a child
 * process, continues where this program stopped reading.
 */
void __sunread(FILE *fp)
{
  off_t n = fp->rend - fp->rpos;
  if (fp->flags & F_UB) n += fp->ue - fp->ur;
  if (n > 0) lseek(fp->fd, -n, SEEK_CUR);
  __sdiscard(fp);
}

int fflush(FILE *fp)
{
  if (fp) {
    if (fp->flags & F_STR) return 0;
    if (fp->flags & F_RDING) {
      __sunread(fp);
      return 0;
    }
    return __sflush(fp);
  }
  int rc = 0;
  for (FILE *f = __sfirst; f; f = f->next)
    if ((f->flags & F_WRING) && __sflush(f)) rc = EOF;
  return rc;
}

/*
 * Called by exit() after the atexit handlers (exit() refers to it weakly, so programs that never
 * use stdio do not link it): writes every stream's pending output and, as closing the streams
 * would, gives back input read ahead on seekable descriptors.
 */
void __stdio_exit(void)
{
  for (FILE *f = __sfirst; f; f = f->next) {
    if (f->flags & F_WRING) __sflush(f);
    else if ((f->flags & (F_RDING | F_STR)) == F_RDING) __sunread(f);
  }
}
