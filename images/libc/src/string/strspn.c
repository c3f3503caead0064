/* Span and token functions over byte sets: strspn, strcspn, strpbrk, strtok, strtok_r, strsep. */
#include <string.h>

/* A 256-bit membership set of the bytes of s (the NUL is never a member). */
struct byteset {
  unsigned w[8];
};

static void setof(struct byteset *set, const char *s)
{
  for (int i = 0; i < 8; i++) set->w[i] = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) set->w[*p >> 5] |= 1u << (*p & 31);
}

static int in(const struct byteset *set, unsigned char c)
{
  return (set->w[c >> 5] >> (c & 31)) & 1;
}

size_t strspn(const char *s, const char *accept)
{
  struct byteset set;
  setof(&set, accept);
  const unsigned char *p = (const unsigned char *)s;
  while (*p && in(&set, *p)) p++;
  return (size_t)(p - (const unsigned char *)s);
}

size_t strcspn(const char *s, const char *reject)
{
  struct byteset set;
  setof(&set, reject);
  const unsigned char *p = (const unsigned char *)s;
  while (*p && !in(&set, *p)) p++;
  return (size_t)(p - (const unsigned char *)s);
}

char *strpbrk(const char *s, const char *accept)
{
  s += strcspn(s, accept);
  return *s ? (char *)s : NULL;
}

char *strtok_r(char *restrict s, const char *restrict sep, char **restrict last)
{
  if (s == NULL && (s = *last) == NULL) return NULL;
  s += strspn(s, sep);
  if (*s == '\0') {
    *last = NULL;
    return NULL;
  }
  char *end = s + strcspn(s, sep);
  if (*end) {
    *end = '\0';
    *last = end + 1;
  } else {
    *last = NULL;
  }
  return s;
}

char *strtok(char *restrict s, const char *restrict sep)
{
  static char *last;
  return strtok_r(s, sep, &last);
}

/* BSD: empty fields are returned (unlike strtok); *sp becomes NULL after the last field. */
char *strsep(char **sp, const char *sep)
{
  char *s = *sp;
  if (s == NULL) return NULL;
  char *end = s + strcspn(s, sep);
  if (*end) {
    *end = '\0';
    *sp = end + 1;
  } else {
    *sp = NULL;
  }
  return s;
}
