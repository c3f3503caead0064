/*
 * jmptest: control transfers a compiler and a trace regenerator must get right, checked by the
 * program itself: setjmp/longjmp across many frames (from deep recursion, out of a qsort
 * comparator, nested handlers), calls through tables of function pointers, a dense switch that
 * gcc compiles to a jump table (an indirect jump through a table in .rodata), qsort and bsearch
 * with comparators, and deep or branching recursion.
 */
#ifndef JMPTEST_H
#define JMPTEST_H

typedef unsigned int u32;

/* Records one check: prints "<name>: ok" or "<name>: FAILED: <detail>". */
void check(const char *name, int ok, const char *detail);

u32 xorshift(void);
void xorshift_seed(u32 s);
u32 fnv(u32 h, u32 word);

void test_longjmp(int scale);
void test_exceptions(int scale);
void test_vm(int scale);
void test_sort(int scale);
void test_recursion(int scale);

#endif
