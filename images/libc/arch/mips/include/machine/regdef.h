/* MIPS o32 register names for assembly (the software names of the MIPS R2000 manual). */
#ifndef _MACHINE_REGDEF_H_
#define _MACHINE_REGDEF_H_

#define zero	$0
#define AT	$1	/* assembler temporary */
#define v0	$2	/* return values */
#define v1	$3
#define a0	$4	/* arguments */
#define a1	$5
#define a2	$6
#define a3	$7	/* also the syscall error flag on return */
#define t0	$8	/* caller-saved temporaries */
#define t1	$9
#define t2	$10
#define t3	$11
#define t4	$12
#define t5	$13
#define t6	$14
#define t7	$15
#define s0	$16	/* callee-saved */
#define s1	$17
#define s2	$18
#define s3	$19
#define s4	$20
#define s5	$21
#define s6	$22
#define s7	$23
#define t8	$24
#define t9	$25
/* $26 k0 and $27 k1 are reserved for the tracer (DESIGN.md section 3): no names here on purpose. */
#define gp	$28
#define sp	$29
#define s8	$30	/* frame pointer */
#define fp	$30
#define ra	$31

#endif /* !_MACHINE_REGDEF_H_ */
