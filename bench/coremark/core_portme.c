/*
 * CoreMark port to emu's guest C library: seeds, timing and start-up (see core_portme.h).
 */
#include <stdio.h>
#include "coremark.h"

/* The seeds CoreMark's run types use (core_main.c checks the CRCs against them). */
#if VALIDATION_RUN
volatile ee_s32 seed1_volatile = 0x3415;
volatile ee_s32 seed2_volatile = 0x3415;
volatile ee_s32 seed3_volatile = 0x66;
#endif
#if PERFORMANCE_RUN
volatile ee_s32 seed1_volatile = 0x0;
volatile ee_s32 seed2_volatile = 0x0;
volatile ee_s32 seed3_volatile = 0x66;
#endif
#if PROFILE_RUN
volatile ee_s32 seed1_volatile = 0x8;
volatile ee_s32 seed2_volatile = 0x8;
volatile ee_s32 seed3_volatile = 0x8;
#endif
volatile ee_s32 seed4_volatile = ITERATIONS;
volatile ee_s32 seed5_volatile = 0;

ee_u32 default_num_contexts = 1;

static clock_t started, stopped;

void start_time(void) { started = clock(); }
void stop_time(void) { stopped = clock(); }
CORE_TICKS get_time(void) { return stopped - started; }
secs_ret time_in_secs(CORE_TICKS ticks) { return (secs_ret)ticks / CLOCKS_PER_SEC; }

/* CoreMark's data-type check (core_util.c) reports wrong sizes itself; nothing to set up here. */
void portable_init(core_portable *p, int *argc, char *argv[])
{
	(void)argc;
	(void)argv;
	p->portable_id = 1;
}

void portable_fini(core_portable *p)
{
	p->portable_id = 0;
}
