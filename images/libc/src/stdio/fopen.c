/* Opening and closing streams: fopen, fdopen, freopen, fclose, tmpfile, remove. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "local.h"

/*
 * Parses an fopen mode ("r", "w", "a", each optionally followed by "+", "b" and "x" in any
 * order): returns the F_* flags and sets *oflags to the open(2) flags, or returns 0 (errno
 * EINVAL) for a bad mode.
 */
int __sflags(const char *mode, int *oflags)
{
  int f, o;
  switch (*mode++) {
  case 'r': f = F_READ; o = O_RDONLY; break;
  case 'w': f = F_WRITE; o = O_WRONLY | O_CREAT | O_TRUNC; break;
  case 'a': f = F_WRITE | F_APPEND; o = O_WRONLY | O_CREAT | O_APPEND; break;
  default: errno = EINVAL; return 0;
  }
  for (; *mode; mode++) {
    if (*mode == '+') {
      f |= F_READ | F_WRITE;
      o = (o & ~O_ACCMODE) | O_RDWR;
    } else if (*mode == 'x') {
      o |= O_EXCL;
    } else if (*mode != 'b') {
      break;   /* C11 leaves other characters to the implementation: ignored like glibc */
    }
  }
  *oflags = o;
  return f;
}

static FILE *newfile(int fd, int flags)
{
  FILE *fp = malloc(sizeof *fp);
  if (fp == NULL) return NULL;
  memset(fp, 0, sizeof *fp);
  fp->fd = fd;
  fp->flags = flags | F_ALLOC;
  __slink(fp);
  return fp;
}

FILE *fopen(const char *path, const char *mode)
{
  int o, f = __sflags(mode, &o);
  if (f == 0) return NULL;
  int fd = open(path, o, 0666);
  if (fd < 0) return NULL;
  FILE *fp = newfile(fd, f);
  if (fp == NULL) close(fd);
  return fp;
}

FILE *fdopen(int fd, const char *mode)
{
  int o, f = __sflags(mode, &o);
  if (f == 0) return NULL;
  return newfile(fd, f);
}

/* Flushes, closes the descriptor and releases the buffer; keeps fp's memory and list link. */
static int closefile(FILE *fp)
{
  int rc = 0;
  if (fp->flags & F_WRING) rc = __sflush(fp);
  else if ((fp->flags & (F_RDING | F_STR)) == F_RDING) __sunread(fp);   /* POSIX fclose */
  if (!(fp->flags & F_STR) && close(fp->fd) < 0) rc = EOF;
  if (fp->flags & F_MYBUF) free(fp->buf);
  fp->buf = NULL;
  fp->bufsize = 0;
  fp->rpos = fp->rend = fp->wpos = fp->wend = fp->wbase = NULL;
  return rc;
}

int fclose(FILE *fp)
{
  int rc = closefile(fp);
  __sunlink(fp);
  if (fp->flags & F_ALLOC) free(fp);
  else fp->flags = 0;   /* a standard stream: closed, every operation now fails */
  return rc;
}

FILE *freopen(const char *path, const char *mode, FILE *fp)
{
  int o, f = __sflags(mode, &o);
  if (f == 0 || path == NULL) {
    /* Changing the mode of the open descriptor in place is not supported. */
    if (f) errno = EINVAL;
    fclose(fp);
    return NULL;
  }
  int keep = fp->flags & F_ALLOC;
  closefile(fp);
  int fd = open(path, o, 0666);
  if (fd < 0) {
    __sunlink(fp);
    if (keep) free(fp);
    else fp->flags = 0;
    return NULL;
  }
  fp->fd = fd;
  fp->flags = f | keep;
  return fp;
}

/* A stream on a new file that is already unlinked: it disappears when closed. */
FILE *tmpfile(void)
{
  static unsigned counter;
  char path[48];
  for (int tries = 0; tries < 100; tries++) {
    snprintf(path, sizeof path, "/tmp/tmpfile.%d.%u", (int)getpid(), counter++);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0) {
      unlink(path);
      FILE *fp = newfile(fd, F_READ | F_WRITE);
      if (fp == NULL) close(fd);
      return fp;
    }
    if (errno != EEXIST) return NULL;
  }
  return NULL;
}

int remove(const char *path)
{
  if (unlink(path) == 0) return 0;
  if (errno == EISDIR || errno == EPERM) return rmdir(path);
  return -1;
}
