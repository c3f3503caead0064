/* Stream status: feof, ferror, clearerr, fileno; and perror. */
#include <errno.h>
#include <string.h>
#include "local.h"

int feof(FILE *fp)
{
  return (fp->flags & F_EOF) != 0;
}

int ferror(FILE *fp)
{
  return (fp->flags & F_ERR) != 0;
}

void clearerr(FILE *fp)
{
  fp->flags &= ~(F_EOF | F_ERR);
}

int fileno(FILE *fp)
{
  if (fp->flags & F_STR) {
    errno = EBADF;
    return -1;
  }
  return fp->fd;
}

/* "s: message\n" on stderr (just "message\n" when s is NULL or empty), as one write. */
void perror(const char *s)
{
  const char *msg = strerror(errno);
  if (s && *s) fprintf(stderr, "%s: %s\n", s, msg);
  else fprintf(stderr, "%s\n", msg);
}
