/*
 * Wide characters (C99 7.24) in the C locale: a multibyte character is one byte and its wide
 * character is the byte's value (0-255); a wide character above 255 has no multibyte form
 * (EILSEQ). Wide streams are byte streams read and written a character per byte.
 */
#ifndef _WCHAR_H_
#define _WCHAR_H_

#include <sys/cdefs.h>
#define __need_size_t
#define __need_wchar_t
#define __need_NULL
#include <stddef.h>
#include <stdint.h>

#ifndef _WINT_T_DECLARED
#define _WINT_T_DECLARED
typedef __WINT_TYPE__ wint_t;
#endif

/* The conversion state: nothing to keep for one-byte characters. */
typedef struct {
	int	__unused_state;
} mbstate_t;

#ifndef WEOF
#define WEOF ((wint_t)-1)
#endif

typedef struct __sFILE FILE;
struct tm;

__BEGIN_DECLS
/* Strings */
size_t	 wcslen(const wchar_t *);
wchar_t	*wcscpy(wchar_t *restrict, const wchar_t *restrict);
wchar_t	*wcsncpy(wchar_t *restrict, const wchar_t *restrict, size_t);
wchar_t	*wcscat(wchar_t *restrict, const wchar_t *restrict);
wchar_t	*wcsncat(wchar_t *restrict, const wchar_t *restrict, size_t);
int	 wcscmp(const wchar_t *, const wchar_t *);
int	 wcsncmp(const wchar_t *, const wchar_t *, size_t);
int	 wcscoll(const wchar_t *, const wchar_t *);
size_t	 wcsxfrm(wchar_t *restrict, const wchar_t *restrict, size_t);
wchar_t	*wcschr(const wchar_t *, wchar_t);
wchar_t	*wcsrchr(const wchar_t *, wchar_t);
wchar_t	*wcsstr(const wchar_t *restrict, const wchar_t *restrict);
size_t	 wcsspn(const wchar_t *, const wchar_t *);
size_t	 wcscspn(const wchar_t *, const wchar_t *);
wchar_t	*wcspbrk(const wchar_t *, const wchar_t *);
wchar_t	*wcstok(wchar_t *restrict, const wchar_t *restrict, wchar_t **restrict);
wchar_t	*wcsdup(const wchar_t *);
wchar_t	*wmemchr(const wchar_t *, wchar_t, size_t);
int	 wmemcmp(const wchar_t *, const wchar_t *, size_t);
wchar_t	*wmemcpy(wchar_t *restrict, const wchar_t *restrict, size_t);
wchar_t	*wmemmove(wchar_t *, const wchar_t *, size_t);
wchar_t	*wmemset(wchar_t *, wchar_t, size_t);

/* Conversions */
wint_t	 btowc(int);
int	 wctob(wint_t);
int	 mbsinit(const mbstate_t *);
size_t	 mbrlen(const char *restrict, size_t, mbstate_t *restrict);
size_t	 mbrtowc(wchar_t *restrict, const char *restrict, size_t, mbstate_t *restrict);
size_t	 wcrtomb(char *restrict, wchar_t, mbstate_t *restrict);
size_t	 mbsrtowcs(wchar_t *restrict, const char **restrict, size_t, mbstate_t *restrict);
size_t	 wcsrtombs(char *restrict, const wchar_t **restrict, size_t, mbstate_t *restrict);
long	 wcstol(const wchar_t *restrict, wchar_t **restrict, int);
unsigned long wcstoul(const wchar_t *restrict, wchar_t **restrict, int);
long long wcstoll(const wchar_t *restrict, wchar_t **restrict, int);
unsigned long long wcstoull(const wchar_t *restrict, wchar_t **restrict, int);
double	 wcstod(const wchar_t *restrict, wchar_t **restrict);
float	 wcstof(const wchar_t *restrict, wchar_t **restrict);
long double wcstold(const wchar_t *restrict, wchar_t **restrict);
size_t	 wcsftime(wchar_t *restrict, size_t, const wchar_t *restrict, const struct tm *restrict);

/* Input and output */
wint_t	 fgetwc(FILE *);
wint_t	 getwc(FILE *);
wint_t	 getwchar(void);
wint_t	 fputwc(wchar_t, FILE *);
wint_t	 putwc(wchar_t, FILE *);
wint_t	 putwchar(wchar_t);
wint_t	 ungetwc(wint_t, FILE *);
wchar_t	*fgetws(wchar_t *restrict, int, FILE *restrict);
int	 fputws(const wchar_t *restrict, FILE *restrict);
int	 fwide(FILE *, int);
int	 fwprintf(FILE *restrict, const wchar_t *restrict, ...);
int	 swprintf(wchar_t *restrict, size_t, const wchar_t *restrict, ...);
int	 wprintf(const wchar_t *restrict, ...);
int	 vfwprintf(FILE *restrict, const wchar_t *restrict, __builtin_va_list);
int	 vswprintf(wchar_t *restrict, size_t, const wchar_t *restrict, __builtin_va_list);
int	 vwprintf(const wchar_t *restrict, __builtin_va_list);
int	 fwscanf(FILE *restrict, const wchar_t *restrict, ...);
int	 swscanf(const wchar_t *restrict, const wchar_t *restrict, ...);
int	 wscanf(const wchar_t *restrict, ...);
int	 vfwscanf(FILE *restrict, const wchar_t *restrict, __builtin_va_list);
int	 vswscanf(const wchar_t *restrict, const wchar_t *restrict, __builtin_va_list);
int	 vwscanf(const wchar_t *restrict, __builtin_va_list);
__END_DECLS

#endif /* !_WCHAR_H_ */
