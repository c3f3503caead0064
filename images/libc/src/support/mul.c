/*
 * 64-bit multiplication, low 64 bits of the product (libgcc's __muldi3). The 32 x 32 -> 64
 * product of the low words is the hardware's widening multiply (MIPS multu, SPARC v8 umul); the
 * cross products only reach the high word.
 */
#include "dword.h"

int64_t __muldi3(int64_t a, int64_t b);

int64_t
__muldi3(int64_t a, int64_t b)
{
	uint32_t al = dw_lo(a), ah = dw_hi(a), bl = dw_lo(b), bh = dw_hi(b);
	uint64_t ll = (uint64_t)al * bl;

	return (int64_t)dw_make(dw_hi(ll) + al * bh + ah * bl, dw_lo(ll));
}
