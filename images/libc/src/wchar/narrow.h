/* Wide strings to bytes for the wide functions built on the byte ones (private to src/wchar). */
#ifndef _WCHAR_NARROW_H_
#define _WCHAR_NARROW_H_

#include <stddef.h>

/*
 * The bytes of s (C locale), in buf when they fit in n bytes with the NUL, else malloc'ed (the
 * caller frees the result when it is not buf). A wide character above 255 becomes `bad` (and
 * *nbad counts them when nbad is not NULL). NULL when memory runs out.
 */
char *__narrow(const wchar_t *s, char *buf, size_t n, char bad, int *nbad);

#endif
