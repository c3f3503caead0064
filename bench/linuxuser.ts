/**
 * A Linux system-call layer, architecture-neutral core — what qemu-user does for a guest program,
 * so the CPU differential tests and the CPU benchmarks (bench/cpu-*.ts) can run the Linux-flavour
 * builds of the guest programs on emu's CPUs without emu's kernel. One process, no
 * fork/exec/signals delivery.
 *
 * The core implements the calls by name on neutral types (OpenFlags, StatInfo, errno names); an
 * architecture adapter (linuxuser_mips.ts, linuxuser_sparc.ts) maps syscall numbers, argument and
 * result registers, flag bits, errno numbers and structure layouts, and provides GuestMemory over
 * the process's address space.
 *
 * Files: paths resolve inside a sandbox directory (absolute paths too; ".." cannot leave it).
 * fd 0 reads the given stdin bytes; fd 1 and 2 collect output. Standard streams look like pipes
 * (fstat S_IFIFO, no terminal), as for qemu-user run with its output captured.
 * Time is fixed (deterministic): gettimeofday returns FIXED_TIME plus nothing else.
 */
import {
  closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmdirSync, statSync, unlinkSync,
  writeSync, constants as fsc, lstatSync, readdirSync, type Stats,
} from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';

export type Errno =
  | 'EPERM' | 'ENOENT' | 'ESRCH' | 'EINTR' | 'EIO' | 'EBADF' | 'ECHILD' | 'EAGAIN' | 'ENOMEM' | 'EACCES'
  | 'EFAULT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'EINVAL' | 'EMFILE' | 'ENOTTY' | 'ESPIPE' | 'ENOSYS'
  | 'ENAMETOOLONG' | 'ENOTEMPTY' | 'ERANGE' | 'EPIPE' | 'EXDEV';

/** A failed call: the adapter returns the errno in the architecture's convention. */
export class SyscallError extends Error {
  constructor(readonly errno: Errno) {
    super(errno);
  }
}

/** The process's virtual memory as the layer sees it (faults become EFAULT). */
export interface GuestMemory {
  read(va: number, n: number): Uint8Array;
  write(va: number, bytes: Uint8Array): void;
}

export interface OpenFlags {
  read: boolean;
  write: boolean;
  create: boolean;
  trunc: boolean;
  append: boolean;
  excl: boolean;
  directory: boolean;
}

export interface StatInfo {
  dev: number;
  ino: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  rdev: number;
  size: number;
  blksize: number;
  blocks: number;
  atime: number;
  mtime: number;
  ctime: number;
}

export const S_IFIFO = 0o010000;
export const S_IFCHR = 0o020000;
export const S_IFDIR = 0o040000;
export const S_IFREG = 0o100000;

/** Seconds since the epoch that gettimeofday reports (2000-01-01): never the host clock. */
export const FIXED_TIME = 946684800;

type Desc =
  | { kind: 'stdin'; pos: number }
  | { kind: 'out'; stream: 1 | 2 }
  | { kind: 'file'; hostFd: number; pos: number; append: boolean; path: string; readable: boolean; writable: boolean }
  | { kind: 'dir'; path: string; entries: string[] | null; pos: number };

export interface LinuxUserOptions {
  /** Directory that stands for the guest's whole filesystem (and its working directory). */
  sandbox?: string;
  stdin?: Uint8Array;
  /** Initial program break (end of the loaded image, page-aligned, as qemu-user sets it). */
  brk: number;
  pid?: number;
}

export class LinuxUser {
  readonly sandbox: string | undefined;
  private readonly stdin: Uint8Array;
  private readonly fds = new Map<number, Desc>();
  readonly out: [Buffer[], Buffer[]] = [[], []];
  readonly brkStart: number;
  brkCur: number;
  /** Set when the process has ended. */
  exitStatus: number | null = null;
  termSignal: number | null = null;
  readonly pid: number;
  private cwd = '/';
  private umaskBits = 0o022;
  /** Names of calls that were attempted but are not implemented (for test diagnostics). */
  readonly unsupported: string[] = [];

  constructor(o: LinuxUserOptions) {
    this.sandbox = o.sandbox;
    this.stdin = o.stdin ?? new Uint8Array(0);
    this.brkStart = o.brk;
    this.brkCur = o.brk;
    this.pid = o.pid ?? 1000;
    this.fds.set(0, { kind: 'stdin', pos: 0 });
    this.fds.set(1, { kind: 'out', stream: 1 });
    this.fds.set(2, { kind: 'out', stream: 2 });
  }

  get stdout(): Buffer {
    return Buffer.concat(this.out[0]);
  }
  get stderr(): Buffer {
    return Buffer.concat(this.out[1]);
  }
  get done(): boolean {
    return this.exitStatus !== null || this.termSignal !== null;
  }

  // ---- paths ----
  private hostPath(guestPath: string): string {
    if (!this.sandbox) throw new SyscallError('ENOENT');
    if (guestPath.length > 1024) throw new SyscallError('ENAMETOOLONG');
    const abs = normalize(guestPath.startsWith('/') ? guestPath : `${this.cwd}/${guestPath}`);
    const inside = resolve(this.sandbox, `.${abs.startsWith('/') ? abs : `/${abs}`}`);
    const root = resolve(this.sandbox);
    if (inside !== root && !inside.startsWith(root + sep)) throw new SyscallError('ENOENT');
    return inside;
  }

  private desc(fd: number): Desc {
    const d = this.fds.get(fd);
    if (!d) throw new SyscallError('EBADF');
    return d;
  }

  private newFd(d: Desc, min = 0): number {
    let fd = min;
    while (this.fds.has(fd)) fd++;
    if (fd >= 256) throw new SyscallError('EMFILE');
    this.fds.set(fd, d);
    return fd;
  }

  // ---- process ----
  exit(status: number): void {
    this.exitStatus = status & 0xff;
  }
  kill(pid: number, sig: number): number {
    if (pid !== this.pid && pid !== 0 && pid !== -1) throw new SyscallError('ESRCH');
    if (sig !== 0) this.termSignal = sig;
    return 0;
  }
  getpid(): number {
    return this.pid;
  }
  getppid(): number {
    return 1;
  }
  umask(m: number): number {
    const old = this.umaskBits;
    this.umaskBits = m & 0o777;
    return old;
  }

  /** brk(0) returns the break; brk(x) moves it if x is not below the start (qemu-user rules). */
  brk(addr: number): number {
    if (addr === 0 || addr < this.brkStart) return this.brkCur;
    this.brkCur = addr;
    return this.brkCur;
  }

  // ---- I/O ----
  read(fd: number, buf: number, count: number, mem: GuestMemory): number {
    const d = this.desc(fd);
    if (d.kind === 'out') throw new SyscallError('EBADF');
    if (d.kind === 'dir') throw new SyscallError('EISDIR');
    if (d.kind === 'stdin') {
      const chunk = this.stdin.subarray(d.pos, d.pos + count);
      mem.write(buf, chunk);
      d.pos += chunk.length;
      return chunk.length;
    }
    if (!d.readable) throw new SyscallError('EBADF');
    const tmp = Buffer.alloc(Math.min(count, 1 << 20));
    const n = readSync(d.hostFd, tmp, 0, tmp.length, d.pos);
    mem.write(buf, tmp.subarray(0, n));
    d.pos += n;
    return n;
  }

  write(fd: number, buf: number, count: number, mem: GuestMemory): number {
    const d = this.desc(fd);
    const data = count > 0 ? mem.read(buf, count) : new Uint8Array(0);
    if (d.kind === 'out') {
      this.out[d.stream - 1].push(Buffer.from(data));
      return count;
    }
    if (d.kind !== 'file' || !d.writable) throw new SyscallError('EBADF');
    if (d.append) d.pos = fstatSync(d.hostFd).size;
    const n = writeSync(d.hostFd, data, 0, data.length, d.pos);
    d.pos += n;
    return n;
  }

  open(path: string, f: OpenFlags, mode: number): number {
    const hp = this.hostPath(path);
    const exists = existsSync(hp);
    if (exists && f.create && f.excl) throw new SyscallError('EEXIST');
    if (!exists && !f.create) throw new SyscallError('ENOENT');
    if (exists && statSync(hp).isDirectory()) {
      if (f.write) throw new SyscallError('EISDIR');
      return this.newFd({ kind: 'dir', path: hp, entries: null, pos: 0 });
    }
    if (f.directory) throw new SyscallError('ENOTDIR');
    let flags = f.read && f.write ? fsc.O_RDWR : f.write ? fsc.O_WRONLY : fsc.O_RDONLY;
    if (f.create) flags |= fsc.O_CREAT;
    if (f.trunc) flags |= fsc.O_TRUNC;
    let hostFd: number;
    try {
      hostFd = openSync(hp, flags, mode & ~this.umaskBits & 0o777);
    } catch (e) {
      throw new SyscallError(hostErrno(e));
    }
    return this.newFd({ kind: 'file', hostFd, pos: 0, append: f.append, path: hp, readable: f.read, writable: f.write });
  }

  close(fd: number): number {
    const d = this.desc(fd);
    if (d.kind === 'file') closeSync(d.hostFd);
    this.fds.delete(fd);
    return 0;
  }

  /** Closes every host file (call when the run ends). */
  closeAll(): void {
    for (const fd of [...this.fds.keys()]) this.close(fd);
  }

  dup(fd: number, min = 0): number {
    const d = this.desc(fd);
    if (d.kind === 'file') {
      // Share the host descriptor; positions are per desc object, so share the object itself.
      return this.newFd(d, min);
    }
    return this.newFd(d, min);
  }

  dup2(fd: number, to: number): number {
    const d = this.desc(fd);
    if (fd === to) return to;
    if (this.fds.has(to)) this.fds.delete(to);
    this.fds.set(to, d);
    return to;
  }

  /** lseek; whence 0 SET, 1 CUR, 2 END. */
  lseek(fd: number, off: number, whence: number): number {
    const d = this.desc(fd);
    if (d.kind === 'out') throw new SyscallError('ESPIPE');
    if (d.kind === 'dir') throw new SyscallError('EINVAL');
    const size = d.kind === 'stdin' ? this.stdin.length : fstatSync(d.hostFd).size;
    const base = whence === 0 ? 0 : whence === 1 ? d.pos : whence === 2 ? size : NaN;
    const p = base + off;
    if (!(p >= 0)) throw new SyscallError('EINVAL');
    d.pos = p;
    return p;
  }

  /** The terminal check behind isatty: nothing here is a terminal. */
  tcgets(fd: number): never {
    this.desc(fd);
    throw new SyscallError('ENOTTY');
  }

  fstat(fd: number): StatInfo {
    const d = this.desc(fd);
    if (d.kind === 'stdin' || d.kind === 'out') {
      return { dev: 12, ino: 1000 + fd, mode: S_IFIFO | 0o600, nlink: 1, uid: 1000, gid: 1000, rdev: 0, size: 0, blksize: 4096, blocks: 0, atime: FIXED_TIME, mtime: FIXED_TIME, ctime: FIXED_TIME };
    }
    return statInfo(d.kind === 'file' ? fstatSync(d.hostFd) : statSync(d.path));
  }

  stat(path: string, follow = true): StatInfo {
    const hp = this.hostPath(path);
    try {
      return statInfo(follow ? statSync(hp) : lstatSync(hp));
    } catch (e) {
      throw new SyscallError(hostErrno(e));
    }
  }

  access(path: string): number {
    if (!existsSync(this.hostPath(path))) throw new SyscallError('ENOENT');
    return 0;
  }

  unlink(path: string): number {
    try {
      unlinkSync(this.hostPath(path));
    } catch (e) {
      throw new SyscallError(hostErrno(e));
    }
    return 0;
  }

  rename(from: string, to: string): number {
    try {
      renameSync(this.hostPath(from), this.hostPath(to));
    } catch (e) {
      throw new SyscallError(hostErrno(e));
    }
    return 0;
  }

  mkdir(path: string, mode: number): number {
    try {
      mkdirSync(this.hostPath(path), mode & ~this.umaskBits & 0o777);
    } catch (e) {
      throw new SyscallError(hostErrno(e));
    }
    return 0;
  }

  rmdir(path: string): number {
    try {
      rmdirSync(this.hostPath(path));
    } catch (e) {
      throw new SyscallError(hostErrno(e));
    }
    return 0;
  }

  chdir(path: string): number {
    const hp = this.hostPath(path);
    if (!existsSync(hp)) throw new SyscallError('ENOENT');
    if (!statSync(hp).isDirectory()) throw new SyscallError('ENOTDIR');
    this.cwd = normalize(path.startsWith('/') ? path : `${this.cwd}/${path}`);
    return 0;
  }

  getcwd(): string {
    return this.cwd;
  }

  /** Directory entries of an open directory, for getdents (the adapter packs the records). */
  readdirEntries(fd: number): { names: string[]; desc: { pos: number } } {
    const d = this.desc(fd);
    if (d.kind !== 'dir') throw new SyscallError('ENOTDIR');
    d.entries ??= ['.', '..', ...readdirSync(d.path).sort()];
    return { names: d.entries, desc: d };
  }

  /** Host directory of an open directory entry name, for getdents' d_type/ino. */
  dirEntryStat(fd: number, name: string): StatInfo {
    const d = this.desc(fd);
    if (d.kind !== 'dir') throw new SyscallError('ENOTDIR');
    return statInfo(statSync(join(d.path, name)));
  }

  /** Records an unimplemented call; the adapter returns ENOSYS. */
  unimplemented(name: string): never {
    this.unsupported.push(name);
    throw new SyscallError('ENOSYS');
  }
}

function statInfo(s: Stats): StatInfo {
  return {
    dev: Number(s.dev) & 0xffff, ino: Number(s.ino) >>> 0, mode: s.mode, nlink: s.nlink, uid: 1000, gid: 1000,
    rdev: 0, size: s.size, blksize: 4096, blocks: Math.ceil(s.size / 512),
    atime: FIXED_TIME, mtime: FIXED_TIME, ctime: FIXED_TIME,
  };
}

function hostErrno(e: unknown): Errno {
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'ENOENT': case 'EEXIST': case 'ENOTDIR': case 'EISDIR': case 'EACCES': case 'EPERM': case 'ENOTEMPTY':
    case 'EINVAL': case 'EXDEV': case 'ENAMETOOLONG':
      return code;
    default:
      return 'EIO';
  }
}
