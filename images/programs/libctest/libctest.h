/*
 * libctest: the guest C library's self-checking test program (see main.c). Shared helpers.
 *
 * Everything here is portable C that the host's gcc and glibc also build: the golden output is
 * what the host-native build prints, and the guest builds must print exactly the same.
 */
#ifndef LIBCTEST_H
#define LIBCTEST_H

#include <stddef.h>
#include <stdint.h>

extern int verbose;     /* -v: print every hashed case instead of one line per block */
extern int failures;    /* failed self-checks */

/* A deterministic 64-bit LCG (Knuth's MMIX constants), independent of the libc's rand(). */
void rng_seed(uint64_t s);
uint64_t rng(void);
uint32_t rng_below(uint32_t n);   /* uniform enough in [0, n) */
double rng_bits_double(void);     /* any finite double, every exponent equally likely */
/* A random double with exponent in [elo, ehi] (unbiased), a random significand and (with
 * negative_too) a random sign. */
double rng_double(int elo, int ehi, int negative_too);
/* "<what> = <x>": %a when digits is 0, else that many significant digits; NaN as "nan". */
void print_double(const char *what, double x, int digits);

/*
 * Blocks of cases too many to print: each case's text goes into an FNV-1a hash and the block
 * prints its case count and hash (with -v every case is printed as well).
 */
void block_begin(const char *name);
void block_case(const char *text, size_t n);
void block_end(void);

/* Self-check: prints "FAIL: <what>" and counts a failure when ok is false. */
void check(int ok, const char *what, ...) __attribute__((format(printf, 2, 3)));

/* A double as its exact bits, "0x%016llx". */
const char *hexbits(double x, char *buf);

void test_string(void);
void test_ctype(void);
void test_stdlib(void);
void test_malloc(void);
void test_printf(void);
void test_printf_random(void);
void test_strtod(void);
void test_scanf(void);
void test_stdio(void);
void test_math(void);
void test_math99(void);
void test_time(void);
void test_getopt(void);
void test_posix(void);
void test_wide(void);
void test_complex(void);

extern int mathdump_n;   /* math-dump: arguments per function and range */
void test_mathdump(void);

#endif
