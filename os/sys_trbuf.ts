/**
 * trbufmap(2) (os/syscalls.master): one system call doing for the caller what open("/dev/trbuf"),
 * ioctl(fd, BIOCMAP) and close(fd) do — the trace buffer reserved if nobody has yet, mapped into
 * the caller, the caller traced (PRTRC_TRC) from its return to user mode, where its pointer
 * register (MIPS k0, SPARC %g6) receives the shared pointer — and no descriptor left. It is the
 * instrumented program's prologue (tracer/rewrite.ts); the consumer keeps the device.
 *
 * The call belongs to the trace buffer's driver (os/trbuf.ts), which registers itself as
 * Kernel.trbuf when it is attached; a kernel without it answers ENXIO (4.4BSD's "device not
 * configured"), as a process opening the device finds no /dev/trbuf there. The call returns 0
 * in both result registers (MIPS v0 and v1, SPARC %o0 and %o1), the values exec left in them.
 */
import { ENXIO } from './errno.js';
import type { Kernel } from './kernel.js';
import type { Proc } from './proc.js';

/** What the trace buffer's driver provides to the call. */
export interface TrbufMapper {
  /** open + BIOCMAP for p: 0, or the errno the device would have returned. */
  mapTraced(p: Proc): number;
}

export function sys_trbufmap(k: Kernel, p: Proc, _args: Int32Array, rv: Int32Array): number {
  if (!k.trbuf) return ENXIO;
  const e = k.trbuf.mapTraced(p);
  if (e) return e;
  rv[0] = 0;
  rv[1] = 0;
  return 0;
}
