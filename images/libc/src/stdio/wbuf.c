/* Output: switching a stream to writing, flushing, putc's slow path, fwrite. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "local.h"

/* write(2) until all n bytes are out; the count written (short only on error, F_ERR set). */
static size_t writeall(FILE *fp, const unsigned char *p, size_t n)
{
  size_t done = 0;
  while (done < n) {
    ssize_t k = write(fp->fd, p + done, n - done);
    if (k < 0) {
      if (errno == EINTR) continue;
      fp->flags |= F_ERR;
      break;
    }
    done += (size_t)k;
  }
  return done;
}

int __swsetup(FILE *fp)
{
  if (!(fp->flags & F_WRITE) || (fp->flags & F_STR)) {
    fp->flags |= F_ERR;
    errno = EBADF;
    return EOF;
  }
  if (fp->flags & F_RDING) {
    /* Reading then writing without a seek (undefined in C): write where the reader stood. */
    off_t pending = (fp->rend - fp->rpos) + ((fp->flags & F_UB) ? fp->ue - fp->ur : 0);
    if (pending > 0) lseek(fp->fd, -pending, SEEK_CUR);
    __sdiscard(fp);
  }
  if (fp->buf == NULL) __smakebuf(fp);
  fp->flags |= F_WRING;
  fp->rpos = fp->rend = NULL;
  fp->wbase = fp->wpos = fp->buf;
  fp->wend = (fp->flags & F_NBF) ? fp->buf : fp->buf + fp->bufsize;
  return 0;
}

int __sflush(FILE *fp)
{
  if (!(fp->flags & F_WRING)) return 0;
  size_t n = (size_t)(fp->wpos - fp->wbase);
  size_t done = writeall(fp, fp->wbase, n);
  fp->wpos = fp->wbase;
  return done == n ? 0 : EOF;
}

int __swbuf(int c, FILE *fp)
{
  unsigned char b = (unsigned char)c;
  if (!(fp->flags & F_WRING) && __swsetup(fp)) return EOF;
  if (fp->flags & F_NBF) return writeall(fp, &b, 1) == 1 ? b : EOF;
  if (fp->wpos >= fp->wend && __sflush(fp)) return EOF;
  *fp->wpos++ = b;
  if ((fp->flags & F_LBF) && b == '\n' && __sflush(fp)) return EOF;
  return b;
}

size_t __sfwrite(const void *p, size_t n, FILE *fp)
{
  const unsigned char *s = p;
  if (n == 0) return 0;
  if (!(fp->flags & F_WRING) && __swsetup(fp)) return 0;
  if (fp->flags & F_NBF) return writeall(fp, s, n);
  size_t left = n;
  while (left) {
    size_t room = (size_t)(fp->wend - fp->wpos);
    if (left <= room) {
      memcpy(fp->wpos, s, left);
      fp->wpos += left;
      left = 0;
      break;
    }
    if (fp->wpos == fp->wbase && left >= fp->bufsize) {
      /* Nothing buffered and more than a buffer to write: skip the copy. */
      size_t k = writeall(fp, s, left);
      return n - left + k;
    }
    memcpy(fp->wpos, s, room);
    fp->wpos += room;
    s += room;
    left -= room;
    if (__sflush(fp)) return n - left - room;
  }
  if ((fp->flags & F_LBF) && memchr(p, '\n', n) && __sflush(fp)) return 0;
  return n;
}

size_t fwrite(const void *ptr, size_t size, size_t n, FILE *fp)
{
  if (size == 0 || n == 0) return 0;
  if (n > (size_t)-1 / size) {
    fp->flags |= F_ERR;
    errno = EOVERFLOW;
    return 0;
  }
  return __sfwrite(ptr, size * n, fp) / size;
}

int fputc(int c, FILE *fp)
{
  return __sputc(c, fp);
}

int putc(int c, FILE *fp)
{
  return __sputc(c, fp);
}

int putchar(int c)
{
  return __sputc(c, stdout);
}
