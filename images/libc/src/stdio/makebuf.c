/* Buffer allocation and the setvbuf family. */
#include <stdlib.h>
#include <unistd.h>
#include "local.h"

/*
 * Gives fp a buffer at its first I/O. The mode, unless setvbuf chose it, is line buffering for a
 * terminal and full buffering otherwise; if malloc fails the stream becomes unbuffered. Always
 * returns 0 (a stream can always fall back to its one-byte buffer).
 */
int __smakebuf(FILE *fp)
{
  if (!(fp->flags & F_MODE)) {
    fp->flags |= F_MODE;
    if (isatty(fp->fd)) fp->flags |= F_LBF;
  }
  if (!(fp->flags & F_NBF) && fp->buf == NULL) {
    size_t size = fp->bufsize ? fp->bufsize : BUFSIZ;
    unsigned char *b = malloc(size);
    if (b) {
      fp->buf = b;
      fp->bufsize = size;
      fp->flags |= F_MYBUF;
      return 0;
    }
    fp->flags = (fp->flags & ~F_LBF) | F_NBF;
  }
  if (fp->flags & F_NBF) {
    fp->buf = fp->nbuf;
    fp->bufsize = 1;
  }
  return 0;
}

/*
 * Only valid before the first I/O on fp (C11 7.21.5.6); a later call flushes and starts over
 * with the new buffer, which is harmless. size 0 with a NULL buf keeps the default size.
 */
int setvbuf(FILE *fp, char *buf, int mode, size_t size)
{
  if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF) return EOF;
  if (fp->flags & F_WRING) __sflush(fp);
  __sdiscard(fp);
  if (fp->flags & F_MYBUF) free(fp->buf);
  fp->flags &= ~(F_MYBUF | F_LBF | F_NBF | F_RDING | F_WRING);
  fp->flags |= F_MODE;
  fp->buf = NULL;
  fp->bufsize = 0;
  if (mode == _IONBF || (buf != NULL && size == 0)) {
    fp->flags |= F_NBF;
  } else {
    if (mode == _IOLBF) fp->flags |= F_LBF;
    fp->buf = (unsigned char *)buf;
    fp->bufsize = size;
  }
  fp->rpos = fp->rend = fp->wpos = fp->wend = fp->wbase = NULL;
  return 0;
}

void setbuf(FILE *fp, char *buf)
{
  setvbuf(fp, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

void setbuffer(FILE *fp, char *buf, int size)
{
  setvbuf(fp, buf, buf ? _IOFBF : _IONBF, (size_t)size);
}

int setlinebuf(FILE *fp)
{
  return setvbuf(fp, NULL, _IOLBF, 0);
}
