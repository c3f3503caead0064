/**
 * Kernel parameters (4.4BSD sys/param.h, vm_param.h, proc.h priorities, sys/types.h device
 * numbers) and the user address-space layout of each architecture (DESIGN.md section 3).
 */

export const PAGE_SIZE = 4096;
export const PGSHIFT = 12;
export const PGOFSET = PAGE_SIZE - 1;

export const trunc_page = (x: number): number => (x - (x % PAGE_SIZE)) >>> 0;
export const round_page = (x: number): number => (x % PAGE_SIZE === 0 ? x : x - (x % PAGE_SIZE) + PAGE_SIZE);

/** Default size of the process table (4.4BSD maxproc); `emu run --maxproc` overrides it. */
export const MAXPROC_DEFAULT = 64;
/** Highest pid before allocation wraps (4.4BSD PID_MAX). */
export const PID_MAX = 30000;
/** Descriptors per process (4.4BSD OPEN_MAX / RLIMIT_NOFILE default). */
export const NOFILE = 64;
/** Bytes of argument and environment strings exec accepts (4.4BSD ARG_MAX). */
export const ARG_MAX = 256 * 1024;
export const MAXPATHLEN = 1024;
export const MAXCOMLEN = 16;
export const NGROUPS = 16;

/** Data-segment limit (RLIMIT_DATA) and stack limit (RLIMIT_STACK) of every process. */
export const MAXDSIZ = 256 * 1024 * 1024;
export const MAXSSIZ = 8 * 1024 * 1024;

/** Scheduler priorities (4.4BSD sys/param.h): lower is better; sleeps at or below PZERO cannot be interrupted. */
export const PSWP = 0;
export const PVM = 4;
export const PINOD = 8;
export const PRIBIO = 16;
export const PVFS = 20;
export const PZERO = 22;
export const PSOCK = 24;
export const PWAIT = 32;
export const PLOCK = 36;
export const PPAUSE = 40;
export const PUSER = 50;
export const MAXPRI = 127;
/** tsleep flag: a signal interrupts the sleep. */
export const PCATCH = 0x100;
export const PRIMASK = 0x0ff;
/** 4.4BSD NICE_WEIGHT and the estcpu ceiling of resetpriority. */
export const NICE_WEIGHT = 2;
export const NZERO = 0;
/** p_estcpu saturates here (it was a u_char in 4.4BSD's struct proc). */
export const ESTCPU_MAX = 255;
export const NQS = 32;

/**
 * Device numbers (4.4BSD <sys/types.h>, which sys/param.h includes): the driver's major in bits
 * 8-15, the unit's minor in bits 0-7 (docs/kernel.md "Devices").
 */
export const makedev = (major: number, minor: number): number => (major << 8) | minor;
export const major = (dev: number): number => (dev >> 8) & 0xff;
export const minor = (dev: number): number => dev & 0xff;

/** The trace buffer of the tracing work sits right below this address with a guard page at it. */
export const TRBUF_END = 0x20000000;

export interface AddressLayout {
  /** Where the static executables are linked. */
  textBase: number;
  /** Top of the user stack (first address above it). */
  usrstack: number;
  /** Lowest address a user mapping may use (page 0 stays unmapped: null pointers fault). */
  minUser: number;
  /** First address that is not user space. */
  maxUser: number;
}

export const MIPS_LAYOUT: AddressLayout = { textBase: 0x00400000, usrstack: 0x80000000, minUser: PAGE_SIZE, maxUser: 0x80000000 };
export const SPARC_LAYOUT: AddressLayout = { textBase: 0x00010000, usrstack: 0xf8000000, minUser: PAGE_SIZE, maxUser: 0xf8000000 };
