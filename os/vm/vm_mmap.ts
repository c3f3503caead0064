/**
 * break(2) (4.4BSD vm_mmap.c obreak) and mmap, munmap, mprotect (vm_mmap.c).
 *
 * break moves the end of the data segment. The heap is a zero-fill entry from the page after bss
 * up to round_page(break); growth commits memory, and stops at the data-size limit, at the next
 * mapping (the stack zone, the trace-buffer range, a mapping made by mmap): ENOMEM.
 *
 * mmap maps anonymous memory (MAP_ANON, or /dev/zero), private or shared with the process's fork
 * children, and private copies of files (MAP_PRIVATE: the pages start as the file's bytes at the
 * time of the call, later writes to either side are not seen by the other, pages past the end
 * of the file read as zeros). Shared file mappings (MAP_SHARED of a regular file) are refused
 * with EINVAL: the file's bytes do not live in page frames, so a shared mapping could not stay
 * coherent with read and write. Without MAP_FIXED a mapping goes at the hint address when that
 * range is free, otherwise at the highest free range below the stack's growth zone.
 */
import { EACCES, EBADF, EINVAL, ENODEV, ENOMEM } from '../errno.js';
import { DTYPE_VNODE, FREAD } from '../kern_descrip.js';
import type { Kernel } from '../kernel.js';
import { VM_PROT_ALL } from '../machdep.js';
import { MAXDSIZ, PAGE_SIZE, round_page } from '../param.js';
import type { Proc } from '../proc.js';
import { VCHR, VREG } from '../vfs.js';
import { VM_INHERIT_COPY, VM_INHERIT_SHARE, VmMapEntry, type VmSpace } from './vm_map.js';
import { VmObject } from './vm_object.js';

/** <sys/mman.h> (4.4BSD values). */
export const MAP_SHARED = 0x0001;
export const MAP_PRIVATE = 0x0002;
export const MAP_FIXED = 0x0010;
export const MAP_ANON = 0x1000;

export function sys_break(_k: Kernel, p: Proc, a: Int32Array): number {
  const vs = p.p_vmspace!;
  const nbrk = a[0]! >>> 0;
  if (nbrk < vs.brkBase) return EINVAL;
  if (nbrk - vs.daddr > MAXDSIZ) return ENOMEM;
  const heapStart = round_page(vs.brkBase);
  const newEnd = round_page(nbrk);
  if (newEnd > 0xffffffff) return ENOMEM;
  if (newEnd <= heapStart) {
    if (vs.heap) vs.remove(vs.heap);
  } else if (!vs.heap) {
    const e = new VmMapEntry(heapStart, newEnd, VM_PROT_ALL, VM_INHERIT_COPY, 'heap', null, 0, 0, false);
    if (!vs.insert(e)) return ENOMEM;
    vs.heap = e;
  } else if (!vs.resizeEnd(vs.heap, newEnd)) {
    return ENOMEM;
  }
  vs.brk = nbrk;

  return 0;
}

/**
 * A page-aligned user range [addr, addr + round_page(len)) as munmap and mprotect take it: the
 * range, or EINVAL (misaligned, empty, outside user space, or meeting the trace buffer).
 */
function userRange(k: Kernel, vs: VmSpace, addr: number, len: number): [number, number] | number {
  const lay = k.md.layout;
  if (addr % PAGE_SIZE !== 0 || len <= 0) return EINVAL;
  const end = addr + round_page(len);
  if (addr < lay.minUser || end > lay.maxUser) return EINVAL;
  if (vs.touchesDevice(addr, end)) return EINVAL;
  return [addr, end];
}

/**
 * mmap(addr, len, prot, flags, fd, pad, pos): pos is the 64-bit offset in argument words 6 and 7
 * (after a pad word, as lseek's), and must be a multiple of the page size.
 */
export function sys_mmap(k: Kernel, p: Proc, a: Int32Array, rv: Int32Array): number {
  const vs = p.p_vmspace!;
  const lay = k.md.layout;
  const addr = a[0]! >>> 0;
  const len = a[1]! >>> 0;
  const prot = a[2]!;
  const flags = a[3]!;
  const pos = k.get64(a[6]!, a[7]!);
  const share = flags & (MAP_SHARED | MAP_PRIVATE);
  if (len === 0 || (prot & ~VM_PROT_ALL) !== 0 || (share !== MAP_SHARED && share !== MAP_PRIVATE)) return EINVAL;
  if (pos < 0 || pos % PAGE_SIZE !== 0 || !Number.isSafeInteger(pos)) return EINVAL;
  const size = round_page(len);
  let anon = (flags & MAP_ANON) !== 0;
  let data: Uint8Array | null = null;
  if (!anon) {
    const fp = p.p_fd.get(a[4]!);
    if (!fp) return EBADF;
    if (fp.f_type !== DTYPE_VNODE) return ENODEV;
    const vp = fp.vnode;
    if (vp.type === VCHR && k.devs.isZero(vp)) {
      anon = true;
    } else {
      if (vp.type !== VREG) return ENODEV;
      if ((fp.f_flag & FREAD) === 0) return EACCES;
      if (share === MAP_SHARED) return EINVAL;
      data = vp.data.slice(Math.min(pos, vp.size), Math.min(pos + size, vp.size));
    }
  }
  let start: number;
  if (flags & MAP_FIXED) {
    if (addr % PAGE_SIZE !== 0 || addr < lay.minUser || addr + size > lay.maxUser) return EINVAL;
    if (vs.touchesDevice(addr, addr + size)) return EINVAL;
    start = addr;
  } else {
    start = vs.findSpace(size, addr - (addr % PAGE_SIZE), lay.minUser, vs.stackLimit);
    if (start < 0) return ENOMEM;
  }
  let object: VmObject | null = null;
  if (data !== null || (anon && share === MAP_SHARED)) {
    const bytes = data ?? null;
    object = VmObject.create(k.pages, anon ? 'shared anonymous memory' : 'private file mapping', bytes, anon ? size : bytes!.length);
    if (!object) return ENOMEM;
  }
  const objPages = object ? object.npages : 0;
  const shared = anon && share === MAP_SHARED;
  const e = new VmMapEntry(start, start + size, prot, shared ? VM_INHERIT_SHARE : VM_INHERIT_COPY, 'mmap', object, 0, objPages, shared);
  if (flags & MAP_FIXED) vs.deleteRange(start, start + size);
  if (!vs.insert(e)) {
    if (object) {
      object.reference();
      object.deallocate();
    }
    return ENOMEM;
  }
  rv[0] = start;
  return 0;
}

export function sys_munmap(k: Kernel, p: Proc, a: Int32Array): number {
  const vs = p.p_vmspace!;
  const r = userRange(k, vs, a[0]! >>> 0, a[1]! >>> 0);
  if (typeof r === 'number') return r;
  vs.deleteRange(r[0], r[1]);
  return 0;
}

/** mprotect(addr, len, prot): ENOMEM when part of the range is not mapped. */
export function sys_mprotect(k: Kernel, p: Proc, a: Int32Array): number {
  const vs = p.p_vmspace!;
  const prot = a[2]!;
  if (prot & ~VM_PROT_ALL) return EINVAL;
  const r = userRange(k, vs, a[0]! >>> 0, a[1]! >>> 0);
  if (typeof r === 'number') return r;
  return vs.protectRange(r[0], r[1], prot) ? 0 : ENOMEM;
}
