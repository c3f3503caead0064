/*
 * The "C" locale character classes (C11 7.4) as tables indexed by c + 128, c in -128..255.
 * Bytes 128..255 (and their signed-char aliases -128..-1 other than EOF) are in no class.
 */
#include <ctype.h>

#define I(c) ((c) + 128)
#define U _CTYPE_U
#define L _CTYPE_L
#define D _CTYPE_D
#define S _CTYPE_S
#define P _CTYPE_P
#define C _CTYPE_C
#define X _CTYPE_X
#define B _CTYPE_B

const unsigned short __ctype_tab[384] = {
  [I(0x00) ... I(0x08)] = C,
  [I('\t')] = C | S | B,
  [I('\n') ... I('\r')] = C | S,
  [I(0x0e) ... I(0x1f)] = C,
  [I(' ')] = S | B | _CTYPE_SP,
  [I('!') ... I('/')] = P,
  [I('0') ... I('9')] = D | X,
  [I(':') ... I('@')] = P,
  [I('A') ... I('F')] = U | X,
  [I('G') ... I('Z')] = U,
  [I('[') ... I('`')] = P,
  [I('a') ... I('f')] = L | X,
  [I('g') ... I('z')] = L,
  [I('{') ... I('~')] = P,
  [I(0x7f)] = C,
};

/* tolower/toupper map every value to itself except the ASCII letters, which the designated
 * initialisers after IDENTITY override on purpose. */
#pragma GCC diagnostic ignored "-Woverride-init"
#define SAME8(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7
#define SAME64(b) SAME8(b), SAME8(b + 8), SAME8(b + 16), SAME8(b + 24), SAME8(b + 32), SAME8(b + 40), SAME8(b + 48), SAME8(b + 56)
#define IDENTITY SAME64(-128), SAME64(-64), SAME64(0), SAME64(64), SAME64(128), SAME64(192)

const short __ctype_lower[384] = {
  IDENTITY,
  [I('A')] = 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm',
  'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z',
};

const short __ctype_upper[384] = {
  IDENTITY,
  [I('a')] = 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M',
  'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z',
};

/* The function forms: each undefines its macro so the name refers to the function. */
#undef isalnum
#undef isalpha
#undef isblank
#undef iscntrl
#undef isdigit
#undef isgraph
#undef islower
#undef isprint
#undef ispunct
#undef isspace
#undef isupper
#undef isxdigit
#undef isascii
#undef toascii
#undef tolower
#undef toupper

int isalnum(int c) { return __ctype_is(c, U | L | D); }
int isalpha(int c) { return __ctype_is(c, U | L); }
int isblank(int c) { return __ctype_is(c, B); }
int iscntrl(int c) { return __ctype_is(c, C); }
int isdigit(int c) { return __ctype_is(c, D); }
int isgraph(int c) { return __ctype_is(c, U | L | D | P); }
int islower(int c) { return __ctype_is(c, L); }
int isprint(int c) { return __ctype_is(c, U | L | D | P | _CTYPE_SP); }
int ispunct(int c) { return __ctype_is(c, P); }
int isspace(int c) { return __ctype_is(c, S); }
int isupper(int c) { return __ctype_is(c, U); }
int isxdigit(int c) { return __ctype_is(c, X); }
int isascii(int c) { return (c & ~0x7f) == 0; }
int toascii(int c) { return c & 0x7f; }
int tolower(int c) { return __ctype_lower[c + 128]; }
int toupper(int c) { return __ctype_upper[c + 128]; }
