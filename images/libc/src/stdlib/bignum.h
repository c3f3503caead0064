/* Big unsigned integers for exact decimal conversion (bignum.c); private to images/libc/src. */
#ifndef _STDLIB_BIGNUM_H_
#define _STDLIB_BIGNUM_H_

#include <stdint.h>

/* The largest operand: 5^1131 * 2^32, or an 801-digit decimal integer shifted by 95 bits. */
#define BIG_LIMBS 100

struct big {
  int n;                 /* limbs in use, least significant first; v[n-1] != 0 unless n == 0 */
  uint32_t v[BIG_LIMBS];
};

void __big_muladd(struct big *a, uint32_t m, uint32_t c);   /* a = a * m + c */
void __big_mulpow5(struct big *a, int k);                   /* a *= 5^k */
void __big_shl(struct big *a, int s);                       /* a <<= s */
int __big_bits(const struct big *a);                        /* bit length (0 for 0) */
/* floor(a / b) for b != 0 and a < b * 2^64; *sticky = (a mod b != 0). Destroys a and b. */
uint64_t __big_div64(struct big *a, struct big *b, int *sticky);

/* A 64-by-32-bit division with 32-bit divides only (divlu.c): (u1 * 2^32 + u0) / v for u1 < v and
 * v with bit 31 set; the remainder goes to *rem. */
uint32_t __divlu(uint32_t u1, uint32_t u0, uint32_t v, uint32_t *rem);

#endif /* !_STDLIB_BIGNUM_H_ */
