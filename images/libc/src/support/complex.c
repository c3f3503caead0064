/*
 * Complex multiplication and division (libgcc's __muldc3, __divdc3, __mulsc3, __divsc3), which
 * gcc calls for the * and / of complex operands: the textbook formulas, then, when both parts
 * come out NaN, the recovery of infinite results that C99 Annex G asks for (G.5.1: an infinite
 * operand times a nonzero one is infinite; a finite one divided by an infinite one is zero,
 * divided by zero infinite). Division scales the divisor by a power of two first, so that
 * c^2 + d^2 neither overflows nor underflows. Self-contained: no libm call (the runtime's test
 * keeps these routines calling nothing outside them).
 */
#include "dword.h"

double _Complex __muldc3(double a, double b, double c, double d);
double _Complex __divdc3(double a, double b, double c, double d);
float _Complex __mulsc3(float a, float b, float c, float d);
float _Complex __divsc3(float a, float b, float c, float d);

#define INF	__builtin_inf()

static int isnan_d(double x) { return x != x; }
static int isinf_d(double x) { return x - x != x - x && x == x; }
static int isfinite_d(double x) { return x - x == x - x; }

/* copysign of a 1 (x infinite) or 0 (otherwise), keeping x's sign: "box" an infinity. */
static double box(double x)
{
	return __builtin_copysign(isinf_d(x) ? 1.0 : 0.0, x);
}

/* x's sign on 0 when x is NaN, else x. */
static double unnan(double x)
{
	return isnan_d(x) ? __builtin_copysign(0.0, x) : x;
}

/* The unbiased exponent of |x| for a finite nonzero x (subnormals included); 9999 otherwise. */
static int exponent(double x)
{
	union { double d; uint64_t u; } v = { x };
	int be = (int)((v.u >> 52) & 0x7ff);
	if (be == 0x7ff || x == 0)
		return 9999;
	if (be == 0) {
		v.d = x * 0x1p64;
		return (int)((v.u >> 52) & 0x7ff) - 1023 - 64;
	}
	return be - 1023;
}

/* x * 2^k by repeated exact steps of at most 2^±1000. */
static double scale(double x, int k)
{
	while (k > 1000) {
		x *= 0x1p1000;
		k -= 1000;
	}
	while (k < -1000) {
		x *= 0x1p-1000;
		k += 1000;
	}
	union { double d; uint64_t u; } p = { .u = (uint64_t)(k + 1023) << 52 };
	return x * p.d;
}

static double _Complex make(double x, double y)
{
	double _Complex z;

	__real__ z = x;
	__imag__ z = y;
	return z;
}

double _Complex
__muldc3(double a, double b, double c, double d)
{
	double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
	double x = ac - bd, y = ad + bc;

	if (isnan_d(x) && isnan_d(y)) {
		int recalc = 0;

		if (isinf_d(a) || isinf_d(b)) {
			a = box(a);
			b = box(b);
			c = unnan(c);
			d = unnan(d);
			recalc = 1;
		}
		if (isinf_d(c) || isinf_d(d)) {
			c = box(c);
			d = box(d);
			a = unnan(a);
			b = unnan(b);
			recalc = 1;
		}
		if (!recalc && (isinf_d(ac) || isinf_d(bd) || isinf_d(ad) || isinf_d(bc))) {
			a = unnan(a);
			b = unnan(b);
			c = unnan(c);
			d = unnan(d);
			recalc = 1;
		}
		if (recalc) {
			x = INF * (a * c - b * d);
			y = INF * (a * d + b * c);
		}
	}
	return make(x, y);
}

double _Complex
__divdc3(double a, double b, double c, double d)
{
	double ac = c < 0 ? -c : c, ad = d < 0 ? -d : d;
	int k = exponent(ac > ad ? ac : ad);
	int finite = k != 9999;
	double x, y, denom;

	if (finite) {
		c = scale(c, -k);
		d = scale(d, -k);
	}
	denom = c * c + d * d;
	x = (a * c + b * d) / denom;
	y = (b * c - a * d) / denom;
	if (finite) {
		x = scale(x, -k);
		y = scale(y, -k);
	}
	if (isnan_d(x) && isnan_d(y)) {
		if (denom == 0 && (!isnan_d(a) || !isnan_d(b))) {
			x = __builtin_copysign(INF, c) * a;
			y = __builtin_copysign(INF, c) * b;
		} else if ((isinf_d(a) || isinf_d(b)) && isfinite_d(c) && isfinite_d(d)) {
			a = box(a);
			b = box(b);
			x = INF * (a * c + b * d);
			y = INF * (b * c - a * d);
		} else if ((isinf_d(c) || isinf_d(d)) && isfinite_d(a) && isfinite_d(b)) {
			c = box(c);
			d = box(d);
			x = 0.0 * (a * c + b * d);
			y = 0.0 * (b * c - a * d);
		}
	}
	return make(x, y);
}

/*
 * The float forms compute in float, as libgcc's do. Their recoveries are the double ones'
 * (exact for float arguments).
 */
float _Complex
__mulsc3(float a, float b, float c, float d)
{
	float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
	float x = ac - bd, y = ad + bc;
	float _Complex z;

	if (x != x && y != y) {
		double _Complex w = __muldc3(a, b, c, d);

		x = (float)__real__ w;
		y = (float)__imag__ w;
	}
	__real__ z = x;
	__imag__ z = y;
	return z;
}

float _Complex
__divsc3(float a, float b, float c, float d)
{
	float ac = c < 0 ? -c : c, ad = d < 0 ? -d : d;
	int k = exponent(ac > ad ? ac : ad);
	float x, y, denom;
	float _Complex z;

	if (k != 9999) {
		c = (float)scale(c, -k);
		d = (float)scale(d, -k);
	}
	denom = c * c + d * d;
	x = (a * c + b * d) / denom;
	y = (b * c - a * d) / denom;
	if (k != 9999) {
		x = (float)scale(x, -k);
		y = (float)scale(y, -k);
	}
	if (x != x && y != y) {
		double _Complex w = __divdc3(a, b, c, d);

		x = (float)__real__ w;
		y = (float)__imag__ w;
	}
	__real__ z = x;
	__imag__ z = y;
	return z;
}
