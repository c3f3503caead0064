/*
 * 64-bit division and remainder (libgcc's __udivdi3, __umoddi3, __divdi3, __moddi3). When both
 * operands fit in 32 bits the hardware divide does it; otherwise a restoring shift-and-subtract
 * division on 32-bit halves, starting at the dividend's highest bit that can matter. Division by
 * zero divides by zero in 32 bits, which traps (MIPS break 7 via gcc's check, SPARC udiv's
 * division_by_zero), as the 64-bit operation should.
 */
#include "dword.h"

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);

static int
clz32(uint32_t x)
{
	int n = 0;

	if (x == 0)
		return 32;
	if ((x & 0xffff0000u) == 0) { n += 16; x <<= 16; }
	if ((x & 0xff000000u) == 0) { n += 8; x <<= 8; }
	if ((x & 0xf0000000u) == 0) { n += 4; x <<= 4; }
	if ((x & 0xc0000000u) == 0) { n += 2; x <<= 2; }
	if ((x & 0x80000000u) == 0) n += 1;
	return n;
}

static int
clz64(uint32_t hi, uint32_t lo)
{
	return hi ? clz32(hi) : 32 + clz32(lo);
}

uint64_t
__udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint32_t nh = dw_hi(n), nl = dw_lo(n), dh = dw_hi(d), dl = dw_lo(d);
	uint32_t qh = 0, ql = 0, rh = 0, rl = 0;
	int i;

	if (nh == 0 && dh == 0) {
		/* dl == 0 divides by zero here, in 32 bits: the trap the caller asked for. */
		ql = nl / dl;
		if (rem)
			*rem = dw_make(0, nl - ql * dl);
		return dw_make(0, ql);
	}
	if (dh == 0 && dl == 0) {
		/* 64-bit dividend, zero divisor: trap likewise (volatile: gcc must not fold it). */
		volatile uint32_t zero = dl;

		ql = nl / zero;
	}
	/* Bits of n above position 63 - clz(n) are zero; start there. */
	for (i = 63 - clz64(nh, nl); i >= 0; i--) {
		uint32_t bit = i >= 32 ? nh >> (i - 32) & 1 : nl >> i & 1;

		/* r = r << 1 | bit */
		rh = rh << 1 | rl >> 31;
		rl = rl << 1 | bit;
		/* if (r >= d) { r -= d; q |= 1 << i; } */
		if (rh > dh || (rh == dh && rl >= dl)) {
			rh = rh - dh - (rl < dl);
			rl = rl - dl;
			if (i >= 32)
				qh |= 1u << (i - 32);
			else
				ql |= 1u << i;
		}
	}
	if (rem)
		*rem = dw_make(rh, rl);
	return dw_make(qh, ql);
}

uint64_t
__udivdi3(uint64_t n, uint64_t d)
{
	return __udivmoddi4(n, d, 0);
}

uint64_t
__umoddi3(uint64_t n, uint64_t d)
{
	uint64_t r;

	__udivmoddi4(n, d, &r);
	return r;
}

/* |x| as unsigned, without a 64-bit negation operator. */
static uint64_t
uabs(int64_t x)
{
	uint32_t hi = dw_hi(x), lo = dw_lo(x);

	if ((int32_t)hi >= 0)
		return (uint64_t)x;
	lo = -lo;
	hi = ~hi + (lo == 0);
	return dw_make(hi, lo);
}

static int64_t
negate(uint64_t x)
{
	uint32_t lo = -dw_lo(x), hi = ~dw_hi(x) + (lo == 0);

	return (int64_t)dw_make(hi, lo);
}

/* Quotient truncated toward zero: negative when exactly one operand is. */
int64_t
__divdi3(int64_t n, int64_t d)
{
	int neg = ((int32_t)dw_hi(n) < 0) != ((int32_t)dw_hi(d) < 0);
	uint64_t q = __udivmoddi4(uabs(n), uabs(d), 0);

	return neg ? negate(q) : (int64_t)q;
}

/* Remainder with the sign of the dividend. */
int64_t
__moddi3(int64_t n, int64_t d)
{
	uint64_t r;

	__udivmoddi4(uabs(n), uabs(d), &r);
	return (int32_t)dw_hi(n) < 0 ? negate(r) : (int64_t)r;
}
