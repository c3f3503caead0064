/*
 * arith64: the 64-bit, bit-counting and complex operations gcc lowers to compiler-support
 * routines on the 32-bit guests (__udivdi3 ... __floatundisf, __clzsi2 ..., __ffssi2 ...,
 * __mulsc3 ...; images/libc/src/support), run over every pair of a set of edge values and over pseudo-random operands, with a checksum of the
 * results per operation. A host-native build computes the same checksums with 64-bit hardware,
 * so the golden output is the host's: any wrong result on a guest changes its line.
 *
 * Usage: arith64 [N]   N pseudo-random operand pairs per operation (default 100000).
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>

/*
 * gcc inlines some of these operations on some targets (MIPS: 64-bit shifts, multiply, compare,
 * negate), so the guests also call each routine by name; the host computes the same values with
 * its operators.
 */
#if defined(__mips__) || defined(__sparc__)
int64_t __muldi3(int64_t, int64_t);
int __cmpdi2(int64_t, int64_t);
int __ucmpdi2(uint64_t, uint64_t);
int64_t __negdi2(int64_t);
int64_t __ashldi3(int64_t, int);
int64_t __ashrdi3(int64_t, int);
uint64_t __lshrdi3(uint64_t, int);
#define CALL_MUL(a, b)	(uint64_t)__muldi3((int64_t)(a), (int64_t)(b))
#define CALL_CMP(a, b)	__cmpdi2((a), (b))
#define CALL_UCMP(a, b)	__ucmpdi2((a), (b))
#define CALL_NEG(a)	(uint64_t)__negdi2(a)
#define CALL_SHL(a, s)	(uint64_t)__ashldi3((int64_t)(a), (s))
#define CALL_ASHR(a, s)	(uint64_t)__ashrdi3((a), (s))
#define CALL_LSHR(a, s)	__lshrdi3((a), (s))
#else
#define CALL_MUL(a, b)	((a) * (b))
#define CALL_CMP(a, b)	((a) < (b) ? 0 : (a) == (b) ? 1 : 2)
#define CALL_UCMP(a, b)	((a) < (b) ? 0 : (a) == (b) ? 1 : 2)
#define CALL_NEG(a)	(uint64_t)-(a)
#define CALL_SHL(a, s)	((a) << (s))
#define CALL_ASHR(a, s)	(uint64_t)((a) >> (s))
#define CALL_LSHR(a, s)	((a) >> (s))
#endif

/* Sink for every result; noinline and volatile keep gcc from folding the operations away. */
static volatile uint64_t sink_v;

struct sum {
	const char *name;
	uint64_t h;
	unsigned long n;
};

enum {
	UDIV, UMOD, SDIV, SMOD, MUL, SHL, ASHR, LSHR, SCMP, UCMP, NEG,
	FIXDF, FIXUNSDF, FIXSF, FIXUNSSF, FLOATDF, FLOATUNDF, FLOATSF, FLOATUNSF,
	CLZ, CTZ, POPCOUNT, CLZLL, CTZLL, POPCOUNTLL, BSWAP32, BSWAP64,
	C_MUL, C_CMP, C_UCMP, C_NEG, C_SHL, C_ASHR, C_LSHR,
	FFS, FFSLL, CLRSB, CLRSBLL, PARITY, PARITYLL, CMULS, CMULD, CDIVS, CDIVD, NOPS
};

static struct sum sums[NOPS] = {
	{ "udivdi3" }, { "umoddi3" }, { "divdi3" }, { "moddi3" }, { "muldi3" },
	{ "ashldi3" }, { "ashrdi3" }, { "lshrdi3" }, { "cmpdi2" }, { "ucmpdi2" }, { "negdi2" },
	{ "fixdfdi" }, { "fixunsdfdi" }, { "fixsfdi" }, { "fixunssfdi" },
	{ "floatdidf" }, { "floatundidf" }, { "floatdisf" }, { "floatundisf" },
	{ "clzsi2" }, { "ctzsi2" }, { "popcountsi2" }, { "clzdi2" }, { "ctzdi2" }, { "popcountdi2" },
	{ "bswapsi2" }, { "bswapdi2" },
	{ "muldi3()" }, { "cmpdi2()" }, { "ucmpdi2()" }, { "negdi2()" },
	{ "ashldi3()" }, { "ashrdi3()" }, { "lshrdi3()" },
	{ "ffssi2" }, { "ffsdi2" }, { "clrsbsi2" }, { "clrsbdi2" }, { "paritysi2" }, { "paritydi2" },
	{ "mulsc3" }, { "muldc3" }, { "divsc3" }, { "divdc3" },
};

/* FNV-1a over the 8 bytes of each result, most significant first. */
static void
mix(int op, uint64_t v)
{
	int i;

	for (i = 56; i >= 0; i -= 8) {
		sums[op].h ^= (v >> i) & 0xff;
		sums[op].h *= 0x100000001b3ULL;
	}
	sums[op].n++;
	sink_v = v;
}

static uint64_t
dbits(double d)
{
	union { double d; uint64_t u; } x;

	x.d = d;
	return x.u;
}

/* The bits of a complex result's part, NaNs as one pattern (MIPS I's default NaN is not x86's). */
static uint64_t
cdbits(double d)
{
	return d != d ? 0x7ff8000000000000ULL : dbits(d);
}

static uint32_t
fbits(float f)
{
	union { float f; uint32_t u; } x;

	x.f = f;
	return x.u;
}

#define TWO63	9223372036854775808.0
#define TWO64	18446744073709551616.0

static void
pair(uint64_t a, uint64_t b)
{
	volatile uint64_t va = a, vb = b;
	volatile int64_t sa = (int64_t)a, sb = (int64_t)b;
	volatile int s = (int)(b & 63);

	if (vb != 0) {
		mix(UDIV, va / vb);
		mix(UMOD, va % vb);
		if (!(sa == INT64_MIN && sb == -1)) {
			mix(SDIV, (uint64_t)(sa / sb));
			mix(SMOD, (uint64_t)(sa % sb));
		}
	}
	mix(MUL, va * vb);
	mix(SHL, va << s);
	mix(ASHR, (uint64_t)(sa >> s));
	mix(LSHR, va >> s);
	mix(SCMP, (uint64_t)((sa < sb) * 4 + (sa == sb) * 2 + (sa > sb)));
	mix(UCMP, (uint64_t)((va < vb) * 4 + (va == vb) * 2 + (va > vb)));
	mix(C_MUL, CALL_MUL(va, vb));
	mix(C_CMP, (uint64_t)CALL_CMP(sa, sb));
	mix(C_UCMP, (uint64_t)CALL_UCMP(va, vb));
	mix(C_SHL, CALL_SHL(va, s));
	mix(C_ASHR, CALL_ASHR(sa, s));
	mix(C_LSHR, CALL_LSHR(va, s));
}

static void
single(uint64_t a)
{
	volatile uint64_t va = a;
	volatile int64_t sa = (int64_t)a;
	volatile uint32_t w = (uint32_t)a;
	volatile double d;
	volatile float f;

	mix(NEG, (uint64_t)-sa);
	mix(C_NEG, CALL_NEG(sa));
	mix(FLOATDF, dbits((double)sa));
	mix(FLOATUNDF, dbits((double)va));
	mix(FLOATSF, fbits((float)sa));
	mix(FLOATUNSF, fbits((float)va));
	if (w != 0) {
		mix(CLZ, (uint64_t)__builtin_clz(w));
		mix(CTZ, (uint64_t)__builtin_ctz(w));
	}
	mix(POPCOUNT, (uint64_t)__builtin_popcount(w));
	if (va != 0) {
		mix(CLZLL, (uint64_t)__builtin_clzll(va));
		mix(CTZLL, (uint64_t)__builtin_ctzll(va));
	}
	mix(POPCOUNTLL, (uint64_t)__builtin_popcountll(va));
	mix(BSWAP32, __builtin_bswap32(w));
	mix(BSWAP64, __builtin_bswap64(va));
	mix(FFS, (uint64_t)__builtin_ffs((int)w));
	mix(FFSLL, (uint64_t)__builtin_ffsll((long long)va));
	mix(CLRSB, (uint64_t)__builtin_clrsb((int)w));
	mix(CLRSBLL, (uint64_t)__builtin_clrsbll((long long)va));
	mix(PARITY, (uint64_t)__builtin_parity(w));
	mix(PARITYLL, (uint64_t)__builtin_parityll(va));

	/* Floating values derived from a, scaled to several magnitudes, inside each range. */
	{
		static const double scale[] = { 1.0, 0.5, 0.75, 1.0 / 3.0, 1e-3, 1e-9, 3e-17 };
		unsigned i;

		for (i = 0; i < sizeof scale / sizeof scale[0]; i++) {
			d = (double)sa * scale[i];
			if (d > -TWO63 && d < TWO63)
				mix(FIXDF, (uint64_t)(int64_t)d);
			d = (double)va * scale[i];
			if (d < TWO64)
				mix(FIXUNSDF, (uint64_t)d);
			f = (float)((double)sa * scale[i]);
			if (f > -(float)TWO63 && f < (float)TWO63)
				mix(FIXSF, (uint64_t)(int64_t)f);
			f = (float)((double)va * scale[i]);
			if (f < (float)TWO64)
				mix(FIXUNSSF, (uint64_t)f);
		}
	}
}

/*
 * Complex multiplication and division (__mulsc3 ... __divdc3): operands whose results are exact in
 * binary, and the infinite, zero and NaN operands of C11 Annex G (an infinity times or over a
 * finite number, a number over zero or over an infinity), each with every sign.
 */
static void
complex_cases(void)
{
	static const double v[][4] = {
		{ 1, 2, 3, 4 }, { 10, 5, 1, 2 }, { -3, 0.5, 0.25, -2 }, { 0, 1, 0, 1 }, { 6, -8, 3, 4 },
		{ 1e300, 1e300, 1e10, 1e10 }, { 1, 1, 0, 0 }, { 1, 1, 1e-300, 0 },
	};
	const double inf = __builtin_inf(), nan = __builtin_nan("");
	double ops[][4] = {
		{ inf, 1, 1, 1 }, { 1, inf, 2, -1 }, { inf, nan, 1, 1 }, { nan, inf, -1, 2 }, { 1, 1, inf, 0 },
		{ 2, -3, 0, inf }, { 1, 1, nan, inf }, { nan, nan, 1, 1 }, { 1, 2, 0, 0 }, { 0, 0, 0, 0 },
		{ inf, inf, 1, 0 }, { 1e308, 1e308, 1e308, 1e308 },
	};
	unsigned i, k, sgn;

	for (i = 0; i < sizeof v / sizeof v[0] + sizeof ops / sizeof ops[0]; i++) {
		const double *o = i < sizeof v / sizeof v[0] ? v[i] : ops[i - sizeof v / sizeof v[0]];

		for (sgn = 0; sgn < 16; sgn++) {
			double p[4];
			volatile double _Complex x, y, r;
			volatile float _Complex xf, yf, rf;

			for (k = 0; k < 4; k++)
				p[k] = sgn >> k & 1 ? -o[k] : o[k];
			x = __builtin_complex(p[0], p[1]);
			y = __builtin_complex(p[2], p[3]);
			xf = __builtin_complex((float)p[0], (float)p[1]);
			yf = __builtin_complex((float)p[2], (float)p[3]);
			r = x * y;
			mix(CMULD, cdbits(__real__ r) ^ cdbits(__imag__ r) << 1);
			r = x / y;
			mix(CDIVD, cdbits(__real__ r) ^ cdbits(__imag__ r) << 1);
			rf = xf * yf;
			mix(CMULS, cdbits(__real__ rf) ^ cdbits(__imag__ rf) << 1);
			rf = xf / yf;
			mix(CDIVS, cdbits(__real__ rf) ^ cdbits(__imag__ rf) << 1);
		}
	}
}

/* xorshift64*, in 64-bit arithmetic: itself a user of the support routines. */
static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dULL;
}

int
main(int argc, char **argv)
{
	uint64_t edge[2 * (4 + 62 * 3 + 1)];
	unsigned ne = 0, i, j;
	long n = argc > 1 ? atol(argv[1]) : 100000, k;
	uint64_t a, b;
	int op;

	/* 0..3, each power of two, one less and one more, and the negations of all of them. */
	for (i = 0; i < 4; i++)
		edge[ne++] = i;
	for (i = 2; i < 64; i++) {
		edge[ne++] = (uint64_t)1 << i;
		edge[ne++] = ((uint64_t)1 << i) - 1;
		edge[ne++] = ((uint64_t)1 << i) + 1;
	}
	edge[ne++] = UINT64_MAX;
	for (i = 0, j = ne; i < j; i++)
		edge[ne++] = -edge[i];
	for (i = 0; i < ne; i++) {
		single(edge[i]);
		for (j = 0; j < ne; j++)
			pair(edge[i], edge[j]);
	}
	for (k = 0; k < n; k++) {
		/* Random widths: the shift leaves 1..64 significant bits. */
		a = next() >> (next() & 63);
		b = next() >> (next() & 63);
		single(a);
		pair(a, b);
	}
	complex_cases();
	printf("%u edge values, %ld random pairs\n", ne, n);
	for (op = 0; op < NOPS; op++)
		printf("%-12s %016llx over %lu results\n", sums[op].name, (unsigned long long)sums[op].h, sums[op].n);
	return 0;
}
