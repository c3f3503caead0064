/* The environment: getenv, setenv, unsetenv, putenv over environ (set up by crt0). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* environ as this file last allocated it (NULL while it is still crt0's array). */
static char **owned;

/* The slot of variable name (len bytes) in environ, or NULL. */
static char **find(const char *name, size_t len)
{
  if (environ == NULL) return NULL;
  for (char **e = environ; *e; e++)
    if (strncmp(*e, name, len) == 0 && (*e)[len] == '=') return e;
  return NULL;
}

char *getenv(const char *name)
{
  size_t len = strcspn(name, "=");
  if (name[len]) return NULL;
  char **e = find(name, len);
  return e ? *e + len + 1 : NULL;
}

/* Appends s to environ, copying crt0's array into malloc'd memory the first time. */
static int append(char *s)
{
  size_t n = 0;
  if (environ)
    while (environ[n]) n++;
  char **ne;
  if (environ == owned && owned != NULL) {
    ne = realloc(owned, (n + 2) * sizeof *ne);
  } else {
    ne = malloc((n + 2) * sizeof *ne);
    if (ne && n) memcpy(ne, environ, n * sizeof *ne);
  }
  if (ne == NULL) return -1;
  ne[n] = s;
  ne[n + 1] = NULL;
  environ = owned = ne;
  return 0;
}

int setenv(const char *name, const char *value, int overwrite)
{
  size_t len = strlen(name);
  if (len == 0 || strchr(name, '=')) {
    errno = EINVAL;
    return -1;
  }
  char **e = find(name, len);
  if (e && !overwrite) return 0;
  size_t vlen = strlen(value);
  char *s = malloc(len + vlen + 2);
  if (s == NULL) return -1;
  memcpy(s, name, len);
  s[len] = '=';
  memcpy(s + len + 1, value, vlen + 1);
  if (e) {
    *e = s;   /* the old string may be crt0's or the caller's (putenv): it is not freed */
    return 0;
  }
  if (append(s) < 0) {
    free(s);
    return -1;
  }
  return 0;
}

int unsetenv(const char *name)
{
  size_t len = strlen(name);
  if (len == 0 || strchr(name, '=')) {
    errno = EINVAL;
    return -1;
  }
  char **e;
  while ((e = find(name, len)) != NULL)
    do e[0] = e[1]; while (*e++);
  return 0;
}

/* The string itself becomes part of the environment; "NAME" without '=' removes NAME. */
int putenv(char *string)
{
  size_t len = strcspn(string, "=");
  if (string[len] == '\0') return unsetenv(string);
  if (len == 0) {
    errno = EINVAL;
    return -1;
  }
  char **e = find(string, len);
  if (e) {
    *e = string;
    return 0;
  }
  return append(string);
}
