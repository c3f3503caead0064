/*
 * The trace buffer device /dev/trbuf (mazieres-smith-1994 section 3.2; DESIGN.md section 4).
 * Shared by the guest programs and emu's kernel (os/trbuf.ts defines the same numbers;
 * test/tracer/trbuf.test.ts checks that they agree).
 *
 * An instrumented program opens TRBUF_PATH and issues ioctl(fd, BIOCMAP): the kernel maps the
 * buffer right below TRBUF_END (its guard page at TRBUF_END stays unmapped) and points the trace
 * register (MIPS k0, SPARC %g6) at its first free byte. The consumer maps it with BIOCSMAP and
 * learns where the trace and schedule buffers are from struct trbuf_info.
 */
#ifndef _SYS_TRBUF_H_
#define _SYS_TRBUF_H_

#include <sys/ioccom.h>

#define TRBUF_PATH	"/dev/trbuf"
#define TRBUF_END	0x20000000UL	/* the buffer ends here; the guard page starts here */
#define TRBUF_SIZE	(1024 * 1024)	/* default size */

struct trbuf_info {
	unsigned long	tb_base;	/* first byte of the trace buffer */
	unsigned long	tb_size;	/* its size in bytes */
	unsigned long	tb_sched;	/* schedule buffer (read with read(2)) */
	unsigned long	tb_schedsize;	/* its size in bytes */
};

#define BIOCMAP		_IO('B', 1)			/* map into a traced process */
#define BIOCSMAP	_IOWR('B', 2, struct trbuf_info)	/* map into the consumer */

#endif /* !_SYS_TRBUF_H_ */
