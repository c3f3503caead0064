/**
 * Filesystem system calls (4.4BSD vfs_syscalls.c): open, unlink, chdir, chmod, access, mkdir,
 * rmdir, rename, stat, lstat, getdirentries, lseek, umask. Every process runs as root, so access
 * checks reduce to root's (execute needs an x bit; everything else is allowed).
 */
import {
  EACCES, EBADF, EEXIST, EFAULT, EINVAL, EISDIR, ENOENT, ENOTDIR, ENOTEMPTY, EPERM, ESPIPE, ETXTBSY,
} from './errno.js';
import {
  DTYPE_VNODE, FREAD, FWRITE, File, O_ACCMODE, O_APPEND, O_CREAT, O_EXCL, O_NONBLOCK, O_TRUNC,
} from './kern_descrip.js';
import { major, minor } from './dev.js';
import type { Kernel } from './kernel.js';
import { MAXPATHLEN } from './param.js';
import type { Proc } from './proc.js';
import { statBytes } from './sys_generic.js';
import { CREATE, DELETE, LOOKUP, RENAME, VCHR, VDIR, VREG, type Vnode } from './vfs.js';
import { vn_stat, vnops } from './vfs_vnops.js';
import { copyinstr, copyout, suword } from './vm/copyio.js';

/** Copies a path argument in. */
export function pathArg(p: Proc, uaddr: number): string | number {
  return copyinstr(p.p_vmspace!, uaddr >>> 0, MAXPATHLEN);
}

/** Frees the data of a vnode nothing names or holds open any more. */
function releaseIfUnused(k: Kernel, vp: Vnode): void {
  if (vp.usecount <= 0 && vp.nlink <= 0) {
    k.disk.truncate(vp, 0);
    vp.data = new Uint8Array(0);
    k.vfs.setSize(vp, 0);
  }
}

/** Opens vp for fmode (FREAD/FWRITE/...) as a new descriptor; returns it or -errno. */
export function vn_open_fd(k: Kernel, p: Proc, vp: Vnode, fmode: number): number {
  if (vp.type === VDIR && (fmode & FWRITE)) return -EISDIR;
  if ((fmode & FWRITE) && vp.v_object && vp.v_object.ref > 0) return -ETXTBSY;
  if (vp.type === VCHR) {
    const sw = k.devs.cdevsw.get(major(vp.rdev));
    if (!sw) return -6; // ENXIO
    const e = sw.open?.(k, p, minor(vp.rdev), fmode) ?? 0;
    if (e) return -e;
  }
  const fd = p.p_fd.alloc(0);
  if (fd < 0) return fd;
  const fp = new File(DTYPE_VNODE, fmode, vnops, vp);
  vp.usecount++;
  if (fmode & FWRITE) vp.v_writecount++;
  p.p_fd.install(fd, fp, 0);
  return fd;
}

export function sys_open(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const flags = a[1]!;
  if ((flags & O_ACCMODE) === O_ACCMODE) return EINVAL;
  const fmode = ((flags & O_ACCMODE) + 1) | (flags & (O_NONBLOCK | O_APPEND));
  const cwd = p.p_fd.cwd;
  let vp: Vnode;
  if (flags & O_CREAT) {
    const r = k.vfs.namei(cwd as Vnode, path, CREATE);
    if (r.error) return r.error;
    if (r.vp) {
      if (flags & O_EXCL) return EEXIST;
      vp = r.vp;
    } else {
      if (!r.dvp) return EEXIST;
      vp = k.vfs.create(r.dvp, r.name!, VREG, a[2]! & 0o7777 & ~p.p_umask);
      vp.dirty = true;
      // The directory link holds the vnode; usecount counts it.
    }
  } else {
    const r = k.vfs.namei(cwd as Vnode, path, LOOKUP);
    if (r.error) return r.error;
    vp = r.vp!;
  }
  const fd = vn_open_fd(k, p, vp, fmode);
  if (fd < 0) return -fd;
  if ((flags & O_TRUNC) && (fmode & FWRITE) && vp.type === VREG && vp.size > 0) {
    k.vfs.setSize(vp, 0);
    vp.dirty = true;
    k.disk.truncate(vp, 0);
    k.vfs.touch(vp);
  }
  rv[0] = fd;
  return 0;
}

export function sys_unlink(k: Kernel, p: Proc, a: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, DELETE);
  if (r.error) return r.error;
  if (!r.vp) return ENOENT;
  if (r.vp.type === VDIR) return EPERM;
  const e = k.vfs.unlink(r.dvp!, r.name!);
  if (!e) releaseIfUnused(k, r.vp);
  return e;
}

export function sys_chdir(k: Kernel, p: Proc, a: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, LOOKUP);
  if (r.error) return r.error;
  if (r.vp!.type !== VDIR) return ENOTDIR;
  (p.p_fd.cwd as Vnode).usecount--;
  r.vp!.usecount++;
  p.p_fd.cwd = r.vp!;
  return 0;
}

export function sys_chmod(k: Kernel, p: Proc, a: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, LOOKUP);
  if (r.error) return r.error;
  const vp = r.vp!;
  vp.mode = (vp.mode & 0o170000) | (a[1]! & 0o7777);
  vp.ctime = k.timespec();
  vp.dirty = vp.dirty || vp.type === VREG;
  return 0;
}

/** access(path, mode): as root — X_OK needs some execute bit on a non-directory. */
export function sys_access(k: Kernel, p: Proc, a: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, LOOKUP);
  if (r.error) return r.error;
  const mode = a[1]!;
  if ((mode & 1) && r.vp!.type !== VDIR && (r.vp!.mode & 0o111) === 0) return EACCES;
  return 0;
}

export function sys_mkdir(k: Kernel, p: Proc, a: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, CREATE);
  if (r.error) return r.error;
  if (r.vp || !r.dvp) return EEXIST;
  const vp = k.vfs.create(r.dvp, r.name!, VDIR, a[1]! & 0o7777 & ~p.p_umask);
  vp.dirty = true;
  return 0;
}

export function sys_rmdir(k: Kernel, p: Proc, a: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, DELETE);
  if (r.error) return r.error;
  if (!r.vp) return ENOENT;
  if (r.vp.type !== VDIR) return ENOTDIR;
  if (r.vp.entries!.size > 0) return ENOTEMPTY;
  return k.vfs.unlink(r.dvp!, r.name!);
}

export function sys_rename(k: Kernel, p: Proc, a: Int32Array): number {
  const from = pathArg(p, a[0]!);
  if (typeof from === 'number') return from;
  const to = pathArg(p, a[1]!);
  if (typeof to === 'number') return to;
  const cwd = p.p_fd.cwd as Vnode;
  const f = k.vfs.namei(cwd, from, RENAME);
  if (f.error) return f.error;
  if (!f.vp) return ENOENT;
  const t = k.vfs.namei(cwd, to, RENAME);
  if (t.error) return t.error;
  if (!t.dvp) return EINVAL;
  const replaced = t.vp;
  const e = k.vfs.rename(f.dvp!, f.name!, t.dvp, t.name!);
  if (!e && replaced && replaced !== f.vp) releaseIfUnused(k, replaced);
  if (!e) f.vp.dirty = f.vp.dirty || f.vp.type === VREG;
  return e;
}

function statPath(k: Kernel, p: Proc, a: Int32Array): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, LOOKUP);
  if (r.error) return r.error;
  return copyout(p.p_vmspace!, statBytes(k, vn_stat(r.vp!)), a[1]! >>> 0) ? EFAULT : 0;
}

export const sys_stat = statPath;
/** lstat: no symbolic links exist, so it is stat. */
export const sys_lstat = statPath;

/**
 * getdirentries(fd, buf, nbytes, basep): struct dirent records (docs/abi.md): d_fileno (4),
 * d_reclen (2), d_type (1), d_namlen (1), the name and a NUL, padded to 4 bytes. The file offset
 * counts entries: ".", "..", then the directory's entries in creation order.
 */
export function sys_getdirentries(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  const fp = p.p_fd.get(a[0]!);
  if (!fp || (fp.f_flag & FREAD) === 0) return EBADF;
  if (fp.f_type !== DTYPE_VNODE || fp.vnode.type !== VDIR) return EINVAL;
  const dvp = fp.vnode;
  const nbytes = a[2]!;
  if (nbytes < 0) return EINVAL;
  const names: [string, Vnode][] = [['.', dvp], ['..', dvp.parent ?? dvp], ...dvp.entries!];
  const out: number[] = [];
  const le = k.littleEndian;
  let i = fp.f_offset;
  const base = fp.f_offset;
  for (; i < names.length; i++) {
    const [name, vp] = names[i]!;
    const nb = Buffer.from(name, 'latin1');
    const reclen = (8 + nb.length + 1 + 3) & ~3;
    if (out.length + reclen > nbytes) break;
    const rec = new Uint8Array(reclen);
    const dv = new DataView(rec.buffer);
    dv.setUint32(0, vp.ino, le);
    dv.setUint16(4, reclen, le);
    rec[6] = vp.type === VDIR ? 4 : vp.type === VCHR ? 2 : 8;
    rec[7] = nb.length;
    rec.set(nb, 8);
    for (const x of rec) out.push(x);
  }
  if (out.length === 0 && i < names.length) return EINVAL; // buffer too small for one entry
  if (copyout(p.p_vmspace!, Uint8Array.from(out), a[1]! >>> 0)) return EFAULT;
  const basep = a[3]! >>> 0;
  if (basep && suword(p.p_vmspace!, basep, base)) return EFAULT;
  fp.f_offset = i;
  rv[0] = out.length;
  return 0;
}

/**
 * lseek(fd, pad, offset, whence): the 64-bit offset arrives as two words in the C convention's
 * order (memory order of the byte order on MIPS, high word first on SPARC) and is returned the
 * same way (Kernel.get64/set64).
 */
export function sys_lseek(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  const fp = p.p_fd.get(a[0]!);
  if (!fp) return EBADF;
  if (fp.f_type !== DTYPE_VNODE || fp.vnode.type === VCHR) return ESPIPE;
  const off = k.get64(a[2]!, a[3]!);
  let n: number;
  switch (a[4]!) {
    case 0:
      n = off;
      break;
    case 1:
      n = fp.f_offset + off;
      break;
    case 2:
      n = fp.vnode.size + off;
      break;
    default:
      return EINVAL;
  }
  if (n < 0 || !Number.isSafeInteger(n)) return EINVAL;
  fp.f_offset = n;
  k.set64(rv, n);
  return 0;
}

export function sys_umask(_k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  rv[0] = p.p_umask;
  p.p_umask = a[0]! & 0o777;
  return 0;
}

