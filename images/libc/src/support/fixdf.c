/*
 * Floating point to 64-bit integer, truncating toward zero (libgcc's __fixdfdi, __fixunsdfdi,
 * __fixsfdi, __fixunssfdi). The integer is taken in two 32-bit parts: a / 2^32 and the
 * a - hi * 2^32 that remains are both exact in double precision, and each fits a 32-bit
 * conversion. Out of range values saturate (NaN gives 0); C leaves them undefined.
 */
#include "dword.h"

int64_t __fixdfdi(double a);
uint64_t __fixunsdfdi(double a);
int64_t __fixsfdi(float a);
uint64_t __fixunssfdi(float a);

#define TWO32	4294967296.0
#define TWO63	9223372036854775808.0
#define TWO64	18446744073709551616.0

/* 0 <= a < 2^64 */
static uint64_t
fixuns(double a)
{
	uint32_t hi = (uint32_t)(a / TWO32);
	uint32_t lo = (uint32_t)(a - (double)hi * TWO32);

	return dw_make(hi, lo);
}

uint64_t
__fixunsdfdi(double a)
{
	if (!(a > 0))		/* also NaN */
		return 0;
	if (a >= TWO64)
		return dw_make(0xffffffffu, 0xffffffffu);
	return fixuns(a);
}

int64_t
__fixdfdi(double a)
{
	uint64_t u;
	uint32_t lo;

	if (a != a)
		return 0;
	if (a >= TWO63)
		return (int64_t)dw_make(0x7fffffffu, 0xffffffffu);
	if (a <= -TWO63)
		return (int64_t)dw_make(0x80000000u, 0);
	if (a >= 0)
		return (int64_t)fixuns(a);
	u = fixuns(-a);
	lo = -dw_lo(u);
	return (int64_t)dw_make(~dw_hi(u) + (lo == 0), lo);
}

/* float -> double is exact, so the double routines give the float results. */
int64_t
__fixsfdi(float a)
{
	return __fixdfdi((double)a);
}

uint64_t
__fixunssfdi(float a)
{
	return __fixunsdfdi((double)a);
}
