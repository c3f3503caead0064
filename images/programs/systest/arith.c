/*
 * systest: 64-bit arithmetic that gcc lowers to the compiler-support routines on 32-bit targets,
 * checked by identities (the exact values against the host are the arith64 program's job).
 */
#include <stdint.h>
#include "systest.h"

static uint32_t seed = 12345;

static uint32_t
rand32(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

/* Random 64-bit values with a random number of significant bits, so every size is covered. */
static int64_t
rand64(void)
{
	uint64_t v = (uint64_t)rand32() << 32 | rand32();
	unsigned bits = rand32() % 64 + 1;

	v &= bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
	return rand32() & 1 ? -(int64_t)(v >> 1) : (int64_t)v;
}

void
t_arith(void)
{
	int i, s, divok = 1, shok = 1, mulok = 1, cvtok = 1, cmpok = 1;
	volatile int64_t a, b;		/* volatile: no constant folding of the operations */
	int64_t q, r;
	uint64_t ua, ub, uq, ur;
	volatile int sh;

	outf("== 64-bit arithmetic\n");
	for (i = 0; i < 20000; i++) {
		a = rand64();
		b = rand64();
		if (b != 0 && !(a == INT64_MIN && b == -1)) {
			q = a / b;
			r = a % b;
			divok &= q * b + r == a && (r == 0 || (r < 0) == (a < 0)) &&
			    (r < 0 ? -r : r) < (b < 0 ? -(uint64_t)b : (uint64_t)b);
			ua = (uint64_t)a;
			ub = (uint64_t)b;
			uq = ua / ub;
			ur = ua % ub;
			divok &= uq * ub + ur == ua && ur < ub;
		}
		mulok &= (a * b) == (b * a) && a * (b + 1) == a * b + a;
		sh = rand32() % 64;
		ua = (uint64_t)a;
		shok &= ((ua << sh) >> sh) == (ua & (~(uint64_t)0 >> sh)) &&
		    (a >> sh) == (a < 0 ? ~(~a >> sh) : (int64_t)(ua >> sh));
		s = (a < b) + 2 * (a == b) + 4 * (a > b);
		cmpok &= s == 1 || s == 2 || s == 4;
		cmpok &= ((uint64_t)a < (uint64_t)b) == !((uint64_t)a >= (uint64_t)b);
		if (a > -((int64_t)1 << 53) && a < ((int64_t)1 << 53))
			cvtok &= (int64_t)(double)a == a && (uint64_t)(double)(ua >> 11) == ua >> 11;
		cvtok &= (int64_t)(float)(a >> 40) == a >> 40;
	}
	check("division: q * b + r == a, |r| < |b|, r has a's sign", divok, 0);
	check("multiplication commutes and distributes", mulok, 0);
	check("shifts by 0..63 agree with masks and sign", shok, 0);
	check("comparisons are a total order", cmpok, 0);
	check("integer <-> floating conversions are exact where they must be", cvtok, 0);
}
