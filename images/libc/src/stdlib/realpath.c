/*
 * realpath (POSIX.1-2008): the absolute path of a file with no ".", ".." or symbolic link in it.
 * Every component must exist (ENOENT, ENOTDIR as lookups fail); more than 32 links: ELOOP. With
 * a NULL buffer the result is malloc'ed.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *realpath(const char *restrict path, char *restrict resolved)
{
  char out[PATH_MAX], rest[PATH_MAX], link[PATH_MAX];
  size_t olen = 0;
  int links = 0;
  if (path == NULL) {
    errno = EINVAL;
    return NULL;
  }
  if (*path == '\0') {
    errno = ENOENT;
    return NULL;
  }
  if (strlen(path) >= sizeof rest) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  strcpy(rest, path);
  if (rest[0] != '/') {
    if (getcwd(out, sizeof out) == NULL) return NULL;
    olen = strlen(out);
    if (olen == 1) olen = 0;   /* "/": components append "/name" */
  }
  /* rest holds what is still to resolve; out (olen bytes, no trailing slash) what is done. */
  char *p = rest;
  while (*p) {
    while (*p == '/') p++;
    if (*p == '\0') break;
    char *c = p;
    while (*p && *p != '/') p++;
    size_t n = (size_t)(p - c);
    if (n == 1 && c[0] == '.') continue;
    if (n == 2 && c[0] == '.' && c[1] == '.') {
      while (olen > 0 && out[olen - 1] != '/') olen--;
      if (olen > 0) olen--;
      continue;
    }
    if (olen + 1 + n >= sizeof out) {
      errno = ENAMETOOLONG;
      return NULL;
    }
    size_t before = olen;
    out[olen++] = '/';
    memcpy(out + olen, c, n);
    olen += n;
    out[olen] = '\0';
    struct stat sb;
    if (lstat(out, &sb) < 0) return NULL;
    if (S_ISLNK(sb.st_mode)) {
      if (++links > 32) {
        errno = ELOOP;
        return NULL;
      }
      ssize_t k = readlink(out, link, sizeof link - 1);
      if (k < 0) return NULL;
      link[k] = '\0';
      /* The link's target, then what followed the link, become the rest to resolve. */
      if ((size_t)k + strlen(p) + 2 > sizeof rest) {
        errno = ENAMETOOLONG;
        return NULL;
      }
      memmove(rest + k + 1, p, strlen(p) + 1);
      memcpy(rest, link, (size_t)k);
      rest[k] = '/';
      p = rest;
      olen = link[0] == '/' ? 0 : before;
    } else if (*p && !S_ISDIR(sb.st_mode)) {
      errno = ENOTDIR;
      return NULL;
    }
  }
  if (olen == 0) out[olen++] = '/';
  out[olen] = '\0';
  if (resolved == NULL) return strdup(out);
  memcpy(resolved, out, olen + 1);
  return resolved;
}
