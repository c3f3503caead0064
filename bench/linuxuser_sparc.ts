/**
 * The SPARC adapter of the Linux layer (bench/linuxuser.ts): a tiny "kernel" in TypeScript that
 * runs one Linux sparc32 executable on emu's SparcCpu the way qemu-sparc does — ELF loading, the
 * initial stack, SRMMU page tables with demand-zero stack and heap, window overflow/underflow and
 * ST_FLUSH_WINDOWS serviced by spilling and filling at %sp, and the Linux system calls of
 * linuxuser.ts with sparc32 numbers (`ta 0x10`, %g1, %o0-%o5, carry = error), flags, errno
 * values and structure layouts. Faults end the process with the signal Linux delivers.
 *
 * It drives the CPU only through the kernel interface of cpu/sparc (run, returnFromTrap, the
 * window helpers, the MMU registers and flushes), so it doubles as a test of that interface.
 */
import { readFileSync } from 'node:fs';
import { PhysMem } from '../cpu/physmem.js';
import { SparcCpu, RUN_BUDGET, RUN_ERROR, type EngineName } from '../cpu/sparc/index.js';
import { ET_PTE, FLUSH_PAGE, MMU_CTRL_E } from '../cpu/sparc/mmu.js';
import { srmmuPte, srmmuPtd, srmmuPteAddr } from '../os/sparc/pmap.js';
import { PSR_EF, PSR_S, ICC_C } from '../cpu/sparc/state.js';
import {
  TT_CP_DISABLED, TT_DATA_ACCESS_ERROR, TT_DATA_ACCESS_EXCEPTION, TT_DIVISION_BY_ZERO, TT_FP_DISABLED,
  TT_FP_EXCEPTION, TT_ILLEGAL_INSTRUCTION, TT_INSTRUCTION_ACCESS_ERROR, TT_INSTRUCTION_ACCESS_EXCEPTION,
  TT_MEM_ADDRESS_NOT_ALIGNED, TT_PRIVILEGED_INSTRUCTION, TT_TAG_OVERFLOW, TT_TRAP_INSTRUCTION, TT_WIN_OVF,
  TT_WIN_UNF, trapName,
} from '../cpu/sparc/traps.js';
import { flushWindows, windowOverflow, windowUnderflow, type WindowFault } from '../cpu/sparc/windows.js';
import { EM_SPARC, PF_W, PF_X, PT_LOAD, parseElf } from '../format/elf.js';
import { LinuxUser, SyscallError, type Errno, type GuestMemory, type OpenFlags, type StatInfo } from './linuxuser.js';

const PAGE = 4096;
/** Linux signal numbers (sparc). */
export const SIGILL = 4;
export const SIGTRAP = 5;
export const SIGEMT = 7;
export const SIGFPE = 8;
export const SIGBUS = 10;
export const SIGSEGV = 11;

/** Linux sparc errno values (asm/errno.h of sparc, SunOS-derived above 34). */
const ERRNO_SPARC: Record<Errno, number> = {
  EPERM: 1, ENOENT: 2, ESRCH: 3, EINTR: 4, EIO: 5, EBADF: 9, ECHILD: 10, EAGAIN: 11, ENOMEM: 12, EACCES: 13,
  EFAULT: 14, EEXIST: 17, EXDEV: 18, ENOTDIR: 20, EISDIR: 21, EINVAL: 22, EMFILE: 24, ENOTTY: 25, ESPIPE: 29,
  EPIPE: 32, ERANGE: 34, ENAMETOOLONG: 63, ENOSYS: 90, ENOTEMPTY: 66,
};

/** ST_* software traps of Linux sparc32 (`ta n` raises trap_instruction 0x80 + n). */
const ST_FLUSH_WINDOWS = 0x03;
const ST_LINUX_SYSCALL = 0x10;
const ST_OLD_LINUX_SYSCALL = 0x08;

/** SRMMU access permissions of user pages (ACC field). */
const ACC_RW = 1;
const ACC_RX = 2;
const ACC_RWX = 3;

export interface SparcLinuxOptions {
  /** Executable path (or its bytes with a name). */
  elf: string | { name: string; bytes: Uint8Array };
  engine: EngineName;
  /** argv, argv[0] included. */
  argv: string[];
  env?: string[];
  stdin?: Uint8Array;
  sandbox?: string;
  memSize?: number;
  /** Put the initial %sp here (per-instruction comparison with qemu-user's log). */
  initialSp?: number;
  nwindows?: number;
  /** SRMMU context number the process runs in. */
  context?: number;
}

export interface ExitInfo {
  status: number | null;
  signal: number | null;
}

export class SparcLinuxProcess {
  readonly mem: PhysMem;
  readonly cpu: SparcCpu;
  readonly user: LinuxUser;
  readonly entry: number;
  private nextPage = 0;
  private readonly l1: number;
  private readonly stackLow: number;
  private readonly stackTop: number;
  /** Traps other than syscalls and window traps the kernel handled, by name (diagnostics). */
  readonly faults = new Map<string, number>();
  /** Window traps serviced. */
  windowTraps = 0;

  readonly mm: GuestMemory;

  constructor(o: SparcLinuxOptions) {
    const { name, bytes } = typeof o.elf === 'string' ? { name: o.elf, bytes: readFileSync(o.elf) } : o.elf;
    const elf = parseElf(bytes, name);
    if (elf.header.machine !== EM_SPARC) throw new Error(`${name}: not a SPARC (EM_SPARC) executable`);
    this.mem = new PhysMem(o.memSize ?? 64 << 20, 'big');
    this.cpu = new SparcCpu(this.mem, { engine: o.engine, nwindows: o.nwindows ?? 8 });
    this.entry = elf.header.entry;
    // SRMMU tables: context table, then a level-1 table for our context.
    const ctxTable = this.allocPage();
    this.l1 = this.allocPage();
    const ctx = o.context ?? 1;
    this.mem.write32(ctxTable + ctx * 4, srmmuPtd(this.l1));
    this.cpu.mmu.setCtpr((ctxTable >>> 6) << 2);
    this.cpu.mmu.setContext(ctx);
    this.cpu.mmu.setControl(MMU_CTRL_E);
    let end = 0;
    for (const ph of elf.programHeaders) {
      if (ph.type !== PT_LOAD || ph.memsz === 0) continue;
      const acc = (ph.flags & PF_W) ? ((ph.flags & PF_X) ? ACC_RWX : ACC_RW) : ACC_RX;
      for (let va = ph.vaddr & ~(PAGE - 1); va < ph.vaddr + ph.memsz; va += PAGE) this.mapPage(va, acc);
      this.copyOut(ph.vaddr, bytes.subarray(ph.offset, ph.offset + ph.filesz));
      end = Math.max(end, ph.vaddr + ph.memsz);
    }
    const brk = (end + PAGE - 1) & ~(PAGE - 1);
    this.user = new LinuxUser({ sandbox: o.sandbox, stdin: o.stdin, brk });
    this.mm = {
      read: (va, n) => this.copyIn(va, n),
      write: (va, b) => this.copyOut(va, b),
    };
    // Stack: 8 MiB below the top, demand-zero (qemu-sparc puts it near 0x40800000).
    this.stackTop = o.initialSp !== undefined ? ((o.initialSp >>> 0) + 16 * PAGE) & ~(PAGE - 1) : 0xf0000000;
    this.stackLow = this.stackTop - (8 << 20);
    const sp = this.buildStack(o.argv, o.env ?? [], o.initialSp);
    // Enter user mode the architectural way: from a trap window (T = N - 1) with PS = 0, RETT to
    // the entry point; the user runs in window 0 (as under qemu) with WIM marking window 1, so
    // the first RESTORE out of _start would underflow and SAVEs use windows N-1 .. 2.
    const cpu = this.cpu;
    const n = cpu.nwindows;
    cpu.psr = PSR_S | PSR_EF | (n - 1);
    cpu.setWim(1 << 1);
    cpu.tba = 0;
    cpu.setWindowReg(0, 14, sp);
    if (!cpu.returnFromTrap(this.entry, this.entry + 4)) throw new Error('test kernel: cannot enter user mode');
  }

  // ---- memory ----
  private allocPage(): number {
    const pa = this.nextPage * PAGE;
    if (pa + PAGE > this.mem.size) throw new Error('test kernel: out of physical memory');
    this.nextPage++;
    this.mem.zero(pa, PAGE);
    return pa;
  }

  /** The level-3 PTE address for va, creating level-2/3 tables on the way when `create`. */
  private pteAddr(va: number, create: boolean): number {
    return srmmuPteAddr(this.mem, this.l1, va, create ? () => this.allocPage() : null);
  }

  private mapPage(va: number, acc: number): number {
    const pte = this.pteAddr(va >>> 0, true);
    const old = this.mem.read32(pte) >>> 0;
    if ((old & 3) === ET_PTE) return (old >>> 8) << 12;
    const pa = this.allocPage();
    this.mem.write32(pte, srmmuPte(pa, acc));
    // A new PTE: flush any TLB entry that could hold the old (invalid) one.
    this.cpu.mmu.flush(FLUSH_PAGE, va & ~(PAGE - 1));
    return pa;
  }

  /** Physical page base of va, allocating stack and heap pages on first touch; -1 if unmapped. */
  private page(va: number): number {
    va >>>= 0;
    const pte = this.pteAddr(va, false);
    if (pte >= 0) {
      const e = this.mem.read32(pte) >>> 0;
      if ((e & 3) === ET_PTE) return (e >>> 8) << 12;
    }
    const inStack = va >= this.stackLow && va < this.stackTop;
    const inHeap = va >= this.user.brkStart && va < ((this.user.brkCur + PAGE - 1) & ~(PAGE - 1));
    return inStack || inHeap ? this.mapPage(va, ACC_RW) : -1;
  }

  copyIn(va: number, n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let o = 0; o < n;) {
      const a = (va + o) >>> 0;
      const p = this.page(a);
      if (p < 0) throw new SyscallError('EFAULT');
      const chunk = Math.min(n - o, PAGE - (a & (PAGE - 1)));
      out.set(this.mem.readBytes(p | (a & (PAGE - 1)), chunk), o);
      o += chunk;
    }
    return out;
  }

  copyOut(va: number, b: Uint8Array): void {
    for (let o = 0; o < b.length;) {
      const a = (va + o) >>> 0;
      const p = this.page(a);
      if (p < 0) throw new SyscallError('EFAULT');
      const chunk = Math.min(b.length - o, PAGE - (a & (PAGE - 1)));
      this.mem.writeBytes(p | (a & (PAGE - 1)), b.subarray(o, o + chunk));
      // Keep translated code coherent with what the kernel writes.
      if (this.cpu.mmu.codePages[p >>> 12]) this.cpu.translator.invalidatePage(p >>> 12);
      o += chunk;
    }
  }

  private u32(v: number): Uint8Array {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, false);
    return b;
  }

  private readString(va: number): string {
    const parts: number[] = [];
    for (let a = va; ; a++) {
      const c = this.copyIn(a, 1)[0]!;
      if (c === 0) break;
      parts.push(c);
      if (parts.length > 4096) throw new SyscallError('ENAMETOOLONG');
    }
    return Buffer.from(parts).toString('latin1');
  }

  /**
   * The sparc32 process start: a 64-byte window save area at %sp, then argc, argv[], NULL,
   * envp[], NULL, auxv (AT_PAGESZ, AT_ENTRY, AT_NULL); strings at the top of the stack.
   */
  private buildStack(argv: string[], env: string[], wantSp?: number): number {
    let top = this.stackTop;
    const put = (s: string): number => {
      const b = Buffer.from(`${s}\0`, 'latin1');
      top -= b.length;
      this.copyOut(top, b);
      return top;
    };
    const argp = argv.map(put);
    const envp = env.map(put);
    top &= ~15;
    const words = [argv.length, ...argp, 0, ...envp, 0, 6, PAGE, 9, this.entry, 0, 0];
    const sp = wantSp !== undefined ? wantSp >>> 0 : (top - 64 - words.length * 4) & ~7;
    if (sp + 64 + words.length * 4 > top) throw new Error(`test kernel: initial stack at ${sp.toString(16)} overlaps its strings`);
    this.copyOut(sp, new Uint8Array(64));
    words.forEach((w, k) => this.copyOut(sp + 64 + 4 * k, this.u32(w)));
    return sp;
  }

  // ---- execution ----
  get done(): boolean {
    return this.user.done;
  }

  exitInfo(): ExitInfo {
    return { status: this.user.exitStatus, signal: this.user.termSignal };
  }

  /** Runs until the process ends or `limit` instructions retired; returns instructions retired. */
  run(limit = Infinity, slice = 1 << 20): number {
    const start = this.cpu.instret;
    while (!this.done) {
      const left = limit - (this.cpu.instret - start);
      if (left <= 0) break;
      const stop = this.cpu.run(Math.min(left, slice));
      if (stop !== RUN_BUDGET) this.handleTrap(stop);
    }
    return this.cpu.instret - start;
  }

  /**
   * Executes exactly one instruction to retirement, servicing the traps on its way (window
   * traps, page faults, the syscall it makes). Returns false when the process has ended.
   */
  stepOne(): boolean {
    const before = this.cpu.instret;
    while (!this.done) {
      const stop = this.cpu.stepOne();
      if (stop === RUN_BUDGET) return true;
      this.handleTrap(stop);
      if (this.cpu.instret !== before) return !this.done;
    }
    return false;
  }

  /** The kernel's trap handler: entered with the CPU in the trap window. */
  handleTrap(stop: number): void {
    const cpu = this.cpu;
    if (stop === RUN_ERROR) throw new Error(`test kernel: CPU in error mode (${trapName(cpu.tt)}) at pc ${cpu.pc >>> 0}`);
    const tt = cpu.tt;
    if (tt !== TT_WIN_OVF && tt !== TT_WIN_UNF && tt !== TT_TRAP_INSTRUCTION + ST_LINUX_SYSCALL) {
      const name = trapName(tt);
      this.faults.set(name, (this.faults.get(name) ?? 0) + 1);
    }
    switch (tt) {
      case TT_WIN_OVF:
        this.windowTraps++;
        return this.windowRetry(windowOverflow(cpu));
      case TT_WIN_UNF:
        this.windowTraps++;
        return this.windowRetry(windowUnderflow(cpu));
      case TT_TRAP_INSTRUCTION + ST_LINUX_SYSCALL:
      case TT_TRAP_INSTRUCTION + ST_OLD_LINUX_SYSCALL:
        this.syscall();
        if (!this.done) this.resumeNext();
        return;
      case TT_TRAP_INSTRUCTION + ST_FLUSH_WINDOWS: {
        const f = flushWindows(cpu);
        if (f && !this.resolveWindowFault(f)) return this.kill(SIGSEGV);
        if (f) return this.handleTrap(stop);
        return this.resumeNext();
      }
      case TT_DATA_ACCESS_EXCEPTION:
      case TT_INSTRUCTION_ACCESS_EXCEPTION: {
        const sfsr = cpu.mmu.readSfsr();
        const va = cpu.mmu.sfar >>> 0;
        // Demand-zero stack and heap: map and re-execute; anything else is SIGSEGV.
        const ft = (sfsr >>> 2) & 7;
        if (tt === TT_DATA_ACCESS_EXCEPTION && ft === 1 && this.page(va) >= 0) return this.resumeRetry();
        return this.kill(SIGSEGV);
      }
      case TT_DATA_ACCESS_ERROR:
      case TT_INSTRUCTION_ACCESS_ERROR:
      case TT_MEM_ADDRESS_NOT_ALIGNED:
        return this.kill(SIGBUS);
      case TT_ILLEGAL_INSTRUCTION:
      case TT_PRIVILEGED_INSTRUCTION:
      case TT_FP_DISABLED:
      case TT_CP_DISABLED:
        return this.kill(SIGILL);
      case TT_FP_EXCEPTION:
      case TT_DIVISION_BY_ZERO:
        return this.kill(SIGFPE);
      case TT_TAG_OVERFLOW:
        return this.kill(SIGEMT);
      default:
        if (tt >= TT_TRAP_INSTRUCTION) return this.kill(tt === TT_TRAP_INSTRUCTION + 1 ? SIGTRAP : tt === TT_TRAP_INSTRUCTION + 2 ? SIGFPE : SIGILL);
        return this.kill(SIGBUS);
    }
  }

  /** After a window helper: re-execute SAVE/RESTORE, or map a stack page and try again. */
  private windowRetry(f: WindowFault | undefined): void {
    if (!f) return this.resumeRetry();
    if (!this.resolveWindowFault(f)) return this.kill(SIGSEGV);
    // The page is there now; let the CPU raise the window trap again.
    this.resumeRetry();
  }

  private resolveWindowFault(f: WindowFault): boolean {
    if (f.tt === TT_MEM_ADDRESS_NOT_ALIGNED) return false;
    return this.page(f.va) >= 0;
  }

  /** Return from trap re-executing the trapping instruction (%l1, %l2). */
  private resumeRetry(): void {
    const cpu = this.cpu;
    if (!cpu.returnFromTrap(cpu.trapPc, cpu.trapNpc)) throw new Error('test kernel: RETT failed');
  }

  /** Return from trap after the trapping instruction (%l2, %l2 + 4). */
  private resumeNext(): void {
    const cpu = this.cpu;
    const npc = cpu.trapNpc;
    if (!cpu.returnFromTrap(npc, (npc + 4) | 0)) throw new Error('test kernel: RETT failed');
  }

  private kill(sig: number): void {
    this.user.termSignal = sig;
  }

  // ---- system calls (trap window: the user's %o registers are our %i registers) ----

  private arg(k: number): number {
    return this.cpu.getReg(24 + k) >>> 0;
  }

  private syscall(): void {
    const cpu = this.cpu;
    const nr = cpu.getReg(1) >>> 0;
    let v: number;
    let err = false;
    try {
      v = this.dispatch(nr);
    } catch (e) {
      if (!(e instanceof SyscallError)) throw e;
      v = ERRNO_SPARC[e.errno];
      err = true;
    }
    if (this.done) return;
    cpu.setReg(24, v);
    cpu.icc = err ? cpu.icc | ICC_C : cpu.icc & ~ICC_C;
  }

  private openFlags(f: number): OpenFlags {
    const acc = f & 3;
    return {
      read: acc === 0 || acc === 2, write: acc === 1 || acc === 2, append: (f & 0x8) !== 0, create: (f & 0x200) !== 0,
      trunc: (f & 0x400) !== 0, excl: (f & 0x800) !== 0, directory: (f & 0x10000) !== 0,
    };
  }

  /** struct stat64 of Linux sparc32 (104 bytes, big-endian). */
  private packStat(s: StatInfo): Uint8Array {
    const b = new Uint8Array(104);
    const dv = new DataView(b.buffer);
    const u64 = (o: number, v: number): void => {
      dv.setUint32(o, Math.floor(v / 4294967296), false);
      dv.setUint32(o + 4, v >>> 0, false);
    };
    u64(0, s.dev);
    u64(8, s.ino);
    dv.setUint32(16, s.mode, false);
    dv.setUint32(20, s.nlink, false);
    dv.setUint32(24, s.uid, false);
    dv.setUint32(28, s.gid, false);
    u64(32, s.rdev);
    u64(48, s.size);
    dv.setUint32(56, s.blksize, false);
    dv.setUint32(68, s.blocks, false);
    dv.setUint32(72, s.atime, false);
    dv.setUint32(80, s.mtime, false);
    dv.setUint32(88, s.ctime, false);
    return b;
  }

  private dispatch(nr: number): number {
    const u = this.user;
    const a = (k: number): number => this.arg(k);
    const mm = this.mm;
    switch (nr) {
      case 1: case 188: u.exit(a(0)); return 0; // exit, exit_group
      case 3: return u.read(a(0), a(1), a(2), mm);
      case 4: return u.write(a(0), a(1), a(2), mm);
      case 5: return u.open(this.readString(a(0)), this.openFlags(a(1)), a(2));
      case 6: return u.close(a(0));
      case 10: return u.unlink(this.readString(a(0)));
      case 12: return u.chdir(this.readString(a(0)));
      case 15: return 0; // chmod
      case 17: return u.brk(a(0));
      case 19: return u.lseek(a(0), a(1) | 0, a(2));
      case 20: return u.getpid();
      case 24: case 47: case 49: case 50: return 1000; // getuid getgid geteuid getegid
      case 33: return u.access(this.readString(a(0)));
      case 37: return u.kill(a(0) | 0, a(1));
      case 41: return u.dup(a(0));
      case 54: u.tcgets(a(0)); return 0; // ioctl: no terminals here
      case 60: return u.umask(a(0));
      case 63: mm.write(a(1), this.packStat(u.fstat(a(0)))); return 0; // fstat64
      case 81: return u.getpid(); // getpgrp
      case 90: return u.dup2(a(0), a(1));
      case 92: { // fcntl
        const fd = a(0);
        const cmd = a(1);
        if (cmd === 0) return u.dup(fd, a(2)); // F_DUPFD
        u.fstat(fd); // EBADF check
        return cmd === 3 ? 2 : 0; // F_GETFL: O_RDWR; F_GETFD/F_SETFD/F_SETFL: 0
      }
      case 102: if (a(2) !== 0) mm.write(a(2), new Uint8Array(20)); return 0; // rt_sigaction
      case 103: if (a(2) !== 0) mm.write(a(2), new Uint8Array(8)); return 0; // rt_sigprocmask
      case 116: { // gettimeofday
        if (a(0) !== 0) mm.write(a(0), new Uint8Array([...this.u32(946684800), ...this.u32(0)]));
        if (a(1) !== 0) mm.write(a(1), new Uint8Array(8));
        return 0;
      }
      case 117: mm.write(a(1), new Uint8Array(72)); return 0; // getrusage
      case 119: { // getcwd
        const s = Buffer.from(`${u.getcwd()}\0`, 'latin1');
        if (s.length > a(1)) throw new SyscallError('ERANGE');
        mm.write(a(0), s);
        return s.length;
      }
      case 128: return u.rename(this.readString(a(0)), this.readString(a(1)));
      case 132: mm.write(a(1), this.packStat(u.stat(this.readString(a(0)), false))); return 0; // lstat64
      case 136: return u.mkdir(this.readString(a(0)), a(1));
      case 137: return u.rmdir(this.readString(a(0)));
      case 139: mm.write(a(1), this.packStat(u.stat(this.readString(a(0))))); return 0; // stat64
      case 185: return 0; // setpgid
      case 197: return u.getppid();
      case 236: { // _llseek(fd, hi, lo, result*, whence)
        // hi is signed: (hi | 0) * 2^32 + lo is exact, where hi * 2^32 + lo - 2^64 is not
        // representable in a double for small negative offsets.
        const p = u.lseek(a(0), (a(1) | 0) * 4294967296 + a(2), a(4));
        mm.write(a(3), new Uint8Array([...this.u32(Math.floor(p / 4294967296)), ...this.u32(p)]));
        return 0;
      }
      case 245: case 249: return 0; // sched_yield, nanosleep
      default:
        return u.unimplemented(`syscall ${nr}`);
    }
  }
}
