/**
 * read, write, ioctl (4.4BSD sys_generic.c) and the descriptor calls close, dup, dup2, fcntl,
 * fstat (kern_descrip.c), over the FileOps of each kind of open file.
 */
import { EBADF, EFAULT, EINTR, EINVAL, EMFILE, ENOTTY, ERESTART, EWOULDBLOCK } from './errno.js';
import { FIOCLEX, FIONBIO, FIONCLEX } from './dev.js';
import { IOC_IN, IOC_OUT, IOC_VOID, IOCPARM_MASK, IOCPARM_MAX } from '../format/ioccom.js';
import {
  FCNTLFLAGS, FREAD, FWRITE, O_NONBLOCK, type StatInfo, UF_EXCLOSE, UIO_READ, UIO_WRITE, Uio, fdclose,
} from './kern_descrip.js';
import type { Kernel } from './kernel.js';
import { NOFILE } from './param.js';
import type { KGen, Proc } from './proc.js';
import { copyin, copyout } from './vm/copyio.js';

export const F_DUPFD = 0;
export const F_GETFD = 1;
export const F_SETFD = 2;
export const F_GETFL = 3;
export const F_SETFL = 4;
export const FD_CLOEXEC = 1;

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

export function* sys_read(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  const fp = p.p_fd.get(a[0]!);
  if (!fp || (fp.f_flag & FREAD) === 0) return EBADF;
  const n = a[2]!;
  if (n < 0) return EINVAL;
  const uio = new Uio(p.p_vmspace!, a[1]! >>> 0, n, UIO_READ, fp.f_offset);
  const error = partial(yield* fp.f_ops.read(k, p, fp, uio), n - uio.resid);
  fp.f_offset = uio.offset;
  rv[0] = n - uio.resid;
  return error;
}

export function* sys_write(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): KGen<number> {
  const fp = p.p_fd.get(a[0]!);
  if (!fp || (fp.f_flag & FWRITE) === 0) return EBADF;
  const n = a[2]!;
  if (n < 0) return EINVAL;
  const uio = new Uio(p.p_vmspace!, a[1]! >>> 0, n, UIO_WRITE, fp.f_offset);
  const error = partial(yield* fp.f_ops.write(k, p, fp, uio), n - uio.resid);
  fp.f_offset = uio.offset;
  rv[0] = n - uio.resid;
  return error;
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
  return fdclose(k, p.p_fd, a[0]!);
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
  if (p.p_fd.get(nfd)) fdclose(k, p.p_fd, nfd);
  return dupit(p, old, nfd, rv);
}

export function sys_fcntl(_k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
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
      rv[0] = (fp.f_flag & ~3) | ((fp.f_flag & 3) - 1);
      return 0;
    case F_SETFL:
      fp.f_flag = (fp.f_flag & ~FCNTLFLAGS) | (arg & FCNTLFLAGS);
      return 0;
    default:
      return EINVAL;
  }
}

export function sys_fstat(k: Kernel, p: Proc, a: Int32Array): number {
  const fp = p.p_fd.get(a[0]!);
  if (!fp) return EBADF;
  return copyout(p.p_vmspace!, statBytes(k, fp.f_ops.stat(k, fp)), a[1]! >>> 0) ? EFAULT : 0;
}

