/*
 * The trace buffer device /dev/trbuf (mazieres-smith-1994 section 3.2; DESIGN.md section 4;
 * docs/trace-bundle.md section 4). Shared by the guest programs and emu's kernel (os/trbuf.ts
 * defines the same numbers; test/tracer/trbuf.test.ts and test/trace/ check that they agree).
 *
 * An instrumented program's prologue calls trbufmap(), which does what opening TRBUF_PATH, issuing
 * ioctl(fd, BIOCMAP) and closing the descriptor do: the kernel maps the buffer right below
 * TRBUF_END (its guard page at TRBUF_END stays unmapped), marks the caller traced and points the
 * trace register (MIPS k0, SPARC %g6) at its first free byte; every traced process shares that
 * pointer. trbufmap fails with ENXIO when the kernel has no trace buffer (the Linux flavour: ENOSYS).
 *
 * The consumer (bdump) maps it with BIOCSMAP, which fills struct trbuf_info, and shares the
 * pointer register too. It reads the schedule stream with read(2): a read sleeps until the traced
 * processes are blocked (the buffer overflowed, the schedule buffer is nearly full, or the consumer
 * asked with BIOCBLOCK), until the read timeout (BIOCSRTIMEOUT), or until the process named with
 * BIOCSWATCH has exited, and returns the schedule bytes pending. While the processes are blocked
 * the consumer saves the buffer [tb_base, its pointer register), resets the register to tb_base
 * and issues BIOCUNBLK.
 */
#ifndef _SYS_TRBUF_H_
#define _SYS_TRBUF_H_

#include <sys/ioccom.h>

#define TRBUF_PATH	"/dev/trbuf"
#define TRBUF_END	0x20000000UL	/* the buffer ends here; the guard page starts here */
#define TRBUF_SIZE	(1024 * 1024)	/* default size */

struct trbuf_info {
	unsigned long	tb_base;	/* first byte of the trace buffer: the pointer's reset value */
	unsigned long	tb_size;	/* its size in bytes */
	unsigned long	tb_ptr;		/* the shared pointer when the buffer was mapped */
	unsigned long	tb_schedsize;	/* capacity of the kernel's schedule buffer */
};

struct trbuf_stat {
	unsigned long	ts_blocked;	/* TRBUF_BLK_*: why the traced processes are blocked */
	unsigned long	ts_pending;	/* schedule bytes not read yet */
	unsigned long	ts_ptr;		/* the shared pointer */
	unsigned long	ts_done;	/* the watched process has exited */
};

#define TRBUF_BLK_NONE		0
#define TRBUF_BLK_OVERFLOW	1	/* a traced store reached the guard page */
#define TRBUF_BLK_SCHED		2	/* the schedule buffer is nearly full (T_SBOF) */
#define TRBUF_BLK_REQUEST	3	/* BIOCBLOCK */

#define BIOCMAP		_IO('B', 1)			/* map into a traced process */
#define BIOCSMAP	_IOWR('B', 2, struct trbuf_info)	/* map into the consumer */
#define BIOCGSTAT	_IOR('B', 3, struct trbuf_stat)	/* consumer: the device's state */
#define BIOCBLOCK	_IO('B', 4)			/* consumer: block the traced processes */
#define BIOCUNBLK	_IO('B', 5)			/* consumer: drained; let them run */
#define BIOCSRTIMEOUT	_IOW('B', 6, unsigned long)	/* consumer: read timeout, virtual ms */
#define BIOCSWATCH	_IOW('B', 7, int)		/* consumer: a read returns when this pid exits */

int	trbufmap(void);

/* Schedule stream records the consumer adds (docs/trace-bundle.md section 3). */
#define TRBUF_REC_OVERFLOW	0x20	/* uleb(pointer at the drain) */
#define TRBUF_REC_END		0x21	/* uleb(total trace bytes) */

#endif /* !_SYS_TRBUF_H_ */
