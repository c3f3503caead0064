/* Character search: strchr, strrchr and their BSD names index, rindex. */
#include <string.h>
#include <strings.h>

char *strchr(const char *s, int c)
{
  char ch = (char)c;
  for (;; s++) {
    if (*s == ch) return (char *)s;
    if (*s == '\0') return NULL;
  }
}

char *strrchr(const char *s, int c)
{
  char ch = (char)c;
  const char *last = NULL;
  for (;; s++) {
    if (*s == ch) last = s;
    if (*s == '\0') return (char *)last;
  }
}

char *index(const char *s, int c)
{
  return strchr(s, c);
}

char *rindex(const char *s, int c)
{
  return strrchr(s, c);
}
