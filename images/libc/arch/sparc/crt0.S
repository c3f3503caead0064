/*
 * Program entry for SPARC v8, both syscall flavours.
 *
 * The kernel's exec leaves the stack as 4.4BSD/sparc and Linux both do (docs/abi.md
 * "Process start"):
 *	%sp+0 .. %sp+63	 a 16-word register-window save area
 *	%sp+64		 argc
 *	%sp+68		 argv[0] ... argv[argc-1], NULL
 *			 envp[0] ... NULL
 * and jumps to _start, the SPARC linker's default entry symbol, with only the current window in
 * use. Nothing here names %g5-%g7.
 */
#include <machine/asm.h>

	.data
	.align	4
	.globl	environ
	.type	environ, #object
	.size	environ, 4
environ:
	.word	0

	.text
ENTRY(_start)
	mov	%g0, %fp		/* the outermost frame: backtraces stop at a zero %fp */
	ld	[%sp + 64], %o0		/* argc */
	add	%sp, 68, %o1		/* argv */
	sll	%o0, 2, %o2
	add	%o2, 4, %o2
	add	%o1, %o2, %o2		/* envp = argv + argc + 1 */
	sethi	%hi(environ), %o3
	st	%o2, [%o3 + %lo(environ)]
	/*
	 * A fresh frame below argc/argv: main may store its incoming arguments in its caller's
	 * argument dump area (%sp+68..), which here would overwrite argv. %sp stays 8-byte aligned.
	 */
	andn	%sp, 7, %sp
	sub	%sp, MINFRAME, %sp
	call	main
	nop
	call	exit			/* exit(main's result): atexit handlers, stdio flush, _exit */
	nop
	/* exit does not return; if it ever did, trap rather than run into whatever follows. */
	unimp	0
END(_start)
