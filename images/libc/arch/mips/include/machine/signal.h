/*
 * MIPS signal context (docs/abi.md "Signals"): what the kernel saves on the user stack when it
 * delivers a signal, and what sigreturn restores. Every word is a full register image.
 */
#ifndef _MACHINE_SIGNAL_H_
#define _MACHINE_SIGNAL_H_

typedef int sig_atomic_t;

struct sigcontext {
	int	sc_onstack;	/*   0: always 0 (there is no alternate signal stack) */
	int	sc_mask;	/*   4: signal mask to restore */
	int	sc_pc;		/*   8: resume address (EPC, adjusted for a branch delay slot) */
	int	sc_regs[32];	/*  12: $0..$31; $0 ignored; k0/k1 belong to the kernel */
	int	sc_mdlo;	/* 140: LO */
	int	sc_mdhi;	/* 144: HI */
	int	sc_fpregs[32];	/* 148: $f0..$f31 (R2010, FR=0: doubles are even/odd pairs) */
	int	sc_fpcsr;	/* 276: FPU control/status register ($31 of CP1) */
	int	sc_cause;	/* 280: CP0 Cause of a CPU fault, else 0 (not restored) */
	int	sc_badvaddr;	/* 284: CP0 BadVAddr of an address fault, else 0 (not restored) */
};				/* 288 bytes */

#endif /* !_MACHINE_SIGNAL_H_ */
