/* Positioning: fseek, fseeko, ftell, ftello, rewind, fgetpos, fsetpos. */
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include "local.h"

/* Bytes read from the descriptor but not yet consumed by the program (pushed-back ones count). */
static off_t unread(FILE *fp)
{
  if (!(fp->flags & F_RDING)) return 0;
  off_t n = fp->rend - fp->rpos;
  if (fp->flags & F_UB) n += fp->ue - fp->ur;
  return n;
}

int fseeko(FILE *fp, off_t off, int whence)
{
  if (fp->flags & F_STR) {
    errno = ESPIPE;
    return -1;
  }
  if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) {
    errno = EINVAL;
    return -1;
  }
  if ((fp->flags & F_WRING) && __sflush(fp)) return -1;
  if (whence == SEEK_CUR) off -= unread(fp);
  if (lseek(fp->fd, off, whence) < 0) return -1;
  __sdiscard(fp);
  fp->flags &= ~(F_EOF | F_WRING);
  fp->wpos = fp->wend = fp->wbase = NULL;
  return 0;
}

int fseek(FILE *fp, long off, int whence)
{
  return fseeko(fp, off, whence);
}

off_t ftello(FILE *fp)
{
  if (fp->flags & F_STR) {
    errno = ESPIPE;
    return -1;
  }
  /* In append mode the pending output goes to the end of the file, wherever the offset is. */
  if ((fp->flags & (F_WRING | F_APPEND)) == (F_WRING | F_APPEND) && __sflush(fp)) return -1;
  off_t pos = lseek(fp->fd, 0, SEEK_CUR);
  if (pos < 0) return -1;
  if (fp->flags & F_WRING) return pos + (fp->wpos - fp->wbase);
  return pos - unread(fp);
}

long ftell(FILE *fp)
{
  off_t pos = ftello(fp);
  if (pos > LONG_MAX) {
    errno = EOVERFLOW;
    return -1;
  }
  return (long)pos;
}

void rewind(FILE *fp)
{
  fseeko(fp, 0, SEEK_SET);
  fp->flags &= ~F_ERR;
}

int fgetpos(FILE *fp, fpos_t *pos)
{
  off_t p = ftello(fp);
  if (p < 0) return -1;
  *pos = p;
  return 0;
}

int fsetpos(FILE *fp, const fpos_t *pos)
{
  return fseeko(fp, *pos, SEEK_SET);
}
