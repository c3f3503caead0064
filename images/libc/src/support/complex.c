/*
 * Complex multiplication and division (libgcc's __mulsc3, __muldc3, __divsc3, __divdc3), which
 * gcc calls for `*` and `/` on float and double _Complex operands unless it can prove no
 * operand is infinite or NaN. The results follow C11 Annex G: the plain formulas, then, when
 * both parts come out NaN, the recovery of G.5.1 that yields an infinity for an infinite operand
 * (multiplication, or division of an infinite number) and a zero for division by an infinity.
 * Double division divides by the larger of |c| and |d| first (Smith 1962), after scaling all four
 * operands by a power of two when the denominator is near the ends of the exponent range; float
 * division computes in double.
 * Only builtins gcc expands inline are used: nothing here calls out.
 */

#define MUL(T, NAME, INF, COPYSIGN)						\
T _Complex NAME(T a, T b, T c, T d);						\
T _Complex									\
NAME(T a, T b, T c, T d)							\
{										\
	T ac = a * c, bd = b * d, ad = a * d, bc = b * c;			\
	T x = ac - bd, y = ad + bc;						\
	int recalc = 0;								\
										\
	if (__builtin_isnan(x) && __builtin_isnan(y)) {				\
		if (__builtin_isinf(a) || __builtin_isinf(b)) {			\
			/* The first operand is infinite: make it a signed box. */	\
			a = COPYSIGN(__builtin_isinf(a) ? 1 : 0, a);		\
			b = COPYSIGN(__builtin_isinf(b) ? 1 : 0, b);		\
			if (__builtin_isnan(c)) c = COPYSIGN(0, c);		\
			if (__builtin_isnan(d)) d = COPYSIGN(0, d);		\
			recalc = 1;						\
		}								\
		if (__builtin_isinf(c) || __builtin_isinf(d)) {			\
			c = COPYSIGN(__builtin_isinf(c) ? 1 : 0, c);		\
			d = COPYSIGN(__builtin_isinf(d) ? 1 : 0, d);		\
			if (__builtin_isnan(a)) a = COPYSIGN(0, a);		\
			if (__builtin_isnan(b)) b = COPYSIGN(0, b);		\
			recalc = 1;						\
		}								\
		if (!recalc && (__builtin_isinf(ac) || __builtin_isinf(bd) ||	\
		    __builtin_isinf(ad) || __builtin_isinf(bc))) {		\
			/* Overflow in a product: recover infinities from it. */	\
			if (__builtin_isnan(a)) a = COPYSIGN(0, a);		\
			if (__builtin_isnan(b)) b = COPYSIGN(0, b);		\
			if (__builtin_isnan(c)) c = COPYSIGN(0, c);		\
			if (__builtin_isnan(d)) d = COPYSIGN(0, d);		\
			recalc = 1;						\
		}								\
		if (recalc) {							\
			x = INF * (a * c - b * d);				\
			y = INF * (a * d + b * c);				\
		}								\
	}									\
	return __builtin_complex(x, y);						\
}

/*
 * Annex G's recovery for a quotient whose parts both came out NaN: a number over zero is an
 * infinity, an infinity over a finite number an infinity, a finite number over an infinity a zero.
 */
#define DIV_RECOVER(T, INF, COPYSIGN)						\
	if (__builtin_isnan(x) && __builtin_isnan(y)) {				\
		if (c == 0 && d == 0 && (!__builtin_isnan(a) || !__builtin_isnan(b))) { \
			x = COPYSIGN(INF, c) * a;				\
			y = COPYSIGN(INF, c) * b;				\
		} else if ((__builtin_isinf(a) || __builtin_isinf(b)) &&	\
		    !__builtin_isinf(c) && !__builtin_isnan(c) &&		\
		    !__builtin_isinf(d) && !__builtin_isnan(d)) {		\
			a = COPYSIGN(__builtin_isinf(a) ? 1 : 0, a);		\
			b = COPYSIGN(__builtin_isinf(b) ? 1 : 0, b);		\
			x = INF * (a * c + b * d);				\
			y = INF * (b * c - a * d);				\
		} else if ((__builtin_isinf(c) || __builtin_isinf(d)) &&	\
		    !__builtin_isinf(a) && !__builtin_isnan(a) &&		\
		    !__builtin_isinf(b) && !__builtin_isnan(b)) {		\
			c = COPYSIGN(__builtin_isinf(c) ? 1 : 0, c);		\
			d = COPYSIGN(__builtin_isinf(d) ? 1 : 0, d);		\
			x = 0 * (a * c + b * d);				\
			y = 0 * (b * c - a * d);				\
		}								\
	}

double _Complex __divdc3(double a, double b, double c, double d);
double _Complex
__divdc3(double a, double b, double c, double d)
{
	double r, den, x, y, m = __builtin_fabs(c) > __builtin_fabs(d) ? __builtin_fabs(c) : __builtin_fabs(d);

	/* Scale all four by a power of two so that the denominator cannot overflow or underflow. */
	if (m > 0x1p511) {
		a *= 0x1p-511; b *= 0x1p-511; c *= 0x1p-511; d *= 0x1p-511;
	} else if (m < 0x1p-511 && m > 0) {
		a *= 0x1p511; b *= 0x1p511; c *= 0x1p511; d *= 0x1p511;
	}
	if (__builtin_fabs(c) < __builtin_fabs(d)) {
		r = c / d;
		den = c * r + d;
		x = (a * r + b) / den;
		y = (b * r - a) / den;
	} else {
		r = d / c;
		den = c + d * r;
		x = (a + b * r) / den;
		y = (b - a * r) / den;
	}
	DIV_RECOVER(double, __builtin_inf(), __builtin_copysign)
	return __builtin_complex(x, y);
}

/*
 * float: the textbook formula in double, where neither c*c + d*d nor the numerators can overflow
 * or lose precision that matters, rounded once to float (libgcc does the same).
 */
float _Complex __divsc3(float a, float b, float c, float d);
float _Complex
__divsc3(float a, float b, float c, float d)
{
	double den = (double)c * c + (double)d * d;
	float x = (float)(((double)a * c + (double)b * d) / den);
	float y = (float)(((double)b * c - (double)a * d) / den);

	DIV_RECOVER(float, __builtin_inff(), __builtin_copysignf)
	return __builtin_complex(x, y);
}

MUL(float, __mulsc3, __builtin_inff(), __builtin_copysignf)
MUL(double, __muldc3, __builtin_inf(), __builtin_copysign)
