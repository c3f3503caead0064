/*
 * Character classification (C11 7.4), "C" locale only, table driven.
 *
 * The table covers -128..255 so that a plain (signed) char with the high bit set classifies like
 * the corresponding unsigned char (as nothing, in the C locale) instead of reading outside it.
 */
#ifndef _CTYPE_H_
#define _CTYPE_H_

#include <sys/cdefs.h>

#define _CTYPE_U 0x01  /* upper case letter */
#define _CTYPE_L 0x02  /* lower case letter */
#define _CTYPE_D 0x04  /* decimal digit */
#define _CTYPE_S 0x08  /* white space: space \t \n \v \f \r */
#define _CTYPE_P 0x10  /* punctuation */
#define _CTYPE_C 0x20  /* control */
#define _CTYPE_X 0x40  /* hexadecimal digit */
#define _CTYPE_B 0x80  /* blank: space, \t */
#define _CTYPE_SP 0x100 /* the space character (printable, not graphic) */

__BEGIN_DECLS
/* Entry c + 128 describes c, for c in -128..255 (EOF is -1 and has no class). */
extern const unsigned short __ctype_tab[384];
extern const short __ctype_lower[384];
extern const short __ctype_upper[384];

int isalnum(int c);
int isalpha(int c);
int isblank(int c);
int iscntrl(int c);
int isdigit(int c);
int isgraph(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int isspace(int c);
int isupper(int c);
int isxdigit(int c);
int isascii(int c);
int toascii(int c);
int tolower(int c);
int toupper(int c);
__END_DECLS

#define __ctype_is(c, m) ((int)(__ctype_tab[(int)(c) + 128] & (m)))
#define isalnum(c) __ctype_is(c, _CTYPE_U | _CTYPE_L | _CTYPE_D)
#define isalpha(c) __ctype_is(c, _CTYPE_U | _CTYPE_L)
#define isblank(c) __ctype_is(c, _CTYPE_B)
#define iscntrl(c) __ctype_is(c, _CTYPE_C)
#define isdigit(c) __ctype_is(c, _CTYPE_D)
#define isgraph(c) __ctype_is(c, _CTYPE_U | _CTYPE_L | _CTYPE_D | _CTYPE_P)
#define islower(c) __ctype_is(c, _CTYPE_L)
#define isprint(c) __ctype_is(c, _CTYPE_U | _CTYPE_L | _CTYPE_D | _CTYPE_P | _CTYPE_SP)
#define ispunct(c) __ctype_is(c, _CTYPE_P)
#define isspace(c) __ctype_is(c, _CTYPE_S)
#define isupper(c) __ctype_is(c, _CTYPE_U)
#define isxdigit(c) __ctype_is(c, _CTYPE_X)
#define isascii(c) (((c) & ~0x7f) == 0)
#define toascii(c) ((c) & 0x7f)
#define tolower(c) ((int)__ctype_lower[(int)(c) + 128])
#define toupper(c) ((int)__ctype_upper[(int)(c) + 128])

#endif /* !_CTYPE_H_ */
