/* Input: __srefill (getc's slow path), getc and friends, ungetc. */
#include <unistd.h>
#include "local.h"

void __sdiscard(FILE *fp)
{
  fp->flags &= ~(F_UB | F_RDING);
  fp->rpos = fp->rend = fp->buf;
}

/*
 * Makes at least one byte available at rpos, or returns EOF with the end-of-file or error
 * indicator set. The end-of-file indicator is sticky (C11 7.21.7.1): a stream at end of file
 * reads nothing more until clearerr, fseek or ungetc.
 */
int __srefill(FILE *fp)
{
  if (fp->flags & F_UB) {
    fp->flags &= ~F_UB;
    fp->rpos = fp->ur;
    fp->rend = fp->ue;
    if (fp->rpos < fp->rend) return 0;
  }
  if (!(fp->flags & F_READ) || (fp->flags & (F_EOF | F_STR))) {
    if (fp->flags & F_STR) fp->flags |= F_EOF;
    if (!(fp->flags & F_READ)) fp->flags |= F_ERR;
    return EOF;
  }
  if (fp->flags & F_WRING) {
    if (__sflush(fp)) return EOF;
    fp->flags &= ~F_WRING;
    fp->wpos = fp->wend = fp->wbase = NULL;
  }
  if (fp->buf == NULL) __smakebuf(fp);
  /* C11 7.21.3: input from an unbuffered or line-buffered stream flushes line-buffered output
   * first (a prompt on stdout appears before the program waits for the answer). */
  if (fp->flags & (F_LBF | F_NBF))
    for (FILE *f = __sfirst; f; f = f->next)
      if ((f->flags & (F_LBF | F_WRING)) == (F_LBF | F_WRING)) __sflush(f);
  fp->flags |= F_RDING;
  ssize_t n = read(fp->fd, fp->buf, fp->bufsize);
  fp->rpos = fp->buf;
  if (n <= 0) {
    fp->rend = fp->buf;
    fp->flags |= n == 0 ? F_EOF : F_ERR;
    return EOF;
  }
  fp->rend = fp->buf + n;
  return 0;
}

int fgetc(FILE *fp)
{
  return __sgetc(fp);
}

int getc(FILE *fp)
{
  return __sgetc(fp);
}

int getchar(void)
{
  return __sgetc(stdin);
}

int ungetc(int c, FILE *fp)
{
  if (c == EOF || !(fp->flags & F_READ)) return EOF;
  if (fp->flags & F_WRING) {
    if (__sflush(fp)) return EOF;
    fp->flags &= ~F_WRING;
    fp->wpos = fp->wend = fp->wbase = NULL;
    fp->rpos = fp->rend = fp->buf;
  }
  unsigned char b = (unsigned char)c;
  fp->flags = (fp->flags & ~F_EOF) | F_RDING;
  if (fp->flags & F_UB) {
    if (fp->rpos == fp->ub) return EOF;
    *--fp->rpos = b;
    return b;
  }
  if (fp->rpos != NULL && fp->rpos > fp->buf && fp->rpos[-1] == b) {
    fp->rpos--;   /* the byte just read: no store, so string streams stay untouched */
    return b;
  }
  fp->ur = fp->rpos;
  fp->ue = fp->rend;
  fp->flags |= F_UB;
  fp->rpos = fp->ub + UB_SIZE - 1;
  fp->rend = fp->ub + UB_SIZE;
  *fp->rpos = b;
  return b;
}
