/*
 * <fenv.h> over the FPU's control and status register (<machine/fenv.h>: FCSR on MIPS, FSR on
 * SPARC). Raising an exception sets its flag (a trap it enables is not taken: the flag is set
 * directly, not by an operation). Every function fails (nonzero) only for an argument outside
 * the values <fenv.h> defines.
 */
#include <fenv.h>

int feclearexcept(int e)
{
  if (e & ~FE_ALL_EXCEPT) return 1;
  __fe_set(__fe_get() & ~(unsigned long)e);
  return 0;
}

int fegetexceptflag(fexcept_t *f, int e)
{
  if (e & ~FE_ALL_EXCEPT) return 1;
  *f = (fexcept_t)(__fe_get() & (unsigned long)e);
  return 0;
}

int feraiseexcept(int e)
{
  if (e & ~FE_ALL_EXCEPT) return 1;
  __fe_set(__fe_get() | (unsigned long)e);
  return 0;
}

int fesetexceptflag(const fexcept_t *f, int e)
{
  if (e & ~FE_ALL_EXCEPT) return 1;
  __fe_set((__fe_get() & ~(unsigned long)e) | (*f & (unsigned long)e));
  return 0;
}

int fetestexcept(int e)
{
  return (int)(__fe_get() & (unsigned long)e & FE_ALL_EXCEPT);
}

int fegetround(void)
{
  return (int)(__fe_get() & __FE_ROUND_MASK);
}

int fesetround(int r)
{
  if ((unsigned long)r & ~__FE_ROUND_MASK) return 1;
  __fe_set((__fe_get() & ~__FE_ROUND_MASK) | (unsigned long)r);
  return 0;
}

int fegetenv(fenv_t *env)
{
  *env = __fe_get();
  return 0;
}

/* Saves the environment, clears the flags and disables every trap. */
int feholdexcept(fenv_t *env)
{
  unsigned long r = __fe_get();
  *env = r;
  __fe_set(r & ~(FE_ALL_EXCEPT | (FE_ALL_EXCEPT << __FE_TRAP_SHIFT)));
  return 0;
}

int fesetenv(const fenv_t *env)
{
  __fe_set(env == FE_DFL_ENV ? 0 : *env);
  return 0;
}

/* Installs env and raises the exceptions that were flagged before. */
int feupdateenv(const fenv_t *env)
{
  unsigned long flags = __fe_get() & FE_ALL_EXCEPT;
  fesetenv(env);
  return feraiseexcept((int)flags);
}
