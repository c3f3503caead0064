/**
 * Open files and descriptor tables (4.4BSD kern_descrip.c, sys/file.h, sys/filedesc.h, uio).
 *
 * A `File` is one open (struct file): type, flags, offset, reference count, operations. A
 * `FileDesc` is a process's descriptor table; fork copies the table (fdcopy) so parent and child
 * share every open file and its offset, as in 4.4BSD.
 */
import { EBADF, EFAULT, EMFILE } from './errno.js';
import type { Kernel } from './kernel.js';
import { NOFILE } from './param.js';
import { type KGen, P_ADVLOCK, type Proc } from './proc.js';
import { lf_release } from './vfs_lockf.js';
import type { Vnode } from './vfs.js';
import { copyinto, copyout } from './vm/copyio.js';
import type { VmSpace } from './vm/vm_map.js';

/** f_flag bits: FREAD/FWRITE plus the open(2) flags kept after open (4.4BSD FMASK). */
export const FREAD = 0x0001;
export const FWRITE = 0x0002;
export const O_RDONLY = 0x0000;
export const O_WRONLY = 0x0001;
export const O_RDWR = 0x0002;
export const O_ACCMODE = 0x0003;
export const O_NONBLOCK = 0x0004;
export const O_APPEND = 0x0008;
export const O_CREAT = 0x0200;
export const O_TRUNC = 0x0400;
export const O_EXCL = 0x0800;
/** f_flag: the open file holds a flock lock (4.4BSD FHASLOCK). */
export const FHASLOCK = 0x4000;
/** Flags F_SETFL may change (4.4BSD FCNTLFLAGS). */
export const FCNTLFLAGS = O_NONBLOCK | O_APPEND;
/** Descriptor flag: close on exec. */
export const UF_EXCLOSE = 0x01;

export const DTYPE_VNODE = 1;
export const DTYPE_PIPE = 4;

export const UIO_READ = 0;
export const UIO_WRITE = 1;

/** Most iovecs one readv/writev takes (4.4BSD UIO_MAXIOV). */
export const UIO_MAXIOV = 1024;

/**
 * A transfer between user buffers and the kernel (4.4BSD struct uio): one or more iovecs (base,
 * length) filled or drained in order. `offset` is the file offset; `resid` counts down as bytes
 * move.
 */
export class Uio {
  /** The iovecs as base, length pairs; the current one starts at iov[2 * iovi]. */
  private readonly iov: number[];
  private iovi = 0;
  resid: number;

  constructor(
    readonly vs: VmSpace,
    base: number,
    resid: number,
    readonly rw: number,
    public offset: number,
  ) {
    this.iov = [base >>> 0, resid];
    this.resid = resid;
  }

  /** A transfer over several user buffers (readv/writev): iov holds base, length pairs. */
  static vec(vs: VmSpace, iov: number[], rw: number, offset: number): Uio {
    const u = new Uio(vs, 0, 0, rw, offset);
    u.iov.length = 0;
    for (let i = 0; i < iov.length; i += 2) {
      if (iov[i + 1]! === 0) continue;
      u.iov.push(iov[i]! >>> 0, iov[i + 1]!);
      u.resid += iov[i + 1]!;
    }
    return u;
  }

  /**
   * uiomove: moves n bytes between buf[off..] and the user buffers (UIO_READ: kernel → user).
   * Returns 0 or EFAULT (the bytes before the bad address have moved).
   */
  move(buf: Uint8Array, off: number, n: number): number {
    n = Math.min(n, this.resid);
    while (n > 0) {
      const base = this.iov[2 * this.iovi]!;
      const len = Math.min(n, this.iov[2 * this.iovi + 1]!);
      const view = buf.subarray(off, off + len);
      const e = this.rw === UIO_READ ? copyout(this.vs, view, base) : copyinto(this.vs, base, view);
      if (e) return EFAULT;
      this.advance(len);
      off += len;
      n -= len;
    }
    return 0;
  }

  /** Consumes n bytes without copying them (a write to /dev/null). */
  skip(n: number): void {
    n = Math.min(n, this.resid);
    while (n > 0) {
      const len = Math.min(n, this.iov[2 * this.iovi + 1]!);
      this.advance(len);
      n -= len;
    }
  }

  private advance(len: number): void {
    const i = 2 * this.iovi;
    this.iov[i] = (this.iov[i]! + len) >>> 0;
    this.iov[i + 1]! -= len;
    if (this.iov[i + 1] === 0) this.iovi++;
    this.resid -= len;
    this.offset += len;
  }
}

/** Bytes of struct stat (docs/abi.md) and its filling, shared by vnodes, pipes and devices. */
export interface StatInfo {
  dev: number;
  ino: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  rdev: number;
  atime: { sec: number; nsec: number };
  mtime: { sec: number; nsec: number };
  ctime: { sec: number; nsec: number };
  size: number;
  blksize: number;
}

export interface FileOps {
  /** Reads into uio (may sleep); 0 or an errno. */
  read(k: Kernel, p: Proc, fp: File, uio: Uio): KGen<number>;
  write(k: Kernel, p: Proc, fp: File, uio: Uio): KGen<number>;
  /** ioctl with the argument already copied in (IOC_IN) / to be copied out (IOC_OUT) in data. */
  ioctl(k: Kernel, p: Proc, fp: File, cmd: number, data: DataView): number;
  stat(k: Kernel, fp: File): StatInfo;
  /**
   * Readiness for select and poll (FreeBSD fo_poll): the POLL* events of `events` that would
   * not block now, plus POLLHUP when the other end of a pipe is gone.
   */
  poll(k: Kernel, p: Proc, fp: File, events: number): number;
  /** The last reference went away. */
  close(k: Kernel, fp: File): void;
}

export class File {
  f_count = 1;
  f_offset = 0;
  constructor(
    readonly f_type: number,
    public f_flag: number,
    readonly f_ops: FileOps,
    /** The vnode (DTYPE_VNODE) or pipe end (DTYPE_PIPE). */
    readonly f_data: unknown,
  ) {}

  get vnode(): Vnode {
    return this.f_data as Vnode;
  }
}

export class FileDesc {
  readonly ofiles: (File | null)[] = new Array<File | null>(NOFILE).fill(null);
  readonly ofileflags = new Uint8Array(NOFILE);
  cwd: Vnode;
  /** Lowest descriptor that may be free (4.4BSD fd_freefile). */
  freefile = 0;

  constructor(cwd: Vnode) {
    this.cwd = cwd;
  }

  get(fd: number): File | null {
    return fd >= 0 && fd < NOFILE ? this.ofiles[fd]! : null;
  }

  /** fdalloc: the lowest free descriptor at or above `want`, or -EMFILE. */
  alloc(want = 0): number {
    for (let i = Math.max(want, this.freefile); i < NOFILE; i++) {
      if (this.ofiles[i] === null) {
        if (want <= this.freefile) this.freefile = i;
        return i;
      }
    }
    return -EMFILE;
  }

  install(fd: number, fp: File, flags = 0): void {
    this.ofiles[fd] = fp;
    this.ofileflags[fd] = flags;
  }

  /** fdcopy (fork): the same open files, each with one more reference. */
  copy(): FileDesc {
    const d = new FileDesc(this.cwd);
    d.cwd.usecount++;
    for (let i = 0; i < NOFILE; i++) {
      const fp = this.ofiles[i]!;
      if (fp) {
        fp.f_count++;
        d.ofiles[i] = fp;
        d.ofileflags[i] = this.ofileflags[i]!;
      }
    }
    d.freefile = this.freefile;
    return d;
  }
}

/**
 * Drops one reference to an open file (4.4BSD closef). Closing any descriptor of a vnode
 * releases the record locks the process holds on it (POSIX); the last reference to the open file
 * releases its flock lock.
 */
export function closef(k: Kernel, fp: File, p: Proc | null): void {
  if (p && (p.p_flag & P_ADVLOCK) && fp.f_type === DTYPE_VNODE) lf_release(k, fp.vnode, p);
  if (--fp.f_count > 0) return;
  if ((fp.f_flag & FHASLOCK) && fp.f_type === DTYPE_VNODE) lf_release(k, fp.vnode, fp);
  fp.f_ops.close(k, fp);
}

/** close(2)'s work: frees descriptor fd of p and drops its file. */
export function fdclose(k: Kernel, p: Proc, fd: number): number {
  const fdp = p.p_fd;
  const fp = fdp.get(fd);
  if (!fp) return EBADF;
  fdp.ofiles[fd] = null;
  fdp.ofileflags[fd] = 0;
  if (fd < fdp.freefile) fdp.freefile = fd;
  closef(k, fp, p);
  return 0;
}

/** Closes every descriptor of p (exit, or a fork that failed after copying them). */
export function fdfree(k: Kernel, p: Proc): void {
  const fdp = p.p_fd;
  for (let i = 0; i < NOFILE; i++) if (fdp.ofiles[i]) fdclose(k, p, i);
  fdp.cwd.usecount--;
}

/** Closes the close-on-exec descriptors of p (exec). */
export function fdcloseexec(k: Kernel, p: Proc): void {
  const fdp = p.p_fd;
  for (let i = 0; i < NOFILE; i++) if (fdp.ofiles[i] && fdp.ofileflags[i]! & UF_EXCLOSE) fdclose(k, p, i);
}
