/* strdup and strndup: copies in memory from malloc (NULL with errno ENOMEM when it fails). */
#include <stdlib.h>
#include <string.h>

char *strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t n)
{
  size_t len = strnlen(s, n);
  char *d = malloc(len + 1);
  if (d == NULL) return NULL;
  memcpy(d, s, len);
  d[len] = '\0';
  return d;
}
