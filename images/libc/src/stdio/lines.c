/* Line and string I/O: fgets, fputs, puts, getdelim, getline. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "local.h"

char *fgets(char *s, int n, FILE *fp)
{
  if (n <= 0) return NULL;
  char *d = s;
  size_t left = (size_t)n - 1;
  while (left) {
    if (fp->rpos == NULL || fp->rpos >= fp->rend) {
      if (__srefill(fp)) {
        if (d == s || (fp->flags & F_ERR)) return NULL;
        break;
      }
    }
    size_t avail = (size_t)(fp->rend - fp->rpos);
    if (avail > left) avail = left;
    unsigned char *nl = memchr(fp->rpos, '\n', avail);
    size_t k = nl ? (size_t)(nl - fp->rpos) + 1 : avail;
    memcpy(d, fp->rpos, k);
    fp->rpos += k;
    d += k;
    left -= k;
    if (nl) break;
  }
  *d = '\0';
  return s;
}

int fputs(const char *s, FILE *fp)
{
  size_t n = strlen(s);
  return __sfwrite(s, n, fp) == n ? 0 : EOF;
}

int puts(const char *s)
{
  size_t n = strlen(s);
  if (__sfwrite(s, n, stdout) != n) return EOF;
  return __sputc('\n', stdout) == EOF ? EOF : 0;
}

ssize_t getdelim(char **linep, size_t *cap, int delim, FILE *fp)
{
  if (linep == NULL || cap == NULL) {
    errno = EINVAL;
    return -1;
  }
  size_t len = 0;
  for (;;) {
    if (fp->rpos == NULL || fp->rpos >= fp->rend) {
      if (__srefill(fp)) {
        if (len == 0 || (fp->flags & F_ERR)) return -1;
        break;
      }
    }
    size_t avail = (size_t)(fp->rend - fp->rpos);
    unsigned char *hit = memchr(fp->rpos, delim, avail);
    size_t k = hit ? (size_t)(hit - fp->rpos) + 1 : avail;
    if (len + k + 1 > *cap || *linep == NULL) {
      size_t ncap = *cap ? *cap : 120;
      while (ncap < len + k + 1) ncap *= 2;
      char *nl = realloc(*linep, ncap);
      if (nl == NULL) {
        fp->flags |= F_ERR;
        return -1;
      }
      *linep = nl;
      *cap = ncap;
    }
    memcpy(*linep + len, fp->rpos, k);
    fp->rpos += k;
    len += k;
    if (hit) break;
  }
  (*linep)[len] = '\0';
  return (ssize_t)len;
}

ssize_t getline(char **linep, size_t *cap, FILE *fp)
{
  return getdelim(linep, cap, '\n', fp);
}
