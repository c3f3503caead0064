/**
 * Filesystem system calls (4.4BSD vfs_syscalls.c): open, link, symlink, readlink, unlink, chdir,
 * fchdir, chmod, fchmod, chown, fchown, utimes, access, mkdir, rmdir, rename, stat, lstat,
 * getdirentries, lseek, truncate, ftruncate, fsync, umask. Every process runs as root, so access
 * checks reduce to root's (execute needs an x bit; everything else is allowed).
 */
import {
  EACCES, EBADF, EEXIST, EFAULT, EFBIG, EINVAL, EISDIR, ENOENT, ENOSPC, ENOTDIR, ENOTEMPTY, EPERM, ESPIPE,
  ETXTBSY,
} from './errno.js';
import {
  DTYPE_VNODE, FREAD, FWRITE, File, O_ACCMODE, O_APPEND, O_CREAT, O_EXCL, O_NONBLOCK, O_TRUNC,
} from './kern_descrip.js';
import type { Kernel } from './kernel.js';
import { major, MAXPATHLEN, minor } from './param.js';
import type { KGen, Proc } from './proc.js';
import { statBytes } from './sys_generic.js';
import { CREATE, DELETE, LOOKUP, RENAME, VCHR, VDIR, VLNK, VREG, type Vnode } from './vfs.js';
import { MAXFILESIZE, vn_stat, vnops } from './vfs_vnops.js';
import { copyin, copyinstr, copyout, suword } from './vm/copyio.js';

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
    // O_CREAT follows a final symbolic link (creating its target) unless O_EXCL (4.4BSD vn_open).
    const r = k.vfs.namei(cwd as Vnode, path, CREATE, (flags & O_EXCL) === 0);
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

/** The vnode a path argument names (following a final symbolic link when `follow`), or an errno. */
function lookupArg(k: Kernel, p: Proc, uaddr: number, follow = true): Vnode | number {
  const path = pathArg(p, uaddr);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, LOOKUP, follow);
  return r.error ? r.error : r.vp!;
}

export function sys_chdir(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!);
  if (typeof vp === 'number') return vp;
  if (vp.type !== VDIR) return ENOTDIR;
  (p.p_fd.cwd as Vnode).usecount--;
  vp.usecount++;
  p.p_fd.cwd = vp;
  return 0;
}

/** The vnode open on descriptor fd, or an errno (EBADF; EINVAL for a pipe). */
function fdVnode(p: Proc, fd: number): Vnode | number {
  const fp = p.p_fd.get(fd);
  if (!fp) return EBADF;
  return fp.f_type === DTYPE_VNODE ? fp.vnode : EINVAL;
}

function setmode(k: Kernel, vp: Vnode, mode: number): number {
  vp.mode = (vp.mode & 0o170000) | (mode & 0o7777);
  vp.ctime = k.timespec();
  vp.dirty = vp.dirty || vp.type === VREG;
  return 0;
}

/** chown's work: uid or gid (u_int) -1 leaves that one as it is. */
function setowner(k: Kernel, vp: Vnode, uid: number, gid: number): number {
  if (uid !== -1) vp.uid = uid >>> 0;
  if (gid !== -1) vp.gid = gid >>> 0;
  vp.ctime = k.timespec();
  vp.dirty = vp.dirty || vp.type === VREG;
  return 0;
}

export function sys_chmod(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!);
  return typeof vp === 'number' ? vp : setmode(k, vp, a[1]!);
}

export function sys_fchmod(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = fdVnode(p, a[0]!);
  return typeof vp === 'number' ? vp : setmode(k, vp, a[1]!);
}

export function sys_chown(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!);
  return typeof vp === 'number' ? vp : setowner(k, vp, a[1]!, a[2]!);
}

export function sys_fchown(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = fdVnode(p, a[0]!);
  return typeof vp === 'number' ? vp : setowner(k, vp, a[1]!, a[2]!);
}

/** fchdir(fd): the directory open on fd becomes the working directory. */
export function sys_fchdir(_k: Kernel, p: Proc, a: Int32Array): number {
  const fp = p.p_fd.get(a[0]!);
  if (!fp) return EBADF;
  if (fp.f_type !== DTYPE_VNODE || fp.vnode.type !== VDIR) return ENOTDIR;
  (p.p_fd.cwd as Vnode).usecount--;
  fp.vnode.usecount++;
  p.p_fd.cwd = fp.vnode;
  return 0;
}

/** link(path, link): a second name for a file (not a directory: EPERM, as 4.4BSD for all users). */
export function sys_link(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!);
  if (typeof vp === 'number') return vp;
  if (vp.type === VDIR) return EPERM;
  const to = pathArg(p, a[1]!);
  if (typeof to === 'number') return to;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, to, CREATE, false);
  if (r.error) return r.error;
  if (r.vp || !r.dvp) return EEXIST;
  k.vfs.link(r.dvp, r.name!, vp);
  vp.dirty = vp.dirty || vp.type === VREG;
  return 0;
}

/** symlink(target, link): a symbolic link whose contents are target (never checked). */
export function sys_symlink(k: Kernel, p: Proc, a: Int32Array): number {
  const target = pathArg(p, a[0]!);
  if (typeof target === 'number') return target;
  const path = pathArg(p, a[1]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, CREATE, false);
  if (r.error) return r.error;
  if (r.vp || !r.dvp) return EEXIST;
  const bytes = Uint8Array.from(target, (c) => c.charCodeAt(0));
  if (k.vfs.used + bytes.length > k.vfs.space) return ENOSPC;
  const vp = k.vfs.create(r.dvp, r.name!, VLNK, 0o777 & ~p.p_umask);
  vp.data = bytes;
  k.vfs.setSize(vp, bytes.length);
  vp.dirty = true;
  return 0;
}

/** readlink(path, buf, count): the link's contents, not NUL-terminated, at most count bytes. */
export function sys_readlink(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!, false);
  if (typeof vp === 'number') return vp;
  if (vp.type !== VLNK) return EINVAL;
  const count = a[2]!;
  if (count < 0) return EINVAL;
  const n = Math.min(count, vp.size);
  if (copyout(p.p_vmspace!, vp.data.subarray(0, n), a[1]! >>> 0)) return EFAULT;
  rv[0] = n;
  return 0;
}

/**
 * utimes(path, tvp): access and modification times from tvp[0] and tvp[1] (struct timeval),
 * or both the current time when tvp is NULL; the change time becomes the current time.
 */
export function sys_utimes(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!);
  if (typeof vp === 'number') return vp;
  const tvp = a[1]! >>> 0;
  const now = k.timespec();
  let at = now;
  let mt = now;
  if (tvp) {
    const b = copyin(p.p_vmspace!, tvp, 16);
    if (typeof b === 'number') return b;
    const dv = new DataView(b.buffer);
    const le = k.littleEndian;
    const tv = (off: number): { sec: number; nsec: number } | null => {
      const usec = dv.getInt32(off + 4, le);
      return usec < 0 || usec >= 1e6 ? null : { sec: dv.getInt32(off, le), nsec: usec * 1000 };
    };
    const x = tv(0);
    const y = tv(8);
    if (!x || !y) return EINVAL;
    at = x;
    mt = y;
  }
  vp.atime = { ...at };
  vp.mtime = { ...mt };
  vp.ctime = { ...now };
  vp.dirty = vp.dirty || vp.type === VREG;
  return 0;
}

/**
 * Sets a regular file's length: growth reads back as zeros, shrinking drops the cached blocks
 * beyond. EISDIR for a directory, EINVAL for anything else not a regular file, EFBIG past the
 * file size limit, ENOSPC when the disk is full, ETXTBSY for a running executable.
 */
function vn_truncate(k: Kernel, vp: Vnode, len: number): number {
  if (vp.type === VDIR) return EISDIR;
  if (vp.type !== VREG) return EINVAL;
  if (len < 0 || !Number.isSafeInteger(len)) return EINVAL;
  if (len > MAXFILESIZE) return EFBIG;
  if (vp.v_object && vp.v_object.ref > 0) return ETXTBSY;
  const old = vp.size;
  if (len > old) {
    if (!k.vfs.setSize(vp, len)) return ENOSPC;
    vp.reserve(len);
    vp.data.fill(0, old, len);
  } else if (len < old) {
    k.vfs.setSize(vp, len);
    k.disk.truncate(vp, len);
  }
  vp.dirty = true;
  k.vfs.touch(vp);
  return 0;
}

/** truncate(path, pad, length): the 64-bit length in the argument words 2 and 3 (as lseek's). */
export function sys_truncate(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!);
  if (typeof vp === 'number') return vp;
  return vn_truncate(k, vp, k.get64(a[2]!, a[3]!));
}

/** ftruncate(fd, pad, length): the descriptor must be open for writing (EINVAL, 4.4BSD). */
export function sys_ftruncate(k: Kernel, p: Proc, a: Int32Array): number {
  const fp = p.p_fd.get(a[0]!);
  if (!fp) return EBADF;
  if (fp.f_type !== DTYPE_VNODE || (fp.f_flag & FWRITE) === 0) return EINVAL;
  return vn_truncate(k, fp.vnode, k.get64(a[2]!, a[3]!));
}

/** fsync(fd): waits until the disk holds every delayed write of the file. */
export function* sys_fsync(k: Kernel, p: Proc, a: Int32Array): KGen<number> {
  const fp = p.p_fd.get(a[0]!);
  if (!fp) return EBADF;
  if (fp.f_type !== DTYPE_VNODE) return EINVAL;
  if (fp.vnode.type === VREG) yield* k.disk.fsync(fp.vnode);
  return 0;
}

/** access(path, mode): as root — X_OK needs some execute bit on a non-directory. */
export function sys_access(k: Kernel, p: Proc, a: Int32Array): number {
  const vp = lookupArg(k, p, a[0]!);
  if (typeof vp === 'number') return vp;
  const mode = a[1]!;
  if (mode & ~7) return EINVAL;
  if ((mode & 1) && vp.type !== VDIR && (vp.mode & 0o111) === 0) return EACCES;
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

function statPath(k: Kernel, p: Proc, a: Int32Array, follow: boolean): number {
  const path = pathArg(p, a[0]!);
  if (typeof path === 'number') return path;
  const r = k.vfs.namei(p.p_fd.cwd as Vnode, path, LOOKUP, follow);
  if (r.error) return r.error;
  return copyout(p.p_vmspace!, statBytes(k, vn_stat(r.vp!)), a[1]! >>> 0) ? EFAULT : 0;
}

export function sys_stat(k: Kernel, p: Proc, a: Int32Array): number {
  return statPath(k, p, a, true);
}

/** lstat: a symbolic link itself, not what it names. */
export function sys_lstat(k: Kernel, p: Proc, a: Int32Array): number {
  return statPath(k, p, a, false);
}

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
    rec[6] = vp.type === VDIR ? 4 : vp.type === VCHR ? 2 : vp.type === VLNK ? 10 : 8;
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

