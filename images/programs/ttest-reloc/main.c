/*
 * Every relocation kind of static MIPS I and SPARC v8 code (reloc.S), and the code the
 * instrumenter must trace in conservative mode (issue 20): a relocation kind it does not
 * understand, a jump table whose extent the code does not show, a jump to a computed address,
 * hand-written code without a function symbol's type and size, code reached only through a
 * pointer. Every result must be the same traced and untraced.
 */
#include <stdio.h>
#include <string.h>

int rel_hilo(int x);     /* %hi/%lo of a function, called through a register */
int rel_calls(int x);    /* direct calls: R_MIPS_26 / R_SPARC_WDISP30, R_SPARC_WPLT30 */
int rel_branch(int x);   /* a branch to another function: R_MIPS_PC16 / R_SPARC_WDISP22 */
int rel_words(int i, int x); /* a table of function pointers: R_MIPS_32 / R_SPARC_32 */
int rel_data(int x);     /* MIPS: R_MIPS_GPREL16, R_MIPS_GPREL32, R_MIPS_LITERAL, R_MIPS_JALR, R_MIPS_NONE;
                            SPARC: R_SPARC_DISP32, R_SPARC_UA32, R_SPARC_13, R_SPARC_22, R_SPARC_8, R_SPARC_16 */
int rel_unknown(int x);  /* a relocation kind the instrumenter does not know, in its code */
int rel_table(int i, int x); /* a jump table holding the address of another function */
int rel_computed(int i, int x); /* a jump to base + offset */
int rel_unsized(int x);  /* no .type / .size; a tail transfer out of its frame */
int rel_anon(int x);     /* calls code that has no symbol, through a pointer */

int main(void)
{
	int s = 0;
	for (int i = 0; i < 4; i++) {
		int r[10] = {
			rel_hilo(i), rel_calls(i), rel_branch(i), rel_words(i % 3, i), rel_data(i), rel_unknown(i),
			rel_table(i % 4, i), rel_computed(i % 3, i), rel_unsized(i), rel_anon(i),
		};
		printf("%d:", i);
		for (int k = 0; k < 10; k++) {
			printf(" %d", r[k]);
			s += r[k];
		}
		printf("\n");
	}
	printf("sum %d\n", s);
	return 0;
}
