/**
 * Device numbers (4.4BSD <sys/types.h> makedev/major/minor) and the ioctl requests the kernel
 * answers (<sys/filio.h>, <sys/ttycom.h>; encoded by <sys/ioccom.h>, docs/abi.md): the
 * definitions the drivers (os/dev.ts), the vnode and pipe operations and the system calls share.
 */
import { _IOC, IOC_IN, IOC_OUT, IOC_VOID } from '../format/ioccom.js';

export const makedev = (major: number, minor: number): number => (major << 8) | minor;
export const major = (dev: number): number => (dev >> 8) & 0xff;
export const minor = (dev: number): number => dev & 0xff;

export const FIOCLEX = _IOC(IOC_VOID, 'f', 1, 0);
export const FIONCLEX = _IOC(IOC_VOID, 'f', 2, 0);
export const FIONREAD = _IOC(IOC_OUT, 'f', 127, 4);
export const FIONBIO = _IOC(IOC_IN, 'f', 126, 4);
export const TERMIOS_SIZE = 44;
export const TIOCGETA = _IOC(IOC_OUT, 't', 19, TERMIOS_SIZE);
export const TIOCSETA = _IOC(IOC_IN, 't', 20, TERMIOS_SIZE);
export const TIOCSETAW = _IOC(IOC_IN, 't', 21, TERMIOS_SIZE);
export const TIOCSETAF = _IOC(IOC_IN, 't', 22, TERMIOS_SIZE);
export const TIOCSWINSZ = _IOC(IOC_IN, 't', 103, 8);
export const TIOCGWINSZ = _IOC(IOC_OUT, 't', 104, 8);
export const TIOCSPGRP = _IOC(IOC_IN, 't', 118, 4);
export const TIOCGPGRP = _IOC(IOC_OUT, 't', 119, 4);

