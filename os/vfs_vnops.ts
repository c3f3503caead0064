/**
 * File operations on vnodes (4.4BSD vfs_vnops.c): read and write of regular files through the
 * buffer cache and disk model, directories (EISDIR), character devices through cdevsw; stat.
 */
import { COST } from './cost.js';
import { EFBIG, EISDIR, ENOSPC, ENOTTY, ENXIO } from './errno.js';
import { FIONREAD } from './filio.js';
import { type File, type FileOps, O_APPEND, type StatInfo, type Uio } from './kern_descrip.js';
import type { Kernel } from './kernel.js';
import { major, minor } from './param.js';
import type { KGen, Proc } from './proc.js';
import { POLLIN, POLLOUT, POLLRDNORM, POLLWRNORM } from './sys_select.js';
import { VCHR, VDIR, VREG, type Vnode } from './vfs.js';

/** Largest regular file a guest may write (keeps a runaway writer from exhausting the host). */
export const MAXFILESIZE = 256 * 1024 * 1024;

export function vn_stat(vp: Vnode): StatInfo {
  return {
    dev: 0x0400, // one filesystem: major 4 (4.4BSD's sd), minor 0
    ino: vp.ino,
    mode: vp.mode,
    nlink: vp.nlink,
    uid: vp.uid,
    gid: vp.gid,
    rdev: vp.type === VCHR ? vp.rdev : 0,
    atime: vp.atime,
    mtime: vp.mtime,
    ctime: vp.ctime,
    size: vp.type === VDIR ? 512 * Math.max(1, Math.ceil((vp.entries!.size + 2) * 16 / 512)) : vp.size,
    blksize: 8192,
  };
}

/** Releases a vnode's data when nothing names it and nothing has it open. */
export function vrele(k: Kernel, vp: Vnode): void {
  if (--vp.usecount > 0) return;
  if (vp.nlink > 0) return;
  k.disk.truncate(vp, 0);
  vp.data = new Uint8Array(0);
  k.vfs.setSize(vp, 0);
}

export const vnops: FileOps = {
  *read(k: Kernel, p: Proc, fp: File, uio: Uio): KGen<number> {
    const vp = fp.vnode;
    if (vp.type === VDIR) return EISDIR;
    if (vp.type === VCHR) {
      const sw = k.devs.sw(vp);
      if (!sw) return ENXIO;
      return yield* sw.read(k, p, minor(vp.rdev), uio);
    }
    const off = uio.offset;
    if (off >= vp.size || uio.resid === 0) return 0;
    const want = Math.min(uio.resid, vp.size - off);
    yield* k.disk.bread(p, vp, off, want);
    // The file may have shrunk while the process slept.
    const n = Math.min(want, Math.max(0, vp.size - off));
    k.charge(n * COST.copyPerByte);
    return uio.move(vp.data, off, n);
  },

  *write(k: Kernel, p: Proc, fp: File, uio: Uio): KGen<number> {
    const vp = fp.vnode;
    if (vp.type === VCHR) {
      const sw = k.devs.sw(vp);
      if (!sw) return ENXIO;
      return yield* sw.write(k, p, minor(vp.rdev), uio);
    }
    if (vp.type !== VREG) return EISDIR;
    if (fp.f_flag & O_APPEND) uio.offset = vp.size;
    const off = uio.offset;
    const n = uio.resid;
    if (n === 0) return 0;
    if (off + n > MAXFILESIZE) return EFBIG;
    const oldSize = vp.size;
    if (off + n > oldSize && !k.vfs.setSize(vp, off + n)) return ENOSPC;
    vp.reserve(off + n);
    if (off > oldSize) vp.data.fill(0, oldSize, off);
    const e = uio.move(vp.data, off, n);
    const moved = n - uio.resid;
    // A fault part way through: the file ends where the data did.
    if (moved < n && off + n > oldSize) k.vfs.setSize(vp, Math.max(oldSize, off + moved));
    if (moved > 0) {
      vp.dirty = true;
      k.vfs.touch(vp);
      k.disk.bwrite(p, vp, off, moved);
      k.charge(moved * COST.copyPerByte);
    }
    return e;
  },

  ioctl(k: Kernel, p: Proc, fp: File, cmd: number, data: DataView): number {
    const vp = fp.vnode;
    if (vp.type === VCHR) {
      const sw = k.devs.sw(vp);
      if (!sw) return ENXIO;
      return sw.ioctl(k, p, minor(vp.rdev), cmd, data);
    }
    if (cmd === FIONREAD && vp.type === VREG) {
      data.setInt32(0, Math.max(0, vp.size - fp.f_offset), k.littleEndian);
      return 0;
    }
    return ENOTTY;
  },

  stat(_k: Kernel, fp: File): StatInfo {
    return vn_stat(fp.vnode);
  },

  /** Files and directories are always ready; a device answers for itself (ready by default). */
  poll(k: Kernel, p: Proc, fp: File, events: number): number {
    const vp = fp.vnode;
    const sw = vp.type === VCHR ? k.devs.sw(vp) : undefined;
    if (sw?.poll) return sw.poll(k, p, minor(vp.rdev), events);
    return events & (POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM);
  },

  close(k: Kernel, fp: File): void {
    const vp = fp.vnode;
    if (fp.f_flag & 2 /* FWRITE */) vp.v_writecount--;
    if (vp.type === VCHR) k.devs.cdevsw.get(major(vp.rdev))?.close?.(k, minor(vp.rdev));
    vrele(k, vp);
  },
};
