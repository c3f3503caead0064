/* fread: from the buffer, then straight into the caller's memory for whole buffers. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "local.h"

size_t fread(void *ptr, size_t size, size_t n, FILE *fp)
{
  if (size == 0 || n == 0) return 0;
  if (n > (size_t)-1 / size) {
    fp->flags |= F_ERR;
    errno = EOVERFLOW;
    return 0;
  }
  size_t total = size * n, left = total;
  unsigned char *d = ptr;
  while (left) {
    size_t avail = (size_t)(fp->rend - fp->rpos);
    if (fp->rpos != NULL && avail) {
      size_t k = avail < left ? avail : left;
      memcpy(d, fp->rpos, k);
      fp->rpos += k;
      d += k;
      left -= k;
      continue;
    }
    if ((fp->flags & (F_RDING | F_UB | F_STR | F_EOF)) == F_RDING && fp->buf && left >= fp->bufsize) {
      /* Buffer empty and more than a buffer wanted: read directly. */
      ssize_t k = read(fp->fd, d, left);
      if (k <= 0) {
        fp->flags |= k == 0 ? F_EOF : F_ERR;
        break;
      }
      d += k;
      left -= (size_t)k;
      continue;
    }
    if (__srefill(fp)) break;
  }
  return (total - left) / size;
}
