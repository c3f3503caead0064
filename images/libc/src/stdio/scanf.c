/* The scanf family: wrappers around the engine in vfscanf.c; strings are read through a
 * read-only string stream. */
#include <string.h>
#include "local.h"

void __sstropen(FILE *fp, const char *s, size_t n)
{
  memset(fp, 0, sizeof *fp);
  fp->fd = -1;
  fp->flags = F_READ | F_STR | F_RDING | F_MODE;
  fp->buf = fp->rpos = (unsigned char *)s;
  fp->rend = (unsigned char *)s + n;
}

int vsscanf(const char *s, const char *fmt, __builtin_va_list ap)
{
  FILE f;
  __sstropen(&f, s, strlen(s));
  return __vfscanf(&f, fmt, ap);
}

int sscanf(const char *s, const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = vsscanf(s, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}

int vfscanf(FILE *fp, const char *fmt, __builtin_va_list ap)
{
  return __vfscanf(fp, fmt, ap);
}

int fscanf(FILE *fp, const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = __vfscanf(fp, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}

int vscanf(const char *fmt, __builtin_va_list ap)
{
  return __vfscanf(stdin, fmt, ap);
}

int scanf(const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = __vfscanf(stdin, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}
