/**
 * The guest ABI of /dev/trbuf, the multi-tasking trace buffer (mazieres-smith-1994 section 3.2;
 * docs/trace-bundle.md section 4; <sys/trbuf.h> of the guest libc): its path and its ioctl
 * requests. The kernel implements them (os/trbuf.ts); the instrumenter's prologue does what
 * opening the device and BIOCMAP do with one system call instead, trbufmap (os/sys_trbuf.ts,
 * tracer/rewrite.ts); the consumer bdump issues the others.
 */
import { _IOC, IOC_IN, IOC_OUT, IOC_VOID } from './ioccom.js';

export const TRBUF_PATH = '/dev/trbuf';

/** Map the buffer into the calling process, which becomes traced (PRTRC_TRC). */
export const BIOCMAP = _IOC(IOC_VOID, 'B', 1, 0);
/** _IOWR('B', 2, struct trbuf_info), 16 bytes: map the buffer read-only into the consumer. */
export const BIOCSMAP = _IOC(IOC_IN | IOC_OUT, 'B', 2, 16);
/** _IOR('B', 3, struct trbuf_stat), 16 bytes. */
export const BIOCGSTAT = _IOC(IOC_OUT, 'B', 3, 16);
export const BIOCBLOCK = _IOC(IOC_VOID, 'B', 4, 0);
export const BIOCUNBLK = _IOC(IOC_VOID, 'B', 5, 0);
/** _IOW('B', 6, unsigned long): read timeout in virtual milliseconds. */
export const BIOCSRTIMEOUT = _IOC(IOC_IN, 'B', 6, 4);
/** _IOW('B', 7, int): the process whose exit ends a read (the consumer's workload). */
export const BIOCSWATCH = _IOC(IOC_IN, 'B', 7, 4);

/**
 * An instrumented executable's translation table: the word at XLAT_BASE + a is where control
 * goes for original code address a (tracer/sequences.ts lookupSeq). The kernel enters a traced
 * process's signal trampoline through it (os/trbuf.ts).
 */
export const XLAT_BASE = 0x30000000;
