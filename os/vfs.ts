/**
 * The in-memory filesystem (the vnode and namei layers of 4.4BSD, over a RAM-resident tree in
 * place of UFS). Files hold their bytes in guest order; directories map names to vnodes in
 * creation order (the order getdirentries returns). Loaded from the boot image at boot; nothing of
 * the host is visible except what the image (or `--fs DIR`) brought in.
 */
import {
  EEXIST, EINVAL, EISDIR, ELOOP, ENAMETOOLONG, ENOENT, ENOTDIR, ENOTEMPTY,
} from './errno.js';
import { MAXPATHLEN } from './param.js';
import type { LockList } from './vfs_lockf.js';
import type { VmObject } from './vm/vm_object.js';

export const VNON = 0;
export const VREG = 1;
export const VDIR = 2;
export const VCHR = 4;
export const VLNK = 5;
export const VFIFO = 7;

export const S_IFMT = 0o170000;
export const S_IFIFO = 0o010000;
export const S_IFCHR = 0o020000;
export const S_IFDIR = 0o040000;
export const S_IFREG = 0o100000;
export const S_IFLNK = 0o120000;

export const MAXNAMLEN = 255;
/** Symbolic links one lookup follows before it fails with ELOOP (4.4BSD MAXSYMLINKS). */
export const MAXSYMLINKS = 32;
/** Bytes all regular files together may hold (the disk's size): ENOSPC beyond. */
export const FS_SPACE = 256 * 1024 * 1024;

/** Virtual time stamp: seconds and nanoseconds. */
export interface TimeSpec {
  sec: number;
  nsec: number;
}

export class Vnode {
  nlink = 1;
  uid = 0;
  gid = 0;
  size = 0;
  /** File bytes (capacity may exceed size). */
  data: Uint8Array = new Uint8Array(0);
  /** Directory entries in creation order. */
  readonly entries: Map<string, Vnode> | null;
  /** A directory's parent (the root is its own parent). */
  parent: Vnode | null = null;
  /** Device number of a character device (major << 8 | minor). */
  rdev = 0;
  atime: TimeSpec = { sec: 0, nsec: 0 };
  mtime: TimeSpec = { sec: 0, nsec: 0 };
  ctime: TimeSpec = { sec: 0, nsec: 0 };
  /** The pages of a running executable (shared text); set by exec, cleared when freed. */
  v_object: VmObject | null = null;
  /** Advisory locks (os/vfs_lockf.ts), made on first use. */
  v_lockf: LockList | null = null;
  /** Descriptors open for writing (exec refuses a file being written: ETXTBSY). */
  v_writecount = 0;
  /** Created or modified by a guest (exported by `--out`). */
  dirty = false;
  /** Open references plus directory links (the vnode lives while either is nonzero). */
  usecount = 0;

  constructor(
    readonly ino: number,
    readonly type: number,
    public mode: number,
  ) {
    this.entries = type === VDIR ? new Map() : null;
  }

  /** Ensures capacity for n bytes (amortised doubling, at most 16 MiB of slack). */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const cap = Math.max(n, Math.min(this.data.length * 2, n + 16 * 1024 * 1024), 256);
    const d = new Uint8Array(cap);
    d.set(this.data.subarray(0, this.size));
    this.data = d;
  }
}

export const LOOKUP = 0;
export const CREATE = 1;
export const DELETE = 2;
export const RENAME = 3;

export interface NameiResult {
  error: number;
  /** The vnode named (undefined when it does not exist: CREATE may then make it). */
  vp?: Vnode;
  /** Its parent directory and last component (CREATE, DELETE, RENAME). */
  dvp?: Vnode;
  name?: string;
}

export class Vfs {
  readonly root: Vnode;
  private nextIno = 2;
  /** Bytes held by regular files (the sum of their sizes), and the most they may hold. */
  used = 0;
  space = FS_SPACE;
  /** Time source for new stamps (virtual; set by the kernel). */
  now: () => TimeSpec = () => ({ sec: 0, nsec: 0 });

  constructor() {
    this.root = new Vnode(this.nextIno++, VDIR, S_IFDIR | 0o755);
    this.root.parent = this.root;
    this.root.nlink = 2;
    this.root.usecount = 1;
  }

  /**
   * Sets a regular file's size, accounting the space (a file grows only when there is room:
   * false means ENOSPC and nothing changed).
   */
  setSize(vp: Vnode, size: number): boolean {
    const d = size - vp.size;
    if (d > 0 && this.used + d > this.space) return false;
    this.used += d;
    vp.size = size;
    return true;
  }

  /** A fresh inode number (pipes take theirs from here too). */
  allocIno(): number {
    return this.nextIno++;
  }

  private alloc(type: number, mode: number): Vnode {
    const vp = new Vnode(this.nextIno++, type, mode);
    const t = this.now();
    vp.atime = { ...t };
    vp.mtime = { ...t };
    vp.ctime = { ...t };
    return vp;
  }

  /**
   * Resolves a path from `cwd` (or the root for absolute paths). op LOOKUP needs the final
   * component to exist; CREATE/DELETE/RENAME return the parent and the last name as well.
   * Symbolic links met on the way are followed (relative ones from the directory holding them);
   * the final component's only when `follow` is set (4.4BSD FOLLOW: the default of LOOKUP) or
   * the path ends in a slash. More than MAXSYMLINKS links: ELOOP.
   */
  namei(cwd: Vnode, path: string, op: number, follow = op === LOOKUP): NameiResult {
    if (path.length === 0) return { error: ENOENT };
    if (path.length >= MAXPATHLEN) return { error: ENAMETOOLONG };
    let dir = path.startsWith('/') ? this.root : cwd;
    let trailingSlash = path.length > 1 && path.endsWith('/');
    const comps = path.split('/').filter((c) => c !== '');
    let links = 0;
    if (comps.length === 0) {
      // "/" (or "///"): the root itself; it cannot be created, removed or renamed.
      if (op !== LOOKUP) return { error: op === CREATE ? EEXIST : EINVAL };
      return { error: 0, vp: dir };
    }
    while (comps.length > 0) {
      const c = comps.shift()!;
      if (c.length > MAXNAMLEN) return { error: ENAMETOOLONG };
      if (dir.type !== VDIR) return { error: ENOTDIR };
      const last = comps.length === 0;
      let next: Vnode | undefined;
      if (c === '.') next = dir;
      else if (c === '..') next = dir.parent ?? dir;
      else next = dir.entries!.get(c);
      if (next && next.type === VLNK && (!last || follow || trailingSlash)) {
        if (++links > MAXSYMLINKS) return { error: ELOOP };
        const target = this.readlink(next);
        if (target.length === 0) return { error: ENOENT };
        const tc = target.split('/').filter((x) => x !== '');
        if (last) trailingSlash = trailingSlash || (target.length > 1 && target.endsWith('/'));
        comps.unshift(...tc);
        if (target.startsWith('/')) dir = this.root;
        if (comps.length === 0) {
          // The link points at "/".
          if (op !== LOOKUP) return { error: op === CREATE ? EEXIST : EINVAL };
          return { error: 0, vp: this.root };
        }
        continue;
      }
      if (last && op !== LOOKUP) {
        if (c === '.' || c === '..') return { error: op === CREATE ? EEXIST : EINVAL };
        if (next && trailingSlash && next.type !== VDIR) return { error: ENOTDIR };
        if (!next && trailingSlash && op !== CREATE) return { error: ENOENT };
        return next ? { error: 0, vp: next, dvp: dir, name: c } : { error: 0, dvp: dir, name: c };
      }
      if (!next) return { error: ENOENT };
      dir = next;
    }
    if (trailingSlash && dir.type !== VDIR) return { error: ENOTDIR };
    return { error: 0, vp: dir };
  }

  /** The absolute path of a directory (its names up to the root). */
  dirPath(dir: Vnode): string {
    const names: string[] = [];
    for (let d = dir; d !== this.root && d.parent; d = d.parent) {
      const p = d.parent;
      let name: string | undefined;
      for (const [n, v] of p.entries!) if (v === d) name = n;
      if (name === undefined) break; // removed while in use: its path is gone
      names.push(name);
    }
    return `/${names.reverse().join('/')}`;
  }

  /**
   * A path made absolute from cwd and free of '.', '..' and repeated '/', by its text alone:
   * symbolic links are not followed (a '..' after a link to a directory differs from namei's).
   * The name a program was exec'ed by, not its file's.
   */
  absolute(cwd: Vnode, path: string): string {
    const out: string[] = [];
    const whole = path.startsWith('/') ? path : `${this.dirPath(cwd)}/${path}`;
    for (const c of whole.split('/')) {
      if (c === '' || c === '.') continue;
      if (c === '..') out.pop();
      else out.push(c);
    }
    return `/${out.join('/')}`;
  }

  /** The target of a symbolic link. */
  readlink(vp: Vnode): string {
    let s = '';
    for (let i = 0; i < vp.size; i++) s += String.fromCharCode(vp.data[i]!);
    return s;
  }

  /** Makes a new entry `name` in dvp. */
  create(dvp: Vnode, name: string, type: number, mode: number): Vnode {
    const fmt = type === VDIR ? S_IFDIR : type === VCHR ? S_IFCHR : type === VFIFO ? S_IFIFO : type === VLNK ? S_IFLNK : S_IFREG;
    const vp = this.alloc(type, fmt | (mode & 0o7777));
    if (type === VDIR) {
      vp.parent = dvp;
      vp.nlink = 2;
      dvp.nlink++;
    }
    dvp.entries!.set(name, vp);
    vp.usecount++;
    this.touch(dvp);
    return vp;
  }

  /** Makes a new name for an existing non-directory vnode (a hard link). */
  link(dvp: Vnode, name: string, vp: Vnode): void {
    dvp.entries!.set(name, vp);
    vp.nlink++;
    vp.usecount++;
    vp.ctime = this.now();
    this.touch(dvp);
  }

  /** Removes the entry name of dvp (unlink/rmdir already checked). */
  unlink(dvp: Vnode, name: string): number {
    const vp = dvp.entries!.get(name);
    if (!vp) return ENOENT;
    if (vp.type === VDIR) {
      if (vp.entries!.size > 0) return ENOTEMPTY;
      dvp.nlink--;
    }
    dvp.entries!.delete(name);
    vp.nlink--;
    vp.usecount--;
    this.touch(dvp);
    vp.ctime = this.now();
    return 0;
  }

  /** rename(2) semantics: replaces an existing target of a compatible type. */
  rename(fdvp: Vnode, fname: string, tdvp: Vnode, tname: string): number {
    const fvp = fdvp.entries!.get(fname);
    if (!fvp) return ENOENT;
    const tvp = tdvp.entries!.get(tname);
    if (fvp === tvp) return 0;
    if (fvp.type === VDIR) {
      // A directory cannot move below itself.
      for (let d: Vnode = tdvp; ; d = d.parent!) {
        if (d === fvp) return EINVAL;
        if (d === this.root) break;
      }
    }
    if (tvp) {
      if (fvp.type === VDIR && tvp.type !== VDIR) return ENOTDIR;
      if (fvp.type !== VDIR && tvp.type === VDIR) return EISDIR;
      const e = this.unlink(tdvp, tname);
      if (e) return e;
    }
    fdvp.entries!.delete(fname);
    tdvp.entries!.set(tname, fvp);
    if (fvp.type === VDIR && fdvp !== tdvp) {
      fdvp.nlink--;
      tdvp.nlink++;
      fvp.parent = tdvp;
    }
    this.touch(fdvp);
    this.touch(tdvp);
    return 0;
  }

  touch(vp: Vnode): void {
    const t = this.now();
    vp.mtime = t;
    vp.ctime = { ...t };
  }

  /** Makes every directory of an absolute path (boot-time population). */
  mkdirs(path: string, mode = 0o755): Vnode {
    let d = this.root;
    for (const c of path.split('/').filter(Boolean)) {
      let n = d.entries!.get(c);
      if (!n) n = this.create(d, c, VDIR, mode);
      if (n.type !== VDIR) throw new Error(`${path}: ${c} is not a directory`);
      d = n;
    }
    return d;
  }

  /** Installs a file at an absolute path (boot-time population); not marked dirty. */
  installFile(path: string, data: Uint8Array, mode: number): Vnode {
    const i = path.lastIndexOf('/');
    const dvp = this.mkdirs(path.slice(0, i) || '/');
    const name = path.slice(i + 1);
    const old = dvp.entries!.get(name);
    if (old) this.unlink(dvp, name);
    const vp = this.create(dvp, name, VREG, mode);
    vp.data = new Uint8Array(data);
    this.used += data.length;
    vp.size = data.length;
    return vp;
  }

  /** Every (absolute path, vnode) below dir, depth first in directory order (for --out). */
  *walk(dir: Vnode = this.root, prefix = ''): Generator<[string, Vnode]> {
    for (const [name, vp] of dir.entries!) {
      const p = `${prefix}/${name}`;
      yield [p, vp];
      if (vp.type === VDIR) yield* this.walk(vp, p);
    }
  }
}
