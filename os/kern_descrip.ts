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
import type { KGen, Proc } from './proc.js';
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
/** Flags F_SETFL may change (4.4BSD FCNTLFLAGS). */
export const FCNTLFLAGS = O_NONBLOCK | O_APPEND;
/** Descriptor flag: close on exec. */
export const UF_EXCLOSE = 0x01;

export const DTYPE_VNODE = 1;
export const DTYPE_PIPE = 4;

export const UIO_READ = 0;
export const UIO_WRITE = 1;

/**
 * A transfer between a user buffer and the kernel (4.4BSD struct uio with one iovec). `offset`
 * is the file offset; `resid` counts down as bytes move.
 */
export class Uio {
  constructor(
    readonly vs: VmSpace,
    public base: number,
    public resid: number,
    readonly rw: number,
    public offset: number,
  ) {}

  /**
   * uiomove: moves n bytes between buf[off..] and the user buffer (UIO_READ: kernel → user).
   * Returns 0 or EFAULT.
   */
  move(buf: Uint8Array, off: number, n: number): number {
    n = Math.min(n, this.resid);
    if (n <= 0) return 0;
    const view = buf.subarray(off, off + n);
    const e = this.rw === UIO_READ ? copyout(this.vs, view, this.base) : copyinto(this.vs, this.base, view);
    if (e) return EFAULT;
    this.base = (this.base + n) >>> 0;
    this.resid -= n;
    this.offset += n;
    return 0;
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

/** Drops one reference to an open file (4.4BSD closef). */
export function closef(k: Kernel, fp: File): void {
  if (--fp.f_count > 0) return;
  fp.f_ops.close(k, fp);
}

/** close(2)'s work: frees the descriptor and drops its file. */
export function fdclose(k: Kernel, fdp: FileDesc, fd: number): number {
  const fp = fdp.get(fd);
  if (!fp) return EBADF;
  fdp.ofiles[fd] = null;
  fdp.ofileflags[fd] = 0;
  if (fd < fdp.freefile) fdp.freefile = fd;
  closef(k, fp);
  return 0;
}

/** Closes every descriptor (exit). */
export function fdfree(k: Kernel, fdp: FileDesc): void {
  for (let i = 0; i < NOFILE; i++) if (fdp.ofiles[i]) fdclose(k, fdp, i);
  fdp.cwd.usecount--;
}

/** Closes the close-on-exec descriptors (exec). */
export function fdcloseexec(k: Kernel, fdp: FileDesc): void {
  for (let i = 0; i < NOFILE; i++) if (fdp.ofiles[i] && fdp.ofileflags[i]! & UF_EXCLOSE) fdclose(k, fdp, i);
}
