/*
 * Non-local jumps. The buffer layout is per ISA (<machine/setjmp.h>, documented in docs/abi.md);
 * setjmp and sigsetjmp(env, 1) also record the signal mask, which longjmp restores.
 */
#ifndef _SETJMP_H_
#define _SETJMP_H_

#include <sys/cdefs.h>
#include <machine/setjmp.h>

typedef int jmp_buf[_JBLEN];
typedef int sigjmp_buf[_JBLEN];

__BEGIN_DECLS
int	setjmp(jmp_buf);
void	longjmp(jmp_buf, int) __dead2;
int	_setjmp(jmp_buf);
void	_longjmp(jmp_buf, int) __dead2;
int	sigsetjmp(sigjmp_buf, int);
void	siglongjmp(sigjmp_buf, int) __dead2;
__END_DECLS

#endif /* !_SETJMP_H_ */
