/*
 * The floating-point environment (C99 7.6) over the FPU's control and status register
 * (<machine/fenv.h>): exception flags, rounding direction, trap enables. The library's own
 * functions assume rounding to nearest.
 */
#ifndef _FENV_H_
#define _FENV_H_

#include <sys/cdefs.h>
#include <machine/fenv.h>

/* The environment at program start: round to nearest, no flags, no traps. */
#define FE_DFL_ENV	((const fenv_t *)-1)

__BEGIN_DECLS
int	feclearexcept(int);
int	fegetexceptflag(fexcept_t *, int);
int	feraiseexcept(int);
int	fesetexceptflag(const fexcept_t *, int);
int	fetestexcept(int);
int	fegetround(void);
int	fesetround(int);
int	fegetenv(fenv_t *);
int	feholdexcept(fenv_t *);
int	fesetenv(const fenv_t *);
int	feupdateenv(const fenv_t *);
__END_DECLS

#endif /* !_FENV_H_ */
