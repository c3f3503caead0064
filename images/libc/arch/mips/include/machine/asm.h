/*
 * Assembly conventions for MIPS I (o32 register use). Symbol-type and .ent/.end markers let
 * objdump, gdb and the instrumenter see function bounds. Hand-written code never names k0/k1
 * ($26/$27, reserved for the tracer) and stays within MIPS I: no branch-likely, no ldc1/sdc1,
 * no traps (teq...), and load delay slots are filled by hand under .set noreorder.
 */
#ifndef _MACHINE_ASM_H_
#define _MACHINE_ASM_H_

#include <machine/regdef.h>

/* A leaf routine: no stack frame, return address in ra. */
#define LEAF(x)			\
	.globl	x;		\
	.type	x, @function;	\
	.ent	x, 0;		\
x:;				\
	.frame	sp, 0, ra

/* A routine with a frame of fsize bytes that saves ra. */
#define NESTED(x, fsize, retpc)	\
	.globl	x;		\
	.type	x, @function;	\
	.ent	x, 0;		\
x:;				\
	.frame	sp, fsize, retpc

#define END(x)			\
	.end	x;		\
	.size	x, . - x

#endif /* !_MACHINE_ASM_H_ */
