/* 64-bit shifts by a count of 0..63 (libgcc's __ashldi3, __ashrdi3, __lshrdi3). */
#include "dword.h"

int64_t __ashldi3(int64_t a, int b);
int64_t __ashrdi3(int64_t a, int b);
uint64_t __lshrdi3(uint64_t a, int b);

int64_t
__ashldi3(int64_t a, int b)
{
	uint32_t hi = dw_hi(a), lo = dw_lo(a);

	if (b == 0)
		return a;
	if (b >= 32)
		return (int64_t)dw_make(lo << (b - 32), 0);
	return (int64_t)dw_make(hi << b | lo >> (32 - b), lo << b);
}

int64_t
__ashrdi3(int64_t a, int b)
{
	int32_t hi = (int32_t)dw_hi(a);
	uint32_t lo = dw_lo(a);

	if (b == 0)
		return a;
	if (b >= 32)
		return (int64_t)dw_make((uint32_t)(hi >> 31), (uint32_t)(hi >> (b - 32)));
	return (int64_t)dw_make((uint32_t)(hi >> b), (uint32_t)hi << (32 - b) | lo >> b);
}

uint64_t
__lshrdi3(uint64_t a, int b)
{
	uint32_t hi = dw_hi(a), lo = dw_lo(a);

	if (b == 0)
		return a;
	if (b >= 32)
		return dw_make(0, hi >> (b - 32));
	return dw_make(hi >> b, hi << (32 - b) | lo >> b);
}
