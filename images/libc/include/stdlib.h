/*
 * General utilities (C11 7.22) plus the POSIX additions programs here use.
 *
 * rand(): NOT the generator of any other C library. It is a 64-bit linear congruential generator,
 * state = state * 6364136223846793005 + 1442695040888963407 (mod 2^64, Knuth's MMIX constants),
 * returning bits 63..33 of the new state, so RAND_MAX is 0x7fffffff and the low bits are as good as
 * the high ones. srand(s) sets the state to s; before any srand() the state is 1, as srand(1)
 * would set it. Sequences are identical on every target.
 *
 * random(): 4.2BSD's additive generator seeded as glibc seeds it, so that srandom(s) gives
 * glibc's sequence; the drand48 family: the 48-bit generator of SVID and POSIX.
 */
#ifndef _STDLIB_H_
#define _STDLIB_H_

#include <sys/cdefs.h>
#define __need_size_t
#define __need_wchar_t
#define __need_NULL
#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 0x7fffffff
#define MB_CUR_MAX 1

typedef struct { int quot, rem; } div_t;
typedef struct { long quot, rem; } ldiv_t;
typedef struct { long long quot, rem; } lldiv_t;

__BEGIN_DECLS
void *malloc(size_t n);
void *calloc(size_t count, size_t n);
void *realloc(void *p, size_t n);
void *reallocarray(void *p, size_t count, size_t n);
void free(void *p);

int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
double atof(const char *s);
long strtol(const char *restrict s, char **restrict end, int base);
unsigned long strtoul(const char *restrict s, char **restrict end, int base);
long long strtoll(const char *restrict s, char **restrict end, int base);
unsigned long long strtoull(const char *restrict s, char **restrict end, int base);
double strtod(const char *restrict s, char **restrict end);
float strtof(const char *restrict s, char **restrict end);
long double strtold(const char *restrict s, char **restrict end);

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

int abs(int i) __pure2;
long labs(long i) __pure2;
long long llabs(long long i) __pure2;
div_t div(int num, int den) __pure2;
ldiv_t ldiv(long num, long den) __pure2;
lldiv_t lldiv(long long num, long long den) __pure2;

int mblen(const char *s, size_t n);
int mbtowc(wchar_t *restrict pwc, const char *restrict s, size_t n);
int wctomb(char *s, wchar_t wc);
size_t mbstowcs(wchar_t *restrict pwcs, const char *restrict s, size_t n);
size_t wcstombs(char *restrict s, const wchar_t *restrict pwcs, size_t n);

int rand(void);
void srand(unsigned seed);
long random(void);
void srandom(unsigned seed);
char *initstate(unsigned seed, char *state, size_t n);
char *setstate(char *state);
double drand48(void);
double erand48(unsigned short xsubi[3]);
long lrand48(void);
long nrand48(unsigned short xsubi[3]);
long mrand48(void);
long jrand48(unsigned short xsubi[3]);
void srand48(long seed);
unsigned short *seed48(unsigned short seed16v[3]);
void lcong48(unsigned short param[7]);

void exit(int status) __dead2;
void _Exit(int status) __dead2;
void abort(void) __dead2;
int atexit(void (*fn)(void));

char *getenv(const char *name);
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);
int putenv(char *string);
int system(const char *command);
char *realpath(const char *restrict path, char *restrict resolved);
int mkstemp(char *template);
char *mkdtemp(char *template);
__END_DECLS

#endif /* !_STDLIB_H_ */
