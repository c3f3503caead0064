/*
 * The R2010's floating-point control/status register (FCSR, $31 of coprocessor 1) as <fenv.h>
 * sees it: the sticky exception flags (bits 2-6), the trap enables (bits 7-11), the rounding
 * mode (bits 0-1). The values are glibc's for MIPS.
 */
#ifndef _MACHINE_FENV_H_
#define _MACHINE_FENV_H_

typedef unsigned int fenv_t;
typedef unsigned int fexcept_t;

#define FE_INEXACT	0x04
#define FE_UNDERFLOW	0x08
#define FE_OVERFLOW	0x10
#define FE_DIVBYZERO	0x20
#define FE_INVALID	0x40
#define FE_ALL_EXCEPT	0x7c

#define FE_TONEAREST	0x0
#define FE_TOWARDZERO	0x1
#define FE_UPWARD	0x2
#define FE_DOWNWARD	0x3
#define __FE_ROUND_MASK	0x3
#define __FE_TRAP_SHIFT	5		/* enable bit = flag bit << 5 */

static inline unsigned int
__fe_get(void)
{
	unsigned int r;

	__asm__ __volatile__("cfc1 %0, $31" : "=r"(r));
	return r;
}

static inline void
__fe_set(unsigned int r)
{
	__asm__ __volatile__("ctc1 %0, $31" : : "r"(r));
}

#endif /* !_MACHINE_FENV_H_ */
