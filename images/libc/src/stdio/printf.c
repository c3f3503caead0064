/* The printf family: thin wrappers around the engine in vfprintf.c. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "printf.h"

int __vprintf_out(struct pout *o, const char *fmt, __builtin_va_list ap);

int vfprintf(FILE *fp, const char *fmt, __builtin_va_list ap)
{
  return __vfprintf(fp, fmt, ap);
}

int vprintf(const char *fmt, __builtin_va_list ap)
{
  return __vfprintf(stdout, fmt, ap);
}

int fprintf(FILE *fp, const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = __vfprintf(fp, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}

int printf(const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = __vfprintf(stdout, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}

/* At most n - 1 characters and a NUL go to s; returns the length the whole output would have. */
int vsnprintf(char *s, size_t n, const char *fmt, __builtin_va_list ap)
{
  struct pout o = { NULL, s, n ? n - 1 : 0, 0, NULL, 0, 0 };
  int rc = __vprintf_out(&o, fmt, ap);
  if (n) s[o.used] = '\0';
  return rc;
}

int snprintf(char *s, size_t n, const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = vsnprintf(s, n, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}

int vsprintf(char *s, const char *fmt, __builtin_va_list ap)
{
  return vsnprintf(s, INT_MAX, fmt, ap);
}

int sprintf(char *s, const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = vsnprintf(s, INT_MAX, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}

/* Formats into memory from malloc, sized by a first counting pass. */
int vasprintf(char **sp, const char *fmt, __builtin_va_list ap)
{
  __builtin_va_list ap2;
  __builtin_va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  __builtin_va_end(ap2);
  *sp = NULL;
  if (n < 0) return -1;
  char *s = malloc((size_t)n + 1);
  if (s == NULL) return -1;
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  *sp = s;
  return n;
}

int asprintf(char **sp, const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = vasprintf(sp, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}

/* Straight to a descriptor through a small buffer, written out whenever it fills. */
int vdprintf(int fd, const char *fmt, __builtin_va_list ap)
{
  char buf[256];
  FILE f = { 0 };
  f.fd = fd;
  f.flags = F_WRITE | F_NBF | F_MODE;
  f.buf = f.nbuf;
  f.bufsize = 1;
  __swsetup(&f);
  struct pout o = { NULL, buf, sizeof buf, 0, &f, 0, 0 };
  int rc = __vprintf_out(&o, fmt, ap);
  if (o.used && __sfwrite(buf, o.used, &f) != o.used) rc = -1;
  return rc;
}

int dprintf(int fd, const char *fmt, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int rc = vdprintf(fd, fmt, ap);
  __builtin_va_end(ap);
  return rc;
}
