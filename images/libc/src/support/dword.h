/*
 * The halves of a 64-bit integer, for the compiler-support routines. Everything in this directory
 * works on 32-bit halves only: a 64-bit operator here would make gcc call the very routine it
 * is compiling (and these targets have no 64-bit instructions to fall back on).
 */
#ifndef _SUPPORT_DWORD_H_
#define _SUPPORT_DWORD_H_

#include <stdint.h>

typedef union {
	int64_t		s;
	uint64_t	u;
	double		d;
	struct {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		uint32_t hi, lo;
#else
		uint32_t lo, hi;
#endif
	} w;
} dword;

static inline uint64_t
dw_make(uint32_t hi, uint32_t lo)
{
	dword r;

	r.w.hi = hi;
	r.w.lo = lo;
	return r.u;
}

static inline uint32_t
dw_hi(uint64_t x)
{
	dword r;

	r.u = x;
	return r.w.hi;
}

static inline uint32_t
dw_lo(uint64_t x)
{
	dword r;

	r.u = x;
	return r.w.lo;
}

#endif /* !_SUPPORT_DWORD_H_ */
