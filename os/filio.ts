/**
 * The generic file ioctl requests (4.4BSD <sys/filio.h>; docs/abi.md "ioctl"), which every kind of
 * file answers — descriptors (sys_generic.ts), vnodes (vfs_vnops.ts), pipes, devices — so they sit
 * below all of them, apart from any one driver's requests.
 */
import { _IOC, IOC_IN, IOC_OUT, IOC_VOID } from '../format/ioccom.js';

/** Set and clear close-on-exec. */
export const FIOCLEX = _IOC(IOC_VOID, 'f', 1, 0);
export const FIONCLEX = _IOC(IOC_VOID, 'f', 2, 0);
/** The bytes a read would return now (an int). */
export const FIONREAD = _IOC(IOC_OUT, 'f', 127, 4);
/** Set or clear non-blocking I/O (an int). */
export const FIONBIO = _IOC(IOC_IN, 'f', 126, 4);
