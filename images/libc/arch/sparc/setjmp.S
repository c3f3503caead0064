/*
 * setjmp, _setjmp, sigsetjmp and _longjmp for SPARC v8 (layout in <machine/setjmp.h>). longjmp
 * and siglongjmp are C (src/gen/longjmp.c): they restore the signal mask, then call _longjmp.
 * Only %g1-%g4 (call-clobbered in the 32-bit ABI) serve as temporaries: %g5-%g7 belong to the
 * tracer.
 */
#include <machine/asm.h>
#include <machine/setjmp.h>

#define JB(i)	((i) * 4)

	.text

/* int _setjmp(jmp_buf env): the caller's frame only; a later longjmp leaves the signal mask alone. */
ENTRY(_setjmp)
	st	%sp, [%o0 + JB(_JB_SP)]
	st	%o7, [%o0 + JB(_JB_PC)]
	st	%fp, [%o0 + JB(_JB_FP)]
	st	%g0, [%o0 + JB(_JB_SAVEMASK)]
	retl
	clr	%o0
END(_setjmp)

/*
 * int setjmp(jmp_buf env): the frame and the signal mask. The tail call keeps our caller's %o7,
 * so __sigjmp_save returns 0 straight to it.
 */
ENTRY(setjmp)
	st	%sp, [%o0 + JB(_JB_SP)]
	st	%o7, [%o0 + JB(_JB_PC)]
	st	%fp, [%o0 + JB(_JB_FP)]
	mov	1, %o1
	mov	%o7, %g1
	call	__sigjmp_save
	mov	%g1, %o7
END(setjmp)

/* int sigsetjmp(sigjmp_buf env, int savemask): the frame, and the mask if savemask != 0. */
ENTRY(sigsetjmp)
	st	%sp, [%o0 + JB(_JB_SP)]
	st	%o7, [%o0 + JB(_JB_PC)]
	st	%fp, [%o0 + JB(_JB_FP)]
	mov	%o7, %g1
	call	__sigjmp_save
	mov	%g1, %o7
END(sigsetjmp)

/*
 * void _longjmp(jmp_buf env, int val): resumes after the setjmp call, which returns val ? val : 1.
 *
 * First every register window is flushed to its frame's save area (ST_FLUSH_WINDOWS), so the
 * stack holds the current %l/%i of every frame. Then `restore` pops frames, each refilled from
 * its save area, until the current window is the setjmp caller's (its %fp is the saved one):
 * walking the frame chain, rather than loading the caller's window from its %sp directly, also
 * works when that window was last spilled somewhere else, as into a signal frame. Frames grow
 * down, so a deeper frame has a lower %fp; passing the saved %fp, or a saved %sp below the
 * caller's, means the buffer is stale or corrupt, and the process aborts.
 */
ENTRY(_longjmp)
	ta	ST_FLUSH_WINDOWS
	mov	%o0, %g1
	orcc	%o1, %g0, %g2
	be,a	1f
	mov	1, %g2			/* val 0 becomes 1; annulled unless val == 0 */
1:	ld	[%g1 + JB(_JB_FP)], %g3
2:	cmp	%fp, %g3
	blu,a	2b
	restore				/* annulled when the loop ends */
	bne	3f
	nop
	ld	[%g1 + JB(_JB_SP)], %g4
	cmp	%g4, %sp
	blu	3f
	nop
	mov	%g4, %sp
	ld	[%g1 + JB(_JB_PC)], %g4
	jmp	%g4 + 8
	mov	%g2, %o0
3:	call	abort
	nop
	unimp	0
END(_longjmp)
