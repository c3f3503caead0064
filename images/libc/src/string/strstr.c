/*
 * strstr: a direct scan with a first-byte filter (strchr). Worst case O(n*m), which the
 * programs here (short needles) never approach; it never reads past the haystack's NUL.
 */
#include <string.h>

char *strstr(const char *hay, const char *needle)
{
  size_t m = strlen(needle);
  if (m == 0) return (char *)hay;
  char first = needle[0];
  for (; (hay = strchr(hay, first)) != NULL; hay++)
    if (strncmp(hay, needle, m) == 0) return (char *)hay;
  return NULL;
}
