/*
 * SPARC jmp_buf layout, in 32-bit words (docs/abi.md "setjmp"). The register-window mechanism
 * keeps every callee-saved value (%l0-%l7, %i0-%i7 of each frame) in the frames' save areas once
 * the windows are flushed, so the buffer needs only the frame of the setjmp caller: its %sp and
 * %fp and the resume address. The SPARC ABI has no callee-saved FPU registers.
 */
#ifndef _MACHINE_SETJMP_H_
#define _MACHINE_SETJMP_H_

#define _JB_SP		0	/* %sp of the setjmp caller */
#define _JB_PC		1	/* %o7 of the setjmp call: longjmp resumes at _JB_PC + 8 */
#define _JB_FP		2	/* %fp of the setjmp caller */
#define _JB_SIGMASK	3	/* signal mask, valid when _JB_SAVEMASK is nonzero */
#define _JB_SAVEMASK	4	/* nonzero: longjmp restores _JB_SIGMASK */

#define _JBLEN		6

#endif /* !_MACHINE_SETJMP_H_ */
