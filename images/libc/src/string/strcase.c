/* Case-insensitive comparison in the C locale: strcasecmp, strncasecmp. */
#include <ctype.h>
#include <strings.h>

int strcasecmp(const char *a, const char *b)
{
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  int d;
  while ((d = tolower(*p) - tolower(*q)) == 0 && *p) p++, q++;
  return d;
}

int strncasecmp(const char *a, const char *b, size_t n)
{
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  for (; n; n--, p++, q++) {
    int d = tolower(*p) - tolower(*q);
    if (d || *p == '\0') return d;
  }
  return 0;
}
