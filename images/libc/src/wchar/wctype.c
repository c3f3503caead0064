/* Wide character classes and case mappings (C99 7.25), C locale: as <ctype.h> below 256. */
#include <ctype.h>
#include <string.h>
#include <wctype.h>

#define BYTE(c, f) ((c) < 256 ? f((int)(c)) : 0)

int iswalnum(wint_t c) { return BYTE(c, isalnum); }
int iswalpha(wint_t c) { return BYTE(c, isalpha); }
int iswblank(wint_t c) { return BYTE(c, isblank); }
int iswcntrl(wint_t c) { return BYTE(c, iscntrl); }
int iswdigit(wint_t c) { return BYTE(c, isdigit); }
int iswgraph(wint_t c) { return BYTE(c, isgraph); }
int iswlower(wint_t c) { return BYTE(c, islower); }
int iswprint(wint_t c) { return BYTE(c, isprint); }
int iswpunct(wint_t c) { return BYTE(c, ispunct); }
int iswspace(wint_t c) { return BYTE(c, isspace); }
int iswupper(wint_t c) { return BYTE(c, isupper); }
int iswxdigit(wint_t c) { return BYTE(c, isxdigit); }

wint_t towlower(wint_t c) { return c < 256 ? (wint_t)tolower((int)c) : c; }
wint_t towupper(wint_t c) { return c < 256 ? (wint_t)toupper((int)c) : c; }

static const char *const classes[] = { "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print",
                                       "punct", "space", "upper", "xdigit" };
static int (*const tests[])(wint_t) = { iswalnum, iswalpha, iswblank, iswcntrl, iswdigit, iswgraph, iswlower,
                                        iswprint, iswpunct, iswspace, iswupper, iswxdigit };

/* A class is its position in classes[] plus one; 0 is no class. */
wctype_t wctype(const char *name)
{
  for (int i = 0; i < 12; i++)
    if (strcmp(name, classes[i]) == 0) return i + 1;
  return 0;
}

int iswctype(wint_t c, wctype_t t)
{
  return t >= 1 && t <= 12 ? tests[t - 1](c) != 0 : 0;
}

/* Mappings: 1 tolower, 2 toupper; 0 is none. */
wctrans_t wctrans(const char *name)
{
  return strcmp(name, "tolower") == 0 ? 1 : strcmp(name, "toupper") == 0 ? 2 : 0;
}

wint_t towctrans(wint_t c, wctrans_t t)
{
  return t == 1 ? towlower(c) : t == 2 ? towupper(c) : c;
}
