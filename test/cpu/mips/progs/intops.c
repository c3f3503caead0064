/* Integer ALU, shifts, multiply/divide and sub-word memory accesses over edge values. */
#include "util.h"

/* SMALL: the subset the per-instruction comparison with qemu's log uses (keeps the log small). */
static const i32 vals[] = {
	0, 1, -1, 0x7fffffff, -0x7fffffff - 1, 0x8000, -0x8000, 0x12345678, 0x9abcdef0, 33,
#ifndef SMALL
	2, -2, 3, 7, -7, 0x7ffffffe, 0x80000001, 0xffff, 0x10000, 0x7fff, 100, -100, 65535, 1 << 30, 31, 32,
#endif
};
#define N ((int)(sizeof vals / sizeof vals[0]))

static volatile i32 zero = 0;

static unsigned char bytes[64];
static unsigned short halves[32];

int main(void)
{
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < N; j++) {
			i32 a = vals[i], b = vals[j];
			u32 ua = a, ub = b;
			mix(a + b); mix(a - b); mix(a & b); mix(a | b); mix(a ^ b); mix(~(a | b));
			mix(a < b); mix(ua < ub); mix(a << (b & 31)); mix(ua >> (b & 31)); mix(a >> (b & 31));
			mix((u32)((i64)a * b)); mix((u32)(((i64)a * b) >> 32));
			mix((u32)((u64)ua * ub)); mix((u32)(((u64)ua * ub) >> 32));
			if (b != 0 && !(a == -0x7fffffff - 1 && b == -1)) { mix(a / b); mix(a % b); }
			if (ub != 0) { mix(ua / ub); mix(ua % ub); }
			mix(a < 5); mix(ua < 5u); mix(a < -3); mix(ua < (u32)-3);
			mix(a + 12345); mix(a & 0xff00); mix(a | 0x8001); mix(a ^ 0xf0f0);
			mix(a << 5); mix(ua >> 9); mix(a >> 17);
		}
	}
	/* Division by zero: the result registers are what they are; read HI/LO through asm. */
	for (int i = 0; i < N; i++) {
		u32 lo, hi;
		__asm__ volatile("div $0, %2, %3\n\tmflo %0\n\tmfhi %1" : "=r"(lo), "=r"(hi) : "r"(vals[i]), "r"(zero));
		mix(lo); mix(hi);
		__asm__ volatile("divu $0, %2, %3\n\tmflo %0\n\tmfhi %1" : "=r"(lo), "=r"(hi) : "r"(vals[i]), "r"(zero));
		mix(lo); mix(hi);
		__asm__ volatile("div $0, %2, %3\n\tmflo %0\n\tmfhi %1" : "=r"(lo), "=r"(hi) : "r"(vals[i]), "r"(-1));
		mix(lo); mix(hi);
	}
	for (int i = 0; i < 64; i++) bytes[i] = (unsigned char)(i * 37 + 200);
	for (int i = 0; i < 32; i++) halves[i] = (unsigned short)(i * 4099 + 30000);
	for (int i = 0; i < 64; i++) { mix((signed char)bytes[i]); mix(bytes[i]); }
	for (int i = 0; i < 32; i++) { mix((short)halves[i]); mix(halves[i]); }
	u32 *w = (u32 *)bytes;
	for (int i = 0; i < 16; i++) mix(w[i]);
	for (int i = 0; i < 16; i++) ((unsigned short *)bytes)[i * 2 + 1] = (unsigned short)(i * 777);
	for (int i = 0; i < 16; i++) mix(w[i]);
	puthex(ck);
	return ck & 0x7f;
}
