/**
 * ioctl request words (4.4BSD <sys/ioccom.h>; docs/abi.md "ioctl"): the direction bits, the
 * parameter length, the group character and the number in one 32-bit word. The kernel decodes
 * requests by it (os/sys_generic.ts); every device ABI defines its requests with it.
 */
/** No parameters (a nonzero length: the parameter word itself, by value). */
export const IOC_VOID = 0x20000000;
/** Copy the parameters out to the caller after the call. */
export const IOC_OUT = 0x40000000;
/** Copy the parameters in before the call. */
export const IOC_IN = 0x80000000;
export const IOCPARM_MASK = 0x1fff;
export const IOCPARM_MAX = 4096;

/** _IOC(inout, group, num, len). */
export const _IOC = (inout: number, g: string, n: number, len: number): number =>
  (inout | ((len & IOCPARM_MASK) << 16) | (g.charCodeAt(0) << 8) | n) >>> 0;
