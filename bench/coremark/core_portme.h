/*
 * CoreMark port to emu's guest C library (images/libc), for bench/cold.ts: the same source runs
 * as a bsd-flavour executable under emu's kernel and as a linux-flavour one under qemu-user.
 * CoreMark itself (core_main.c, core_list_join.c, core_matrix.c, core_state.c, core_util.c,
 * coremark.h) is fetched by the user and never committed; these two files are all a port
 * supplies (CoreMark's README, "Porting").
 *
 * Timing: clock() of the guest libc (CLOCKS_PER_SEC 1000000): the virtual clock under emu, the
 * host's process time under qemu. The benchmark only reads it for its report; bench/cold.ts times
 * the whole process from outside and checks the CRC lines instead.
 * Data: static (MEM_STATIC), one context, seeds from volatile variables (SEED_VOLATILE), so the
 * run needs no arguments; ITERATIONS and PERFORMANCE_RUN come from the compiler's command line.
 */
#ifndef CORE_PORTME_H
#define CORE_PORTME_H

#include <stddef.h>
#include <time.h>

#define HAS_FLOAT 1
#define HAS_TIME_H 1
#define USE_CLOCK 1
#define HAS_STDIO 1
#define HAS_PRINTF 1

#ifndef COMPILER_VERSION
#define COMPILER_VERSION "GCC" __VERSION__
#endif
#ifndef COMPILER_FLAGS
#define COMPILER_FLAGS FLAGS_STR
#endif
#define MEM_LOCATION "STATIC"

typedef clock_t CORE_TICKS;
typedef signed short ee_s16;
typedef unsigned short ee_u16;
typedef signed int ee_s32;
typedef double ee_f32;
typedef unsigned char ee_u8;
typedef unsigned int ee_u32;
/* Both targets are ILP32: a pointer fits an unsigned int. */
typedef ee_u32 ee_ptr_int;
typedef size_t ee_size_t;

/* Rounds an address up to the next multiple of 4 (the matrix data's alignment). */
#define align_mem(x) (void *)(4 + (((ee_ptr_int)(x)-1) & ~3))

#define SEED_METHOD SEED_VOLATILE
#define MEM_METHOD MEM_STATIC
#define MULTITHREAD 1
#define MAIN_HAS_NOARGC 0
#define MAIN_HAS_NORETURN 0

typedef struct CORE_PORTABLE_S {
	ee_u8 portable_id;
} core_portable;

extern ee_u32 default_num_contexts;

void portable_init(core_portable *p, int *argc, char *argv[]);
void portable_fini(core_portable *p);

#if !defined(PROFILE_RUN) && !defined(PERFORMANCE_RUN) && !defined(VALIDATION_RUN)
#define PERFORMANCE_RUN 1
#endif

#endif /* CORE_PORTME_H */
