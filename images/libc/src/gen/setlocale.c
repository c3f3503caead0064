/*
 * setlocale and localeconv: the C locale is the only one. setlocale accepts "C", "POSIX" and ""
 * (the environment's choice, which is always C here) for every category and answers "C"; any
 * other name fails (NULL). localeconv: C99 7.11.2.1's values for the C locale.
 */
#include <limits.h>
#include <locale.h>
#include <string.h>

char *
setlocale(int category, const char *locale)
{
	if (category < LC_ALL || category > LC_MESSAGES)
		return NULL;
	if (locale != NULL && *locale != '\0' && strcmp(locale, "C") != 0 && strcmp(locale, "POSIX") != 0)
		return NULL;
	return "C";
}

struct lconv *
localeconv(void)
{
	static struct lconv c = {
		".", "", "", "", "", "", "", "", "", "",
		CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
		CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
	};

	return &c;
}
