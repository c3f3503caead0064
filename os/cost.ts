/**
 * The cycle cost model of the kernel (docs/kernel.md section 5). A user instruction costs one
 * cycle; these are the modelled costs of kernel work, charged to the process the work is done
 * for. The figures are of the order of the handlers of a 25 MHz R3000 or SPARCstation 1 running
 * 4.4BSD: tens of instructions for a TLB refill or a window trap, hundreds for a system call or a
 * page fault, a page copy at about a word per cycle.
 */
export const COST = {
  /** Trap entry and exit (save/restore of the trap frame). */
  trap: 40,
  /** System-call dispatch on top of trap (argument fetch, sysent lookup). */
  syscall: 60,
  /** Per byte moved between user and kernel (copyin/copyout/uiomove). */
  copyPerByte: 0.25,
  /** MIPS UTLB refill handler (a dozen instructions on the R2000). */
  tlbRefill: 12,
  /** vm_fault on top of trap: map lookup, pmap update. */
  fault: 150,
  /** Zero-filling or copying a 4 KiB page (1024 words). */
  pageZero: 1024,
  pageCopy: 2048,
  /** A page of an executable filled from the buffer cache. */
  pageIn: 2048,
  /** SPARC window overflow/underflow handler: 16 word stores/loads plus the trap. */
  windowTrap: 30,
  /** cpu_switch: saving and restoring user state, address-space switch. */
  contextSwitch: 200,
  /** Signal delivery (frame build) and sigreturn. */
  sendsig: 300,
  /** fork1 on top of the syscall: proc, descriptor and map copies (per map entry extra). */
  fork: 2000,
  /** exec on top of the syscall: loader work (the file read is charged by the disk model). */
  exec: 3000,
} as const;
