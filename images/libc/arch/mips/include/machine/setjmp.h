/*
 * MIPS jmp_buf layout, in 32-bit words (docs/abi.md "setjmp"). _setjmp saves what the o32
 * convention says survives a call: s0-s7, s8/fp, sp, gp, ra (the resume address), the
 * callee-saved FPU registers $f20-$f31 and the FCSR; setjmp/sigsetjmp add the signal mask.
 */
#ifndef _MACHINE_SETJMP_H_
#define _MACHINE_SETJMP_H_

#define _JB_PC		0	/* ra of the setjmp call: where longjmp resumes */
#define _JB_SP		1
#define _JB_FP		2	/* s8 */
#define _JB_S0		3	/* s0..s7 in words 3..10 */
#define _JB_GP		11
#define _JB_F20		12	/* $f20..$f31 in words 12..23 */
#define _JB_FCSR	24
#define _JB_SIGMASK	25	/* signal mask, valid when _JB_SAVEMASK is nonzero */
#define _JB_SAVEMASK	26	/* nonzero: longjmp restores _JB_SIGMASK */

#define _JBLEN		28

#endif /* !_MACHINE_SETJMP_H_ */
