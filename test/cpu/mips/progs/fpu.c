/*
 * R2010 arithmetic: both formats, every rounding mode, conversions, compares and the FCSR flags,
 * over edge operands (zeros, subnormals, extremes, infinities, NaNs).
 */
#include "util.h"

static inline u32 getfcsr(void) { u32 v; __asm__ volatile("cfc1 %0, $31\n\tnop" : "=r"(v)); return v; }
static inline void setfcsr(u32 v) { __asm__ volatile("ctc1 %0, $31\n\tnop" : : "r"(v)); }

/* SMALL: the subset the per-instruction comparison with qemu's log uses (keeps the log small). */
static volatile double dv[] = {
	-0.0, 2.5, 1.7976931348623157e308, 4.9406564584124654e-324, 0.1, -1.0 / 0.0,
#ifndef SMALL
	2147483648.5, 1.2e-38, 0.0, 1.0, -1.0, 0.5, 1.5, -2.5, 3.0, 1e300, -1e300, 2.2250738585072014e-308, 1e-310, 1.0 / 3.0,
	123456789.75, 2147483647.0, -2147483649.0, 1.0 / 0.0, 3e38, 7e-46,
#endif
};
#define ND ((int)(sizeof dv / sizeof dv[0]))

union du { double d; u64 u; };
union fu { float f; u32 u; };

static void mixd(double d) { union du x; x.d = d; mix((u32)x.u); mix((u32)(x.u >> 32)); }
static void mixf(float f) { union fu x; x.f = f; mix(x.u); }

int main(void)
{
	volatile double nan_ = 0.0;
	nan_ = nan_ / nan_; /* invalid: default NaN */
	for (int rm = 0; rm < 4; rm++) {
		for (int i = 0; i < ND; i++) {
			for (int j = 0; j < ND; j++) {
				setfcsr(rm);
				double a = dv[i], b = dv[j];
				float fa = (float)a, fb = (float)b;
				mix(getfcsr());
				mixd(a + b); mixd(a - b); mixd(a * b); mixd(a / b);
				mix(getfcsr());
				setfcsr(rm);
				mixf(fa + fb); mixf(fa - fb); mixf(fa * fb); mixf(fa / fb);
				mix(getfcsr());
				mix(a < b); mix(a <= b); mix(a == b); mix(fa < fb); mix(fa == fb);
			}
			setfcsr(rm);
			double a = dv[i];
			mixf((float)a); mix(getfcsr());
			setfcsr(rm);
			mixd((double)(float)a); mix(getfcsr());
			setfcsr(rm);
			i32 iv;
			__asm__ volatile("cvt.w.d $f0, %1\n\tmfc1 %0, $f0\n\tnop" : "=r"(iv) : "f"(a) : "$f0");
			mix(iv); mix(getfcsr());
			setfcsr(rm);
			float fa = (float)a;
			__asm__ volatile("cvt.w.s $f0, %1\n\tmfc1 %0, $f0\n\tnop" : "=r"(iv) : "f"(fa) : "$f0");
			mix(iv); mix(getfcsr());
			setfcsr(rm);
			mixd((double)(i32)(i * 123456789u)); mixf((float)(i32)(i * 123456789u)); mix(getfcsr());
			mixd(-a); mixd(a < 0 ? -a : a);
			mix(a < nan_); mix(a == nan_); mix(a != nan_);
		}
	}
	setfcsr(0);
	mixd(nan_ + 1.0); mix(getfcsr());
	puthex(ck);
	return 0;
}
