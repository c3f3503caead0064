/**
 * read, readv, pread, write, writev, pwrite, ioctl (4.4BSD sys_generic.c; pread and pwrite
 * FreeBSD's) and the descriptor calls close, dup, dup2, fcntl (with record locks), flock, fstat
 * (kern_descrip.c), over the FileOps of each kind of open file.
 */
import { EBADF, EFAULT, EINTR, EINVAL, EMFILE, ENOTTY, EOPNOTSUPP, ERESTART, ESPIPE, EWOULDBLOCK } from './errno.js';
import { FIOCLEX, FIONBIO, FIONCLEX } from './filio.js';
import { IOC_IN, IOC_OUT, IOC_VOID, IOCPARM_MASK, IOCPARM_MAX } from '../format/ioccom.js';
import {
  DTYPE_VNODE, FCNTLFLAGS, FHASLOCK, FREAD, FWRITE, type File, O_NONBLOCK, type StatInfo, UF_EXCLOSE, UIO_MAXIOV, UIO_READ,
  UIO_WRITE, Uio, fdclose,
} from './kern_descrip.js';
import type { Kernel } from './kernel.js';
import { NOFILE } from './param.js';
import type { KGen, Proc } from './proc.js';
import { VCHR } from './vfs.js';
import { F_FLOCK, F_POSIX, F_RDLCK, F_UNLCK, F_WRLCK, type LockF, lf_getblock, lf_pid, lf_release, lf_setlock } from './vfs_lockf.js';
import { copyin, copyout } from './vm/copyio.js';

export const F_DUPFD = 0;
export const F_GETFD = 1;
export const F_SETFD = 2;
export const F_GETFL = 3;
export const F_SETFL = 4;
export const F_GETLK = 7;
export const F_SETLK = 8;
export const F_SETLKW = 9;
export const FD_CLOEXEC = 1;
/** flock operations (<sys/file.h>). */
export const LOCK_SH = 1;
export const LOCK_EX = 2;
export const LOCK_NB = 4;
export const LOCK_UN = 8;

/** struct stat (docs/abi.md, <sys/stat.h>): 96 bytes. */
export function statBytes(k: Kernel, st: StatInfo): Uint8Array {
  const b = new Uint8Array(96);
  const dv = new DataView(b.buffer);
  const le = k.littleEndian;
  dv.setInt32(0, st.dev, le);
  dv.setUint32(4, st.ino, le);
  dv.setUint16(8, st.mode, le);
  dv.setUint16(10, st.nlink, le);
  dv.setUint32(12, st.uid, le);
  dv.setUint32(16, st.gid, le);
  dv.setInt32(20, st.rdev, le);
  const ts = (off: number, t: { sec: number; nsec: number }): void => {
    dv.setInt32(off, t.sec, le);
    dv.setInt32(off + 4, t.nsec, le);
  };
  ts(24, st.atime);
  ts(32, st.mtime);
  ts(40, st.ctime);
  dv.setBigInt64(48, BigInt(st.size), le);
  dv.setBigInt64(56, BigInt(Math.ceil(st.size / 512)), le);
  dv.setUint32(64, st.blksize, le);
  return b;
}

/** The common end of an interrupted transfer: bytes already moved make it a success. */
function partial(error: number, moved: number): number {
  if (moved > 0 && (error === ERESTART || error === EINTR || error === EWOULDBLOCK)) return 0;
  return error;
}

/**
 * The common part of the read and write calls: moves uio through the file's operations and
 * returns the count in rv[0]. `seek` false (pread, pwrite) leaves the file offset alone.
 */
function* rwuio(k: Kernel, p: Proc, fp: File, uio: Uio, rv: Int32Array, seek: boolean): KGen<number> {
  const n = uio.resid;
  const op = uio.rw === UIO_READ ? fp.f_ops.read : fp.f_ops.write;
  const error = partial(yield* op(k, p, fp, uio), n - uio.resid);
  if (seek) fp.f_offset = uio.offset;
  rv[0] = n - uio.resid;
  return error;
}

/** The open file of fd for reading or writing, or null (EBADF). */
function fileFor(p: Proc, fd: number, rw: number): File | null {
  const fp = p.p_fd.get(fd);
  return fp && (fp.f_flag & (rw === UIO_READ ? FREAD : FWRITE)) ? fp : null;
}

function* rw1(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array, rw: number): KGen<number> {
  const fp = fileFor(p, a[0]!, rw);
  if (!fp) return EBADF;
  const n = a[2]!;
  if (n < 0) return EINVAL;
  return yield* rwuio(k, p, fp, new Uio(p.p_vmspace!, a[1]! >>> 0, n, rw, fp.f_offset), rv, true);
}

export function sys_read(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  return rw1(k, p, a, rv, UIO_READ);
}

export function sys_write(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  return rw1(k, p, a, rv, UIO_WRITE);
}

/**
 * readv/writev(fd, iov, iovcnt): struct iovec { void *iov_base; size_t iov_len; } (8 bytes);
 * at most UIO_MAXIOV of them, and a total that fits in a ssize_t (EINVAL otherwise).
 */
function* rwv(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array, rw: number): KGen<number> {
  const fp = fileFor(p, a[0]!, rw);
  if (!fp) return EBADF;
  const cnt = a[2]!;
  if (cnt < 0 || cnt > UIO_MAXIOV) return EINVAL;
  const b = copyin(p.p_vmspace!, a[1]! >>> 0, 8 * cnt);
  if (typeof b === 'number') return b;
  const dv = new DataView(b.buffer);
  const le = k.littleEndian;
  const iov: number[] = [];
  let total = 0;
  for (let i = 0; i < cnt; i++) {
    const len = dv.getUint32(8 * i + 4, le);
    total += len;
    if (total > 0x7fffffff) return EINVAL;
    iov.push(dv.getUint32(8 * i, le), len);
  }
  return yield* rwuio(k, p, fp, Uio.vec(p.p_vmspace!, iov, rw, fp.f_offset), rv, true);
}

export function sys_readv(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  return rwv(k, p, a, rv, UIO_READ);
}

export function sys_writev(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  return rwv(k, p, a, rv, UIO_WRITE);
}

/**
 * pread/pwrite(fd, buf, nbyte, pad, offset): at the 64-bit offset (argument words 4 and 5, after
 * a pad word as lseek's), leaving the file offset alone. ESPIPE for pipes and devices; EINVAL
 * for a negative offset. pwrite on a file opened with O_APPEND writes at its end.
 */
function* prw(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array, rw: number): KGen<number> {
  const fp = fileFor(p, a[0]!, rw);
  if (!fp) return EBADF;
  if (fp.f_type !== DTYPE_VNODE || fp.vnode.type === VCHR) return ESPIPE;
  const n = a[2]!;
  const off = k.get64(a[4]!, a[5]!);
  if (n < 0 || off < 0 || !Number.isSafeInteger(off)) return EINVAL;
  return yield* rwuio(k, p, fp, new Uio(p.p_vmspace!, a[1]! >>> 0, n, rw, off), rv, false);
}

export function sys_pread(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  return prw(k, p, a, rv, UIO_READ);
}

export function sys_pwrite(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  return prw(k, p, a, rv, UIO_WRITE);
}

/**
 * ioctl(fd, cmd, arg): the 4.4BSD framework — the parameter size and direction are encoded in
 * cmd (IOC_IN: copied in before, IOC_OUT: copied out after, IOC_VOID with a nonzero size: the
 * argument itself). FIOCLEX, FIONCLEX and FIONBIO are handled here for every file.
 */
export function sys_ioctl(k: Kernel, p: Proc, a: Int32Array): number {
  const fd = a[0]!;
  const fp = p.p_fd.get(fd);
  if (!fp) return EBADF;
  const cmd = a[1]! >>> 0;
  const arg = a[2]! >>> 0;
  if ((fp.f_flag & (FREAD | FWRITE)) === 0) return EBADF;
  switch (cmd) {
    case FIONCLEX:
      p.p_fd.ofileflags[fd]! &= ~UF_EXCLOSE;
      return 0;
    case FIOCLEX:
      p.p_fd.ofileflags[fd]! |= UF_EXCLOSE;
      return 0;
  }
  const size = (cmd >>> 16) & IOCPARM_MASK;
  if (size > IOCPARM_MAX) return ENOTTY;
  const data = new Uint8Array(Math.max(size, 4));
  const dv = new DataView(data.buffer);
  if (cmd & IOC_IN) {
    if (size) {
      const b = copyin(p.p_vmspace!, arg, size);
      if (typeof b === 'number') return b;
      data.set(b);
    } else {
      dv.setInt32(0, arg, k.littleEndian);
    }
  } else if ((cmd & IOC_VOID) && size === 0) {
    dv.setInt32(0, arg, k.littleEndian);
  }
  if (cmd === FIONBIO) {
    if (dv.getInt32(0, k.littleEndian)) fp.f_flag |= O_NONBLOCK;
    else fp.f_flag &= ~O_NONBLOCK;
  }
  const error = fp.f_ops.ioctl(k, p, fp, cmd, new DataView(data.buffer, 0, Math.max(size, 4)));
  if (error) return error;
  if ((cmd & IOC_OUT) && size) {
    if (copyout(p.p_vmspace!, data.subarray(0, size), arg)) return EFAULT;
  }
  return 0;
}

export function sys_close(k: Kernel, p: Proc, a: Int32Array): number {
  return fdclose(k, p, a[0]!);
}

function dupit(p: Proc, old: number, nfd: number, rv: Int32Array): number {
  const fp = p.p_fd.get(old)!;
  fp.f_count++;
  p.p_fd.install(nfd, fp, 0);
  rv[0] = nfd;
  return 0;
}

export function sys_dup(_k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  if (!p.p_fd.get(a[0]!)) return EBADF;
  const nfd = p.p_fd.alloc(0);
  if (nfd < 0) return -nfd;
  return dupit(p, a[0]!, nfd, rv);
}

export function sys_dup2(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  const old = a[0]!;
  const nfd = a[1]!;
  if (!p.p_fd.get(old) || nfd < 0 || nfd >= NOFILE) return EBADF;
  rv[0] = nfd;
  if (old === nfd) return 0;
  if (p.p_fd.get(nfd)) fdclose(k, p, nfd);
  return dupit(p, old, nfd, rv);
}

/**
 * A struct flock (4.4BSD <fcntl.h>: l_start int64 at 0, l_len int64 at 8, l_pid int32 at 16,
 * l_type int16 at 20, l_whence int16 at 22; 24 bytes) turned into the byte range it covers:
 * l_start from SEEK_SET, SEEK_CUR or SEEK_END, l_len 0 for "to the end of the file, however
 * long", a negative l_len for the bytes before l_start (FreeBSD, POSIX.1-2008).
 */
function flockIn(k: Kernel, fp: File, b: Uint8Array, owner: object): LockF | number {
  const dv = new DataView(b.buffer, b.byteOffset, 24);
  const le = k.littleEndian;
  const whence = dv.getInt16(22, le);
  const base = whence === 0 ? 0 : whence === 1 ? fp.f_offset : whence === 2 ? fp.vnode.size : -1;
  if (base < 0) return EINVAL;
  let start = base + Number(dv.getBigInt64(0, le));
  const len = Number(dv.getBigInt64(8, le));
  let end: number;
  if (len === 0) {
    end = Infinity;
  } else if (len > 0) {
    end = start + len - 1;
  } else {
    end = start - 1;
    start += len;
  }
  if (start < 0 || !Number.isSafeInteger(start) || (end !== Infinity && !Number.isSafeInteger(end))) return EINVAL;
  return { type: dv.getInt16(20, le), start, end, owner, flags: F_POSIX };
}

/** fcntl's record locks: F_GETLK reports the first conflicting lock, F_SETLK(W) sets or clears. */
function fcntlLock(k: Kernel, p: Proc, fp: File, cmd: number, uaddr: number): number | KGen<number> {
  if (fp.f_type !== DTYPE_VNODE) return EBADF;
  const b = copyin(p.p_vmspace!, uaddr, 24);
  if (typeof b === 'number') return b;
  const lock = flockIn(k, fp, b, p);
  if (typeof lock === 'number') return lock;
  const vp = fp.vnode;
  if (cmd === F_GETLK) {
    if (lock.type !== F_RDLCK && lock.type !== F_WRLCK) return EINVAL;
    const block = lf_getblock(vp, lock);
    const dv = new DataView(b.buffer);
    const le = k.littleEndian;
    if (block) {
      dv.setBigInt64(0, BigInt(block.start), le);
      dv.setBigInt64(8, block.end === Infinity ? 0n : BigInt(block.end - block.start + 1), le);
      dv.setInt32(16, lf_pid(block), le);
      dv.setInt16(20, block.type, le);
      dv.setInt16(22, 0, le);
    } else {
      dv.setInt16(20, F_UNLCK, le);
    }
    return copyout(p.p_vmspace!, b, uaddr) ? EFAULT : 0;
  }
  if (lock.type === F_RDLCK ? (fp.f_flag & FREAD) === 0 : lock.type === F_WRLCK ? (fp.f_flag & FWRITE) === 0 : lock.type !== F_UNLCK) {
    return lock.type === F_RDLCK || lock.type === F_WRLCK ? EBADF : EINVAL;
  }
  return lf_setlock(k, p, vp, lock, cmd === F_SETLKW);
}

export function sys_fcntl(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number | KGen<number> {
  const fd = a[0]!;
  const fp = p.p_fd.get(fd);
  if (!fp) return EBADF;
  const arg = a[2]!;
  switch (a[1]!) {
    case F_DUPFD: {
      if (arg < 0 || arg >= NOFILE) return EINVAL;
      const nfd = p.p_fd.alloc(arg);
      if (nfd < 0) return EMFILE;
      return dupit(p, fd, nfd, rv);
    }
    case F_GETFD:
      rv[0] = p.p_fd.ofileflags[fd]! & UF_EXCLOSE ? FD_CLOEXEC : 0;
      return 0;
    case F_SETFD:
      p.p_fd.ofileflags[fd] = arg & FD_CLOEXEC ? UF_EXCLOSE : 0;
      return 0;
    case F_GETFL:
      // OFLAGS: the f_flag access bits back to O_RDONLY/O_WRONLY/O_RDWR.
      rv[0] = (fp.f_flag & FCNTLFLAGS) | ((fp.f_flag & 3) - 1);
      return 0;
    case F_SETFL:
      fp.f_flag = (fp.f_flag & ~FCNTLFLAGS) | (arg & FCNTLFLAGS);
      return 0;
    case F_GETLK:
    case F_SETLK:
    case F_SETLKW:
      return fcntlLock(k, p, fp, a[1]!, arg >>> 0);
    default:
      return EINVAL;
  }
}

/**
 * flock(fd, how): a whole-file lock owned by the open file (shared by dup and fork, released
 * when its last descriptor closes). LOCK_SH 1, LOCK_EX 2, LOCK_NB 4 (EWOULDBLOCK instead of
 * waiting), LOCK_UN 8. EOPNOTSUPP on a pipe.
 */
export function sys_flock(k: Kernel, p: Proc, a: Int32Array): number | KGen<number> {
  const fp = p.p_fd.get(a[0]!);
  if (!fp) return EBADF;
  if (fp.f_type !== DTYPE_VNODE) return EOPNOTSUPP;
  const how = a[1]!;
  const lock: LockF = { type: F_UNLCK, start: 0, end: Infinity, owner: fp, flags: F_FLOCK };
  if (how & LOCK_UN) {
    fp.f_flag &= ~FHASLOCK;
    lf_release(k, fp.vnode, fp);
    return 0;
  }
  if (how & LOCK_EX) lock.type = F_WRLCK;
  else if (how & LOCK_SH) lock.type = F_RDLCK;
  else return EINVAL;
  fp.f_flag |= FHASLOCK;
  return lf_setlock(k, p, fp.vnode, lock, (how & LOCK_NB) === 0);
}

export function sys_fstat(k: Kernel, p: Proc, a: Int32Array): number {
  const fp = p.p_fd.get(a[0]!);
  if (!fp) return EBADF;
  return copyout(p.p_vmspace!, statBytes(k, fp.f_ops.stat(k, fp)), a[1]! >>> 0) ? EFAULT : 0;
}

