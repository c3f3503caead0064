/**
 * The MIPS adapter of the Linux layer (bench/linuxuser.ts): a tiny "kernel" in TypeScript that
 * runs one Linux o32 executable on emu's MipsCpu the way qemu-mipsel/qemu-mips do — ELF loading,
 * the initial stack, demand-zero stack and heap, TLB refill through the architectural registers, and the
 * Linux system calls of linuxuser.ts with o32 numbers, registers, flags, errno values and
 * structure layouts. Faults end the process with the signal qemu-user delivers.
 *
 * It drives the CPU only through the kernel interface of cpu/mips/cpu.ts (run, CP0, TLB,
 * returnFromException), so it doubles as a test of that interface.
 */
import { readFileSync } from 'node:fs';
import { PhysMem } from '../cpu/physmem.js';
import { MipsCpu, STOP_BUDGET } from '../cpu/mips/cpu.js';
import { createEngine, type EngineName } from '../cpu/mips/index.js';
import {
  CAUSE_BD, ENTRYLO_D, ENTRYLO_V, EXC_ADEL, EXC_ADES, EXC_BP, EXC_CPU, EXC_INT, EXC_MOD, EXC_OV, EXC_RI, EXC_SYS, EXC_TLBL,
  EXC_TLBS, SR_CU1, SR_IEP, SR_IM_MASK, SR_KUP, VEC_UTLB, EXC_NAMES,
} from '../cpu/mips/cp0.js';
import { EM_MIPS, PF_W, PT_LOAD, parseElf } from '../format/elf.js';
import { LinuxUser, SyscallError, type Errno, type GuestMemory, type OpenFlags, type StatInfo } from './linuxuser.js';

const PAGE = 4096;
/** Linux signal numbers (MIPS). */
export const SIGILL = 4;
export const SIGTRAP = 5;
export const SIGFPE = 8;
export const SIGBUS = 10;
export const SIGSEGV = 11;

const ERRNO_MIPS: Record<Errno, number> = {
  EPERM: 1, ENOENT: 2, ESRCH: 3, EINTR: 4, EIO: 5, EBADF: 9, ECHILD: 10, EAGAIN: 11, ENOMEM: 12, EACCES: 13,
  EFAULT: 14, EEXIST: 17, EXDEV: 18, ENOTDIR: 20, EISDIR: 21, EINVAL: 22, EMFILE: 24, ENOTTY: 25, ESPIPE: 29,
  EPIPE: 32, ERANGE: 34, ENAMETOOLONG: 78, ENOSYS: 89, ENOTEMPTY: 93,
};

export interface MipsLinuxOptions {
  /** Executable path (or its bytes with a name). */
  elf: string | { name: string; bytes: Uint8Array };
  engine: EngineName;
  /** argv, argv[0] included. */
  argv: string[];
  env?: string[];
  stdin?: Uint8Array;
  sandbox?: string;
  memSize?: number;
  /** Put the initial sp here (per-instruction comparison with qemu-user's log). */
  initialSp?: number;
  /** ASID the process runs with. */
  asid?: number;
}

export interface ExitInfo {
  status: number | null;
  signal: number | null;
}

export class MipsLinuxProcess {
  readonly mem: PhysMem;
  readonly cpu: MipsCpu;
  readonly user: LinuxUser;
  readonly entry: number;
  /** vpn -> physical page number + 1 (0: unmapped), and the page's write permission. */
  private readonly ptab = new Int32Array(1 << 19);
  private readonly writable = new Uint8Array(1 << 19);
  private nextPpn = 1;
  private readonly stackLow: number;
  private readonly stackTop: number;
  /** Exceptions the kernel handled, by exception code (diagnostics). */
  private readonly excCounts = new Float64Array(32);
  readonly mm: GuestMemory;

  constructor(o: MipsLinuxOptions) {
    const { name, bytes } = typeof o.elf === 'string' ? { name: o.elf, bytes: readFileSync(o.elf) } : o.elf;
    const elf = parseElf(bytes, name);
    if (elf.header.machine !== EM_MIPS) throw new Error(`${name}: not a MIPS executable`);
    this.mem = new PhysMem(o.memSize ?? 64 << 20, elf.bigEndian ? 'big' : 'little');
    this.cpu = new MipsCpu({ mem: this.mem });
    this.cpu.setEngine(createEngine(o.engine, this.cpu));
    this.entry = elf.header.entry;
    let end = 0;
    for (const ph of elf.programHeaders) {
      if (ph.type !== PT_LOAD || ph.memsz === 0) continue;
      const w = (ph.flags & PF_W) !== 0;
      for (let va = ph.vaddr & ~(PAGE - 1); va < ph.vaddr + ph.memsz; va += PAGE) this.mapPage(va >>> 12, w);
      this.copyOut(ph.vaddr, bytes.subarray(ph.offset, ph.offset + ph.filesz));
      end = Math.max(end, ph.vaddr + ph.memsz);
    }
    const brk = (end + PAGE - 1) & ~(PAGE - 1);
    this.user = new LinuxUser({ sandbox: o.sandbox, stdin: o.stdin, brk });
    this.mm = {
      read: (va, n) => this.copyIn(va, n),
      write: (va, b) => this.copyOut(va, b),
    };
    // Stack: 8 MiB below the top, demand-zero.
    this.stackTop = o.initialSp !== undefined ? ((o.initialSp >>> 0) + PAGE) & ~(PAGE - 1) : 0x80000000;
    this.stackLow = this.stackTop - (8 << 20);
    const sp = this.buildStack(o.argv, o.env ?? [], o.initialSp);
    // Enter user mode the architectural way: KUp/IEp set, rfe + jump to the entry point.
    const asid = (o.asid ?? 1) & 63;
    this.cpu.writeCp0(10, asid << 6);
    this.cpu.setStatus(SR_CU1 | SR_IM_MASK | SR_KUP | SR_IEP);
    this.cpu.r[29] = sp;
    this.cpu.returnFromException(this.entry);
  }

  // ---- memory ----
  private mapPage(vpn: number, w: boolean): number {
    if (this.ptab[vpn] === 0) {
      const ppn = this.nextPpn++;
      if (ppn >= this.mem.size >>> 12) throw new Error('test kernel: out of physical memory');
      this.mem.zero(ppn << 12, PAGE);
      this.ptab[vpn] = ppn + 1;
    }
    if (w) this.writable[vpn] = 1;
    return this.ptab[vpn]! - 1;
  }

  /** Physical page of vpn, allocating stack and heap pages on first touch; -1 if not mapped. */
  private page(vpn: number): number {
    if (vpn >= 1 << 19) return -1;
    if (this.ptab[vpn] !== 0) return this.ptab[vpn]! - 1;
    const va = vpn << 12;
    const inStack = va >= this.stackLow && va < this.stackTop;
    const inHeap = va >= this.user.brkStart && va < ((this.user.brkCur + PAGE - 1) & ~(PAGE - 1));
    return inStack || inHeap ? this.mapPage(vpn, true) : -1;
  }

  copyIn(va: number, n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let o = 0; o < n;) {
      const a = (va + o) >>> 0;
      const p = this.page(a >>> 12);
      if (p < 0) throw new SyscallError('EFAULT');
      const chunk = Math.min(n - o, PAGE - (a & (PAGE - 1)));
      out.set(this.mem.readBytes((p << 12) | (a & (PAGE - 1)), chunk), o);
      o += chunk;
    }
    return out;
  }

  copyOut(va: number, b: Uint8Array): void {
    for (let o = 0; o < b.length;) {
      const a = (va + o) >>> 0;
      const p = this.page(a >>> 12);
      if (p < 0) throw new SyscallError('EFAULT');
      const chunk = Math.min(b.length - o, PAGE - (a & (PAGE - 1)));
      this.mem.writeBytes((p << 12) | (a & (PAGE - 1)), b.subarray(o, o + chunk));
      o += chunk;
    }
  }

  private u32(v: number): Uint8Array {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, !this.cpu.bigEndian);
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

  /** argc, argv, envp, auxv at sp; strings at the top of the stack (Linux/qemu-user order). */
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
    const words = [argv.length, ...argp, 0, ...envp, 0, 6, PAGE, 9, this.entry, 0, 0]; // AT_PAGESZ, AT_ENTRY, AT_NULL
    const sp = wantSp !== undefined ? wantSp >>> 0 : (top - words.length * 4) & ~7;
    if (sp + words.length * 4 > top) throw new Error(`test kernel: initial stack at ${sp.toString(16)} overlaps its strings`);
    words.forEach((w, k) => this.copyOut(sp + 4 * k, this.u32(w)));
    return sp;
  }

  /** Exceptions other than syscalls the kernel handled, by name (diagnostics). */
  get faults(): Map<string, number> {
    const m = new Map<string, number>();
    this.excCounts.forEach((n, code) => {
      if (n > 0 && code !== EXC_SYS) m.set(EXC_NAMES[code] ?? String(code), n);
    });
    return m;
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
    const start = this.cpu.icount;
    let stuck = 0;
    while (!this.done) {
      const left = limit - (this.cpu.icount - start);
      if (left <= 0) break;
      const before = this.cpu.icount;
      const stop = this.cpu.run(Math.min(left, slice));
      if (stop !== STOP_BUDGET) this.handleException();
      stuck = this.cpu.icount === before ? stuck + 1 : 0;
      if (stuck > 1000) throw new Error(`test kernel: no progress at pc ${this.cpu.pc.toString(16)} (${EXC_NAMES[this.cpu.excCode]})`);
    }
    return this.cpu.icount - start;
  }

  /**
   * Executes exactly one instruction to retirement, handling the exceptions in its way (TLB
   * refills before it, the syscall it makes). Returns false when the process has ended. A refill
   * for an instruction in a delay slot returns to its branch (EPC, Cause.BD): the branch runs
   * again, then the instruction, as on the hardware.
   */
  stepOne(): boolean {
    const before = this.cpu.icount;
    const start = this.cpu.pc;
    let restart = false;
    for (let tries = 0; !this.done; tries++) {
      if (tries > 1000) throw new Error(`test kernel: no progress at pc ${this.cpu.pc.toString(16)} (${EXC_NAMES[this.cpu.excCode]})`);
      const at = this.cpu.pc;
      const stop = this.cpu.run(1);
      if (stop === STOP_BUDGET) {
        if (restart && at !== start) continue;
        return true;
      }
      const code = this.cpu.excCode;
      const refillInSlot = (code === EXC_TLBL || code === EXC_TLBS) && (this.cpu.cause & CAUSE_BD) !== 0;
      this.handleException();
      if (refillInSlot && !this.done && this.cpu.pc !== start) {
        restart = true;
        continue;
      }
      if (this.cpu.icount !== before && (!restart || at === start)) return !this.done;
    }
    return false;
  }

  /** The kernel's trap handler: entered with the CPU in the exception state. */
  handleException(): void {
    const cpu = this.cpu;
    const code = cpu.excCode;
    this.excCounts[code]!++;
    switch (code) {
      case EXC_SYS:
        this.syscall();
        if (!this.done) cpu.returnFromException(cpu.excNextPC);
        return;
      case EXC_TLBL:
      case EXC_TLBS: {
        const va = cpu.badVAddr >>> 0;
        const ppn = cpu.pc === VEC_UTLB ? this.page(va >>> 12) : -1;
        if (ppn < 0) return this.kill(SIGSEGV);
        // Refill as a UTLB handler would: EntryHi already holds the VPN and ASID.
        cpu.entryLo = (ppn << 12) | ENTRYLO_V | (this.writable[va >>> 12] ? ENTRYLO_D : 0);
        cpu.tlbWriteRandom();
        cpu.returnFromException(cpu.epc);
        return;
      }
      case EXC_MOD:
      case EXC_ADEL:
      case EXC_ADES:
        return this.kill(SIGSEGV);
      case EXC_BP:
        // Linux sends SIGFPE for break 6 (overflow) and 7 (divide by zero), but qemu-user 7.2 —
        // the oracle this layer stands in for — sends SIGTRAP for every break (checked in
        // test/cpu/mips/qemu_step.test.ts with progs/divzero.S).
        return this.kill(SIGTRAP);
      case EXC_RI:
      case EXC_CPU:
        return this.kill(SIGILL);
      case EXC_OV:
      case EXC_INT:
        return this.kill(SIGFPE);
      default:
        return this.kill(SIGBUS);
    }
  }

  private kill(sig: number): void {
    this.user.termSignal = sig;
  }

  private arg(k: number): number {
    if (k < 4) return this.cpu.r[4 + k]! >>> 0;
    const b = this.copyIn((this.cpu.r[29]! >>> 0) + 16 + 4 * (k - 4), 4);
    return new DataView(b.buffer).getUint32(0, !this.cpu.bigEndian);
  }

  private syscall(): void {
    const r = this.cpu.r;
    const nr = r[2]! >>> 0;
    let v: number;
    try {
      v = this.dispatch(nr);
    } catch (e) {
      if (!(e instanceof SyscallError)) throw e;
      r[2] = ERRNO_MIPS[e.errno];
      r[7] = 1;
      return;
    }
    r[2] = v;
    r[7] = 0;
  }

  private openFlags(f: number): OpenFlags {
    const acc = f & 3;
    return {
      read: acc === 0 || acc === 2, write: acc === 1 || acc === 2, append: (f & 0x8) !== 0, create: (f & 0x100) !== 0,
      trunc: (f & 0x200) !== 0, excl: (f & 0x400) !== 0, directory: (f & 0x10000) !== 0,
    };
  }

  /** struct stat64 of Linux MIPS o32 (104 bytes). */
  private packStat(s: StatInfo): Uint8Array {
    const b = new Uint8Array(104);
    const dv = new DataView(b.buffer);
    const le = !this.cpu.bigEndian;
    const u64 = (o: number, v: number): void => {
      dv.setUint32(o + (le ? 0 : 4), v >>> 0, le);
      dv.setUint32(o + (le ? 4 : 0), Math.floor(v / 4294967296), le);
    };
    dv.setUint32(0, s.dev, le);
    u64(16, s.ino);
    dv.setUint32(24, s.mode, le);
    dv.setUint32(28, s.nlink, le);
    dv.setUint32(32, s.uid, le);
    dv.setUint32(36, s.gid, le);
    dv.setUint32(40, s.rdev, le);
    u64(56, s.size);
    dv.setInt32(64, s.atime, le);
    dv.setInt32(72, s.mtime, le);
    dv.setInt32(80, s.ctime, le);
    dv.setUint32(88, s.blksize, le);
    u64(96, s.blocks);
    return b;
  }

  private dispatch(nr: number): number {
    const u = this.user;
    const a = (k: number): number => this.arg(k);
    const mm = this.mm;
    switch (nr) {
      case 4001: case 4246: u.exit(a(0)); return 0; // exit, exit_group
      case 4003: return u.read(a(0), a(1), a(2), mm);
      case 4004: return u.write(a(0), a(1), a(2), mm);
      case 4005: return u.open(this.readString(a(0)), this.openFlags(a(1)), a(2));
      case 4006: return u.close(a(0));
      case 4010: return u.unlink(this.readString(a(0)));
      case 4012: return u.chdir(this.readString(a(0)));
      case 4015: return 0; // chmod
      case 4019: return u.lseek(a(0), a(1) | 0, a(2));
      case 4020: return u.getpid();
      case 4024: case 4047: case 4049: case 4050: return 1000; // getuid getgid geteuid getegid
      case 4033: return u.access(this.readString(a(0)));
      case 4037: return u.kill(a(0) | 0, a(1));
      case 4038: return u.rename(this.readString(a(0)), this.readString(a(1)));
      case 4039: return u.mkdir(this.readString(a(0)), a(1));
      case 4040: return u.rmdir(this.readString(a(0)));
      case 4041: return u.dup(a(0));
      case 4045: return u.brk(a(0));
      case 4054: { // ioctl: no terminals here
        u.tcgets(a(0));
        return 0;
      }
      case 4055: { // fcntl
        const fd = a(0);
        const cmd = a(1);
        if (cmd === 0) return u.dup(fd, a(2)); // F_DUPFD
        u.fstat(fd); // EBADF check
        return cmd === 3 ? 2 : 0; // F_GETFL: O_RDWR; F_GETFD/F_SETFD/F_SETFL: 0
      }
      case 4057: return 0; // setpgid
      case 4060: return u.umask(a(0));
      case 4063: return u.dup2(a(0), a(1));
      case 4064: return u.getppid();
      case 4065: return u.getpid(); // getpgrp
      case 4077: mm.write(a(1), new Uint8Array(72)); return 0; // getrusage
      case 4078: { // gettimeofday
        if (a(0) !== 0) {
          mm.write(a(0), new Uint8Array([...this.u32(946684800), ...this.u32(0)]));
        }
        if (a(1) !== 0) mm.write(a(1), new Uint8Array(8));
        return 0;
      }
      case 4140: { // _llseek(fd, hi, lo, result*, whence)
        const p = u.lseek(a(0), (a(1) | 0) * 4294967296 + a(2), a(4));
        const res = this.cpu.bigEndian ? [...this.u32(Math.floor(p / 4294967296)), ...this.u32(p)] : [...this.u32(p), ...this.u32(Math.floor(p / 4294967296))];
        mm.write(a(3), new Uint8Array(res));
        return 0;
      }
      case 4162: case 4166: return 0; // sched_yield, nanosleep
      case 4194: if (a(2) !== 0) mm.write(a(2), new Uint8Array(24)); return 0; // rt_sigaction
      case 4195: if (a(2) !== 0) mm.write(a(2), new Uint8Array(16)); return 0; // rt_sigprocmask
      case 4203: { // getcwd
        const s = Buffer.from(`${u.getcwd()}\0`, 'latin1');
        if (s.length > a(1)) throw new SyscallError('ERANGE');
        mm.write(a(0), s);
        return s.length;
      }
      case 4213: mm.write(a(1), this.packStat(u.stat(this.readString(a(0))))); return 0;
      case 4214: mm.write(a(1), this.packStat(u.stat(this.readString(a(0)), false))); return 0;
      case 4215: mm.write(a(1), this.packStat(u.fstat(a(0)))); return 0;
      default:
        return u.unimplemented(`syscall ${nr}`);
    }
  }
}
