/*
 * 64-bit integer to floating point, rounding to nearest even (libgcc's __floatdidf,
 * __floatundidf, __floatdisf, __floatundisf).
 *
 * To double: hi * 2^32 and lo are each exact doubles, so their sum is rounded once, correctly.
 * To float: going through double would round twice. A value below 2^53 converts to double
 * exactly, leaving one rounding; a larger one first loses its low 11 bits into a sticky bit
 * (x >> 11, or-ed with 1 if any of them was set): that keeps every bit the rounding to 24 bits
 * can look at, and the result is x' * 2^11 rounded once.
 */
#include "dword.h"

double __floatdidf(int64_t a);
double __floatundidf(uint64_t a);
float __floatdisf(int64_t a);
float __floatundisf(uint64_t a);

#define TWO32	4294967296.0
#define TWO11	2048.0

double
__floatundidf(uint64_t a)
{
	return (double)dw_hi(a) * TWO32 + (double)dw_lo(a);
}

double
__floatdidf(int64_t a)
{
	return (double)(int32_t)dw_hi(a) * TWO32 + (double)dw_lo(a);
}

/* Rounds a (< 2^64) to float once. */
static float
ufloat(uint32_t hi, uint32_t lo)
{
	if (hi >= (1u << 21)) {	/* a >= 2^53 */
		uint32_t sticky = (lo & 0x7ff) != 0;

		lo = (lo >> 11 | hi << 21) | sticky;
		hi >>= 11;
		return (float)(((double)hi * TWO32 + (double)lo) * TWO11);
	}
	return (float)((double)hi * TWO32 + (double)lo);
}

float
__floatundisf(uint64_t a)
{
	return ufloat(dw_hi(a), dw_lo(a));
}

float
__floatdisf(int64_t a)
{
	uint32_t hi = dw_hi(a), lo = dw_lo(a);

	if ((int32_t)hi >= 0)
		return ufloat(hi, lo);
	lo = -lo;
	hi = ~hi + (lo == 0);
	return -ufloat(hi, lo);
}
