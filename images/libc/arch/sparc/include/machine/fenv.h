/*
 * The SPARC v8 floating-point state register (FSR) as <fenv.h> sees it: the accrued exception
 * flags (aexc, bits 5-9), the trap enables (TEM, bits 23-27), the rounding direction (RD, bits
 * 30-31). The values are glibc's for SPARC.
 */
#ifndef _MACHINE_FENV_H_
#define _MACHINE_FENV_H_

typedef unsigned long fenv_t;
typedef unsigned long fexcept_t;

#define FE_INEXACT	(1UL << 5)
#define FE_DIVBYZERO	(1UL << 6)
#define FE_UNDERFLOW	(1UL << 7)
#define FE_OVERFLOW	(1UL << 8)
#define FE_INVALID	(1UL << 9)
#define FE_ALL_EXCEPT	(0x1fUL << 5)

#define FE_TONEAREST	(0UL << 30)
#define FE_TOWARDZERO	(1UL << 30)
#define FE_UPWARD	(2UL << 30)
#define FE_DOWNWARD	(3UL << 30)
#define __FE_ROUND_MASK	(3UL << 30)
#define __FE_TRAP_SHIFT	18		/* TEM bit = aexc bit << 18 */

static inline unsigned long
__fe_get(void)
{
	unsigned long r;

	__asm__ __volatile__("st %%fsr, %0" : "=m"(r));
	return r;
}

static inline void
__fe_set(unsigned long r)
{
	__asm__ __volatile__("ld %0, %%fsr" : : "m"(r));
}

#endif /* !_MACHINE_FENV_H_ */
