/*
 * ttest-asm: calls hand-written assembly (asm.S, one part per ISA) that exercises what compiled
 * code rarely shows the instrumenter: loads in delay slots, annulled branches, a jump table in
 * assembly, indirect calls through a register, a tail call, recursion, a function without .size.
 * Also a struct-returning C function (SPARC calls it with an `unimp` word after the delay slot).
 */
#include <stdio.h>

extern int asm_sum(const int *p, int n);
extern int asm_count(const char *s, int c);
extern int asm_dispatch(int op, int a, int b);
extern int asm_apply(int (*f)(int), int x);
extern int asm_fib(int n);

int twice_c(int x) { return 2 * x; }
static int square(int x) { return x * x; }

struct pair { int a, b, c; };

static struct pair make_pair(int x) {
  struct pair p = { x, x + 1, x * 3 };
  return p;
}

int main(void) {
  static int v[40];
  int i;
  for (i = 0; i < 40; i++) v[i] = i * i - 7;
  printf("sum %d %d %d\n", asm_sum(v, 40), asm_sum(v + 5, 3), asm_sum(v, 0));
  printf("count %d %d\n", asm_count("abracadabra", 'a'), asm_count("mississippi", 's'));
  for (i = -1; i < 6; i++) printf("dispatch %d: %d\n", i, asm_dispatch(i, 17, 5));
  printf("apply %d %d\n", asm_apply(twice_c, 3), asm_apply(square, 3));
  for (i = 0; i < 16; i += 5) printf("fib %d %d\n", i, asm_fib(i));
  struct pair p = make_pair(asm_fib(7));
  printf("pair %d %d %d\n", p.a, p.b, p.c);
  return 0;
}
