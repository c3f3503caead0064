/*
 * A small stack machine run by two interpreters: one dispatching through a table of function
 * pointers, one through a dense switch that gcc compiles to a jump table. Both run the same
 * programs (a prime sieve by trial division, a recursive Fibonacci using CALL/RET); their
 * results must agree with each other and with the same computations written in C.
 */
#include <stdio.h>
#include <string.h>
#include "jmptest.h"

enum op {
	HALT, PUSH, POP, DUP, SWAP, OVER, ADD, SUB, MUL, DIV, MOD, NEG, AND, OR, XOR, SHL, SHR,
	EQ, LT, GT, NOT, JMP, JZ, JNZ, LOAD, STORE, INC, DEC, CALL, RET, NOP, NOPS
};

#define STACK 256
#define NREGS 8

struct vm {
	const int *code;
	int pc, sp, rsp;
	int halted;
	long steps;
	int stack[STACK];
	int rstack[STACK];
	int regs[NREGS];
};

/* ---- the assembler ---- */

static int code[512];
static int ncode;

static int here(void)
{
	return ncode;
}

static void emit(int op)
{
	code[ncode++] = op;
}

static void emit1(int op, int arg)
{
	code[ncode++] = op;
	code[ncode++] = arg;
}

/* Emits a jump with a placeholder target; returns where to patch. */
static int emit_fwd(int op)
{
	emit1(op, -1);
	return ncode - 1;
}

static void patch(int at)
{
	code[at] = ncode;
}

/* r0 = candidate, r1 = count, r2 = sum, r3 = divisor, r4 = is-prime; primes below limit. */
static int asm_primes(int limit)
{
	int start = here(), outer, inner, done, l_notprime, l_innerdone, l_skip;

	emit1(PUSH, 2); emit1(STORE, 0);
	emit1(PUSH, 0); emit1(STORE, 1);
	emit1(PUSH, 0); emit1(STORE, 2);
	outer = here();
	emit1(LOAD, 0); emit1(PUSH, limit); emit(LT);
	done = emit_fwd(JZ);
	emit1(PUSH, 2); emit1(STORE, 3);
	emit1(PUSH, 1); emit1(STORE, 4);
	inner = here();
	emit1(LOAD, 3); emit(DUP); emit(MUL); emit1(LOAD, 0); emit(GT);
	l_innerdone = emit_fwd(JNZ);
	emit1(LOAD, 0); emit1(LOAD, 3); emit(MOD);
	l_notprime = emit_fwd(JZ);
	emit1(INC, 3);
	emit1(JMP, inner);
	patch(l_notprime);
	emit1(PUSH, 0); emit1(STORE, 4);
	patch(l_innerdone);
	emit1(LOAD, 4);
	l_skip = emit_fwd(JZ);
	emit1(INC, 1);
	emit1(LOAD, 2); emit1(LOAD, 0); emit(ADD); emit1(STORE, 2);
	patch(l_skip);
	emit1(INC, 0);
	emit1(JMP, outer);
	patch(done);
	emit1(LOAD, 1); emit1(LOAD, 2); emit(NOP);
	emit(HALT);
	return start;
}

/* fib(n) with the argument and result on the data stack, recursion on the return stack. */
static int asm_fib(int n)
{
	int start = here(), fib, rec, call1;

	emit1(PUSH, n);
	call1 = emit_fwd(CALL);
	emit(HALT);
	fib = here();
	code[call1] = fib;
	emit(DUP); emit1(PUSH, 2); emit(LT);
	rec = emit_fwd(JZ);
	emit(RET);
	patch(rec);
	emit(DUP); emit1(PUSH, 1); emit(SUB); emit1(CALL, fib);
	emit(SWAP); emit1(PUSH, 2); emit(SUB); emit1(CALL, fib);
	emit(ADD); emit(RET);
	return start;
}

/* A program exercising the bit and comparison operations: folds a hash over 0..n-1. */
static int asm_bits(int n)
{
	int start = here(), loop, done;

	emit1(PUSH, 0); emit1(STORE, 0);	/* i */
	emit1(PUSH, 12345); emit1(STORE, 1);	/* h */
	loop = here();
	emit1(LOAD, 0); emit1(PUSH, n); emit(LT);
	done = emit_fwd(JZ);
	/* h = ((h << 5) ^ (h >> 3) ^ i) & 0x7fffffff; h = h | (i == 7); h = h - (h > 1000000 ? -1 : 0) */
	emit1(LOAD, 1); emit1(PUSH, 5); emit(SHL);
	emit1(LOAD, 1); emit1(PUSH, 3); emit(SHR); emit(XOR);
	emit1(LOAD, 0); emit(XOR);
	emit1(PUSH, 0x7fffffff); emit(AND);
	emit1(LOAD, 0); emit1(PUSH, 7); emit(EQ); emit(OR);
	emit(DUP); emit1(PUSH, 1000000); emit(GT); emit(NEG); emit(SUB);
	emit(DUP); emit(NOT); emit(POP);
	emit1(PUSH, 3); emit1(PUSH, 4); emit(OVER); emit(DIV); emit(ADD); emit(POP);
	emit1(STORE, 1);
	emit1(INC, 0); emit1(DEC, 2);
	emit1(JMP, loop);
	patch(done);
	emit1(LOAD, 1);
	emit(HALT);
	return start;
}

/* ---- interpreter 1: a table of function pointers ---- */

#define T (vm->stack[vm->sp - 1])
#define N (vm->stack[vm->sp - 2])
#define ARG (vm->code[vm->pc++])
#define BIN(expr) do { N = (expr); vm->sp--; } while (0)

static void op_halt(struct vm *vm) { vm->halted = 1; }
static void op_push(struct vm *vm) { int v = ARG; vm->stack[vm->sp++] = v; }
static void op_pop(struct vm *vm) { vm->sp--; }
static void op_dup(struct vm *vm) { vm->stack[vm->sp] = T; vm->sp++; }
static void op_swap(struct vm *vm) { int t = T; T = N; N = t; }
static void op_over(struct vm *vm) { vm->stack[vm->sp] = N; vm->sp++; }
static void op_add(struct vm *vm) { BIN((int)((u32)N + (u32)T)); }
static void op_sub(struct vm *vm) { BIN((int)((u32)N - (u32)T)); }
static void op_mul(struct vm *vm) { BIN((int)((u32)N * (u32)T)); }
static void op_div(struct vm *vm) { BIN(T ? N / T : 0); }
static void op_mod(struct vm *vm) { BIN(T ? N % T : 0); }
static void op_neg(struct vm *vm) { T = (int)(0u - (u32)T); }
static void op_and(struct vm *vm) { BIN(N & T); }
static void op_or(struct vm *vm) { BIN(N | T); }
static void op_xor(struct vm *vm) { BIN(N ^ T); }
static void op_shl(struct vm *vm) { BIN((int)((u32)N << (T & 31))); }
static void op_shr(struct vm *vm) { BIN((int)((u32)N >> (T & 31))); }
static void op_eq(struct vm *vm) { BIN(N == T); }
static void op_lt(struct vm *vm) { BIN(N < T); }
static void op_gt(struct vm *vm) { BIN(N > T); }
static void op_not(struct vm *vm) { T = !T; }
static void op_jmp(struct vm *vm) { vm->pc = vm->code[vm->pc]; }
static void op_jz(struct vm *vm) { int a = ARG; if (vm->stack[--vm->sp] == 0) vm->pc = a; }
static void op_jnz(struct vm *vm) { int a = ARG; if (vm->stack[--vm->sp] != 0) vm->pc = a; }
static void op_load(struct vm *vm) { int r = ARG; vm->stack[vm->sp++] = vm->regs[r]; }
static void op_store(struct vm *vm) { int r = ARG; vm->regs[r] = vm->stack[--vm->sp]; }
static void op_inc(struct vm *vm) { vm->regs[ARG]++; }
static void op_dec(struct vm *vm) { vm->regs[ARG]--; }
static void op_call(struct vm *vm) { int a = ARG; vm->rstack[vm->rsp++] = vm->pc; vm->pc = a; }
static void op_ret(struct vm *vm) { vm->pc = vm->rstack[--vm->rsp]; }
static void op_nop(struct vm *vm) { (void)vm; }

static void (*const optab[NOPS])(struct vm *) = {
	op_halt, op_push, op_pop, op_dup, op_swap, op_over, op_add, op_sub, op_mul, op_div, op_mod,
	op_neg, op_and, op_or, op_xor, op_shl, op_shr, op_eq, op_lt, op_gt, op_not, op_jmp, op_jz,
	op_jnz, op_load, op_store, op_inc, op_dec, op_call, op_ret, op_nop,
};

static void run_table(struct vm *vm)
{
	while (!vm->halted) {
		vm->steps++;
		optab[vm->code[vm->pc++]](vm);
	}
}

/* ---- interpreter 2: one dense switch (a jump table) ---- */

static void run_switch(struct vm *vm)
{
	for (;;) {
		vm->steps++;
		switch (vm->code[vm->pc++]) {
		case HALT: vm->halted = 1; return;
		case PUSH: vm->stack[vm->sp] = ARG; vm->sp++; break;
		case POP: vm->sp--; break;
		case DUP: vm->stack[vm->sp] = T; vm->sp++; break;
		case SWAP: { int t = T; T = N; N = t; } break;
		case OVER: vm->stack[vm->sp] = N; vm->sp++; break;
		case ADD: BIN((int)((u32)N + (u32)T)); break;
		case SUB: BIN((int)((u32)N - (u32)T)); break;
		case MUL: BIN((int)((u32)N * (u32)T)); break;
		case DIV: BIN(T ? N / T : 0); break;
		case MOD: BIN(T ? N % T : 0); break;
		case NEG: T = (int)(0u - (u32)T); break;
		case AND: BIN(N & T); break;
		case OR: BIN(N | T); break;
		case XOR: BIN(N ^ T); break;
		case SHL: BIN((int)((u32)N << (T & 31))); break;
		case SHR: BIN((int)((u32)N >> (T & 31))); break;
		case EQ: BIN(N == T); break;
		case LT: BIN(N < T); break;
		case GT: BIN(N > T); break;
		case NOT: T = !T; break;
		case JMP: vm->pc = vm->code[vm->pc]; break;
		case JZ: { int a = ARG; if (vm->stack[--vm->sp] == 0) vm->pc = a; } break;
		case JNZ: { int a = ARG; if (vm->stack[--vm->sp] != 0) vm->pc = a; } break;
		case LOAD: { int r = ARG; vm->stack[vm->sp++] = vm->regs[r]; } break;
		case STORE: { int r = ARG; vm->regs[r] = vm->stack[--vm->sp]; } break;
		case INC: vm->regs[ARG]++; break;
		case DEC: vm->regs[ARG]--; break;
		case CALL: { int a = ARG; vm->rstack[vm->rsp++] = vm->pc; vm->pc = a; } break;
		case RET: vm->pc = vm->rstack[--vm->rsp]; break;
		case NOP: break;
		default: vm->halted = 2; return;
		}
	}
}

typedef void (*interp_fn)(struct vm *);

static void run(interp_fn f, int start, struct vm *vm)
{
	memset(vm, 0, sizeof *vm);
	vm->code = code;
	vm->pc = start;
	f(vm);
}

static int cfib(int n)
{
	return n < 2 ? n : cfib(n - 1) + cfib(n - 2);
}

static u32 cbits(int n)
{
	int i;
	int h = 12345;

	for (i = 0; i < n; i++) {
		h = (int)(((u32)h << 5) ^ ((u32)h >> 3) ^ (u32)i) & 0x7fffffff;
		h |= i == 7;
		h = (int)((u32)h + (u32)(h > 1000000));
	}
	return (u32)h;
}

void test_vm(int scale)
{
	static const interp_fn interps[2] = { run_table, run_switch };
	static const char *const names[2] = { "function-pointer table", "switch jump table" };
	int limit = 3000 * scale, fibn = 18 + (scale > 1 ? 2 : 0), bitsn = 20000 * scale;
	int p_start, f_start, b_start, i, count = 0;
	long sum = 0;
	struct vm vm;
	char detail[128];

	ncode = 0;
	p_start = asm_primes(limit);
	f_start = asm_fib(fibn);
	b_start = asm_bits(bitsn);

	for (i = 2; i < limit; i++) {
		int d, prime = 1;
		for (d = 2; d * d <= i; d++)
			if (i % d == 0) {
				prime = 0;
				break;
			}
		if (prime) {
			count++;
			sum += i;
		}
	}

	for (i = 0; i < 2; i++) {
		char name[96];
		run(interps[i], p_start, &vm);
		printf("vm (%s): primes below %d: %d, sum %d, %ld steps\n", names[i], limit, vm.stack[0], vm.stack[1], vm.steps);
		snprintf(detail, sizeof detail, "count %d sum %d", vm.stack[0], vm.stack[1]);
		snprintf(name, sizeof name, "vm primes via %s", names[i]);
		check(name, vm.halted == 1 && vm.sp == 2 && vm.stack[0] == count && vm.stack[1] == (int)sum, detail);

		run(interps[i], f_start, &vm);
		printf("vm (%s): fib(%d) = %d, %ld steps\n", names[i], fibn, vm.stack[0], vm.steps);
		snprintf(name, sizeof name, "vm recursive fib via %s", names[i]);
		check(name, vm.halted == 1 && vm.sp == 1 && vm.rsp == 0 && vm.stack[0] == cfib(fibn), "wrong result");

		run(interps[i], b_start, &vm);
		printf("vm (%s): bit fold over %d = %u, %ld steps\n", names[i], bitsn, (u32)vm.stack[0], vm.steps);
		snprintf(name, sizeof name, "vm bit operations via %s", names[i]);
		check(name, vm.halted == 1 && vm.sp == 1 && (u32)vm.stack[0] == cbits(bitsn), "wrong result");
	}
}
