/* 64-bit comparison and negation (libgcc's __cmpdi2, __ucmpdi2: 0 if a < b, 1 if equal, 2 if a > b). */
#include "dword.h"

int __cmpdi2(int64_t a, int64_t b);
int __ucmpdi2(uint64_t a, uint64_t b);
int64_t __negdi2(int64_t a);

int
__cmpdi2(int64_t a, int64_t b)
{
	int32_t ah = (int32_t)dw_hi(a), bh = (int32_t)dw_hi(b);
	uint32_t al = dw_lo(a), bl = dw_lo(b);

	if (ah != bh)
		return ah < bh ? 0 : 2;
	if (al != bl)
		return al < bl ? 0 : 2;
	return 1;
}

int
__ucmpdi2(uint64_t a, uint64_t b)
{
	uint32_t ah = dw_hi(a), bh = dw_hi(b), al = dw_lo(a), bl = dw_lo(b);

	if (ah != bh)
		return ah < bh ? 0 : 2;
	if (al != bl)
		return al < bl ? 0 : 2;
	return 1;
}

/* Two's complement: invert and add one, carrying into the high word when the low word is 0. */
int64_t
__negdi2(int64_t a)
{
	uint32_t lo = -dw_lo(a), hi = ~dw_hi(a) + (lo == 0);

	return (int64_t)dw_make(hi, lo);
}
