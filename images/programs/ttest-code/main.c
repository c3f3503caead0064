/*
 * Code addresses as values (issue 20): what a program may do with them, and what it must see
 * traced exactly as untraced. With the argument `addr` it also prints the raw addresses, which
 * depend on the layout (the tests compare them with the symbol table and with the untraced run).
 */
#include <stdio.h>
#include <string.h>

typedef int (*fn)(int);

__attribute__((noinline)) int twice(int x) { return 2 * x; }
__attribute__((noinline)) int inc(int x) { return x + 1; }
__attribute__((noinline)) int neg(int x) { return -x; }

static fn table[] = { twice, inc, neg, twice };
static int print_addr;

/* Function pointers: called, compared, ordered, hashed, their distances. */
static void pointers(void)
{
	int s = 0;
	for (int i = 0; i < 4; i++) s += table[i](i + 3);
	printf("calls %d\n", s);
	printf("equal %d %d %d\n", table[0] == twice, table[0] == table[3], table[1] == twice);
	fn f = inc;
	volatile unsigned long v = (unsigned long)f;
	printf("round trip %d\n", ((fn)v)(41));
	if (print_addr) {
		unsigned long h = 0;
		for (int i = 0; i < 4; i++) h = h * 31 + (unsigned long)table[i];
		printf("twice %p inc %p neg %p main %p hash %lx\n", (void *)twice, (void *)inc, (void *)neg, (void *)pointers, h);
		printf("inc - twice %ld, order %d\n", (long)((char *)inc - (char *)twice), (char *)twice < (char *)neg);
	}
}

/* Label values and their differences (gcc.c-torture pr70460, 920501-5). */
__attribute__((noinline)) static int labels(int i)
{
	static const int off[] = { &&l1 - &&l0, &&l2 - &&l0, &&l3 - &&l0 };
	static void *const lv[] = { &&l1, &&l2, &&l3 };
	int r = 0;
	if ((char *)lv[i] != (char *)&&l0 + off[i]) return -1;
	if (print_addr && i == 0) printf("l0 %p l1 %p off %d\n", &&l0, lv[0], off[0]);
	goto *lv[i];
l0:	r += 100;
l1:	r += 1;
l2:	r += 10;
l3:	return r + 1000 * (lv[1] > lv[0]);
}

__attribute__((noinline)) static int differences(int x)
{
	static const int b[] = { &&lab1 - &&lab0, &&lab2 - &&lab0 };
	static int c;
	c = 0;
	goto *(&&lab0 + b[x]);
lab1:	c += 2;
lab2:	c++;
lab0:	return c;
}

/* A computed-goto interpreter. */
enum { HALT, PUSH, MUL, SWAP, OVER, DEC, DUP, JNZ, DROP };

__attribute__((noinline)) static int interp(const int *code)
{
	static void *const op[] = { &&op_halt, &&op_push, &&op_mul, &&op_swap, &&op_over, &&op_dec, &&op_dup, &&op_jnz, &&op_drop };
	int stack[32], sp = 0, pc = 0;
#define NEXT goto *op[code[pc++]]
	NEXT;
op_push: stack[sp++] = code[pc++]; NEXT;
op_mul: sp--; stack[sp - 1] *= stack[sp]; NEXT;
op_swap: { int t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } NEXT;
op_over: stack[sp] = stack[sp - 2]; sp++; NEXT;
op_dec: stack[sp - 1]--; NEXT;
op_dup: stack[sp] = stack[sp - 1]; sp++; NEXT;
op_jnz: sp--; pc = stack[sp] ? code[pc] : pc + 1; NEXT;
op_drop: sp--; NEXT;
op_halt: return sp > 0 ? stack[sp - 1] : 0;
#undef NEXT
}

/* __builtin_setjmp / __builtin_longjmp across functions (gcc.c-torture pr64242). */
static void *jb[5];
static int depth;

__attribute__((noinline)) static void deep(int n)
{
	depth++;
	if (n == 0) __builtin_longjmp(jb, 1);
	deep(n - 1);
}

__attribute__((noinline)) static int builtin_jumps(void)
{
	depth = 0;
	if (__builtin_setjmp(jb) == 0) {
		deep(5);
		return -1;
	}
	return depth;
}

/* Return addresses stored and compared. */
static void *volatile seen;

__attribute__((noinline)) static void *here(void) { return __builtin_return_address(0); }

__attribute__((noinline)) static void *elsewhere(void)
{
	void *r = here();
	seen = r;
	return r;
}

__attribute__((noinline)) static int returns(void)
{
	void *a[3];
	for (volatile int i = 0; i < 3; i++) a[i] = here();
	void *b = elsewhere();
	return (a[0] == a[1]) + 2 * (a[1] == a[2]) + 4 * (a[0] != b) + 8 * (b == seen);
}

int main(int argc, char **argv)
{
	print_addr = argc > 1 && strcmp(argv[1], "addr") == 0;
	pointers();
	for (int i = 0; i < 3; i++) printf("labels %d: %d\n", i, labels(i));
	printf("differences %d %d\n", differences(0), differences(1));
	static const int fact[] = { PUSH, 1, PUSH, 10, SWAP, OVER, MUL, SWAP, DEC, DUP, JNZ, 4, DROP, HALT };
	printf("interp %d\n", interp(fact));
	printf("builtin longjmp %d\n", builtin_jumps());
	printf("returns %d\n", returns());
	return 0;
}
