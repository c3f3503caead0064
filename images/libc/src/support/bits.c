/*
 * Bit counting and byte swapping (libgcc's __clzsi2, __ctzsi2, __popcountsi2, __ffssi2,
 * __clrsbsi2, __paritysi2, their 64-bit forms, __bswapsi2, __bswapdi2). Neither MIPS I nor
 * SPARC v8 has an instruction for these.
 * Written with tests and shifts that gcc does not recognise as the builtin it would lower to a
 * call of the very routine (checked in the disassembly by test/images/support.test.ts).
 * clz and ctz of 0 are undefined for gcc's builtins; these return the word width.
 */
#include "dword.h"

int __clzsi2(uint32_t a);
int __ctzsi2(uint32_t a);
int __popcountsi2(uint32_t a);
int __clzdi2(uint64_t a);
int __ctzdi2(uint64_t a);
int __popcountdi2(uint64_t a);
uint32_t __bswapsi2(uint32_t a);
uint64_t __bswapdi2(uint64_t a);
int __ffssi2(uint32_t a);
int __ffsdi2(uint64_t a);
int __clrsbsi2(int32_t a);
int __clrsbdi2(int64_t a);
int __paritysi2(uint32_t a);
int __paritydi2(uint64_t a);

int
__clzsi2(uint32_t x)
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

int
__ctzsi2(uint32_t x)
{
	int n = 0;

	if (x == 0)
		return 32;
	if ((x & 0x0000ffffu) == 0) { n += 16; x >>= 16; }
	if ((x & 0x000000ffu) == 0) { n += 8; x >>= 8; }
	if ((x & 0x0000000fu) == 0) { n += 4; x >>= 4; }
	if ((x & 0x00000003u) == 0) { n += 2; x >>= 2; }
	if ((x & 0x00000001u) == 0) n += 1;
	return n;
}

/* Counts through a 16-entry table of nibble populations. */
static const unsigned char nibble_pop[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

int
__popcountsi2(uint32_t x)
{
	return nibble_pop[x & 15] + nibble_pop[x >> 4 & 15] + nibble_pop[x >> 8 & 15] +
	    nibble_pop[x >> 12 & 15] + nibble_pop[x >> 16 & 15] + nibble_pop[x >> 20 & 15] +
	    nibble_pop[x >> 24 & 15] + nibble_pop[x >> 28];
}

int
__clzdi2(uint64_t a)
{
	uint32_t hi = dw_hi(a);

	return hi ? __clzsi2(hi) : 32 + __clzsi2(dw_lo(a));
}

int
__ctzdi2(uint64_t a)
{
	uint32_t lo = dw_lo(a);

	return lo ? __ctzsi2(lo) : 32 + __ctzsi2(dw_hi(a));
}

int
__popcountdi2(uint64_t a)
{
	return __popcountsi2(dw_hi(a)) + __popcountsi2(dw_lo(a));
}

uint32_t
__bswapsi2(uint32_t x)
{
	return (x & 0xff) << 24 | (x & 0xff00) << 8 | (x >> 8 & 0xff00) | x >> 24;
}

uint64_t
__bswapdi2(uint64_t a)
{
	return dw_make(__bswapsi2(dw_lo(a)), __bswapsi2(dw_hi(a)));
}

/* ffs: 1 + the index of the lowest set bit, 0 for 0. */
int
__ffssi2(uint32_t x)
{
	return x ? __ctzsi2(x) + 1 : 0;
}

int
__ffsdi2(uint64_t a)
{
	uint32_t lo = dw_lo(a), hi = dw_hi(a);

	return lo ? __ctzsi2(lo) + 1 : hi ? __ctzsi2(hi) + 33 : 0;
}

/* clrsb: how many bits below the sign bit equal it (31 for 0 and -1). */
int
__clrsbsi2(int32_t x)
{
	uint32_t u = (uint32_t)x;

	return __clzsi2(x < 0 ? ~u : u) - 1;
}

int
__clrsbdi2(int64_t a)
{
	uint32_t hi = dw_hi((uint64_t)a), lo = dw_lo((uint64_t)a);

	if (hi & 0x80000000u) {
		hi = ~hi;
		lo = ~lo;
	}
	return (hi ? __clzsi2(hi) : 32 + __clzsi2(lo)) - 1;
}

/* parity: the xor of all bits, folded to a nibble that indexes the 16-bit parity table 0x6996. */
int
__paritysi2(uint32_t x)
{
	x ^= x >> 16;
	x ^= x >> 8;
	x ^= x >> 4;
	return 0x6996 >> (x & 15) & 1;
}

int
__paritydi2(uint64_t a)
{
	return __paritysi2(dw_hi(a) ^ dw_lo(a));
}
