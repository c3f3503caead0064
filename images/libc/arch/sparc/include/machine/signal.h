/*
 * SPARC signal context (docs/abi.md "Signals"): what the kernel saves on the user stack when it
 * delivers a signal, and what sigreturn restores. The %l and %i registers of every window are in
 * the frames' save areas: the kernel flushes the windows before it builds the frame.
 */
#ifndef _MACHINE_SIGNAL_H_
#define _MACHINE_SIGNAL_H_

typedef int sig_atomic_t;

struct sigcontext {
	int	sc_onstack;	/*   0: always 0 (there is no alternate signal stack) */
	int	sc_mask;	/*   4: signal mask to restore */
	int	sc_pc;		/*   8: PC to resume at */
	int	sc_npc;		/*  12: nPC to resume with */
	int	sc_psr;		/*  16: PSR; sigreturn restores only the icc field */
	int	sc_y;		/*  20: Y */
	int	sc_g[8];	/*  24: %g0..%g7; %g0 ignored */
	int	sc_o[8];	/*  56: %o0..%o7 (%o6 is the interrupted %sp) */
	int	sc_fsr;		/*  88: FSR */
	int	sc_tt;		/*  92: trap type of a CPU fault, else 0 (not restored) */
	int	sc_f[32];	/*  96: %f0..%f31, 8-byte aligned for ldd/std */
};				/* 224 bytes */

#endif /* !_MACHINE_SIGNAL_H_ */
