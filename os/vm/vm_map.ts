/**
 * Address spaces (4.4BSD vm_map.c, vm_mmap.c's obreak, the vmspace of sys/vmspace): sorted map
 * entries with protection, inheritance, an optional backing object and per-page anonymous pages.
 *
 * Addresses are unsigned numbers (0 .. 2^32-1). Entries are page-aligned and never overlap.
 * Commitment (docs/kernel.md section 6): an entry that may receive private pages (writable and
 * not shared) commits one page per page of its range when created or grown; an address space
 * therefore never faults for lack of memory.
 */
import type { MachDep, Pmap } from '../machdep.js';
import { VM_PROT_WRITE } from '../machdep.js';
import { PAGE_SIZE, PGSHIFT } from '../param.js';
import { VmAnon, type VmObject } from './vm_object.js';
import type { VmPages } from './vm_page.js';

export const VM_INHERIT_SHARE = 0;
export const VM_INHERIT_COPY = 1;
export const VM_INHERIT_NONE = 2;

export type EntryKind = 'text' | 'data' | 'heap' | 'stack' | 'device' | 'mmap';

export class VmMapEntry {
  /** Pages with a private (anonymous) page, keyed by virtual page number. */
  anons = new Map<number, VmAnon>();
  /** Pages committed for this entry. */
  committed = 0;

  constructor(
    public start: number,
    public end: number,
    public prot: number,
    public inherit: number,
    public kind: EntryKind,
    /** Backing object, or null (zero-fill). */
    public object: VmObject | null,
    /** Object page index of the entry's first page. */
    public objOffset: number,
    /** Number of pages from `start` that the object backs; the rest are zero-fill. */
    public objPages: number,
    /** Writes go to the object's pages (device memory) instead of private copies. */
    public shared: boolean,
  ) {}

  get npages(): number {
    return (this.end - this.start) / PAGE_SIZE;
  }

  /** True when the entry can receive private pages (and therefore commits memory). */
  get needsCommit(): boolean {
    return !this.shared && (this.prot & VM_PROT_WRITE) !== 0;
  }
}

export class Vm {
  constructor(readonly pages: VmPages, readonly md: MachDep) {}
}

export class VmSpace {
  readonly entries: VmMapEntry[] = [];
  readonly pmap: Pmap;
  /** The current break (exact address; the heap entry ends at round_page(brk)). */
  brk = 0;
  /** The break at exec (end of bss): the lowest break. */
  brkBase = 0;
  /** Start of the data segment, for the data-size limit. */
  daddr = 0;
  heap: VmMapEntry | null = null;
  stack: VmMapEntry | null = null;
  /** Lowest address the stack may grow down to. */
  stackLimit = 0;
  /** Address ranges no mapping may enter ([start, end) pairs): the trace buffer and guard page. */
  readonly reserved: [number, number][] = [];
  private lastHit: VmMapEntry | null = null;

  constructor(readonly vm: Vm) {
    this.pmap = vm.md.pmap_create();
  }

  get committed(): number {
    let n = 0;
    for (const e of this.entries) n += e.committed;
    return n;
  }

  /** Resident pages (private pages plus mapped object pages are not distinguished: private only). */
  get residentPrivate(): number {
    let n = 0;
    for (const e of this.entries) n += e.anons.size;
    return n;
  }

  lookup(va: number): VmMapEntry | undefined {
    const h = this.lastHit;
    if (h && va >= h.start && va < h.end) return h;
    for (const e of this.entries) {
      if (va < e.start) return undefined;
      if (va < e.end) {
        this.lastHit = e;
        return e;
      }
    }
    return undefined;
  }

  /** True when [start, end) meets no entry and no reserved range. */
  isFree(start: number, end: number, ignore?: VmMapEntry): boolean {
    for (const e of this.entries) if (e !== ignore && start < e.end && e.start < end) return false;
    for (const [s, t] of this.reserved) if (start < t && s < end) return false;
    return true;
  }

  /**
   * Maps device memory (the trace buffer) shared at [start, end), inside a reserved range if
   * need be: writes go to the object's pages, fork shares the mapping. False on overlap with an
   * existing entry.
   */
  mapShared(start: number, end: number, object: VmObject, objOffset: number, prot: number): VmMapEntry | null {
    for (const e of this.entries) if (start < e.end && e.start < end) return null;
    const e = new VmMapEntry(start, end, prot, VM_INHERIT_SHARE, 'device', object, objOffset, (end - start) / PAGE_SIZE, true);
    let i = 0;
    while (i < this.entries.length && this.entries[i]!.start < start) i++;
    this.entries.splice(i, 0, e);
    object.reference();
    return e;
  }

  /** Inserts an entry, committing its pages; false (nothing changed) on overlap or no memory. */
  insert(e: VmMapEntry): boolean {
    if (e.start % PAGE_SIZE || e.end % PAGE_SIZE || e.end <= e.start) throw new Error(`vm_map: bad entry ${e.start.toString(16)}-${e.end.toString(16)}`);
    if (!this.isFree(e.start, e.end)) return false;
    const want = e.needsCommit ? e.npages : 0;
    if (!this.vm.pages.commit(want)) return false;
    e.committed = want;
    let i = 0;
    while (i < this.entries.length && this.entries[i]!.start < e.start) i++;
    this.entries.splice(i, 0, e);
    e.object?.reference();
    return true;
  }

  /** Frees one private page reference. */
  private dropAnon(a: VmAnon): void {
    if (--a.ref === 0) this.vm.pages.free(a.pa);
  }

  /** Removes an entry entirely (pages, mappings, commitment, object reference). */
  remove(e: VmMapEntry): void {
    const i = this.entries.indexOf(e);
    if (i < 0) return;
    this.entries.splice(i, 1);
    if (this.lastHit === e) this.lastHit = null;
    this.vm.md.pmap_remove(this.pmap, e.start, e.end);
    for (const a of e.anons.values()) this.dropAnon(a);
    e.anons.clear();
    this.vm.pages.uncommit(e.committed);
    e.committed = 0;
    e.object?.deallocate();
    if (this.heap === e) this.heap = null;
    if (this.stack === e) this.stack = null;
  }

  /**
   * Moves the end of an entry to newEnd (page-aligned), committing or releasing pages. False when
   * the grown range is not free or memory cannot be committed.
   */
  resizeEnd(e: VmMapEntry, newEnd: number): boolean {
    if (newEnd > e.end) {
      if (!this.isFree(e.end, newEnd)) return false;
      const add = e.needsCommit ? (newEnd - e.end) / PAGE_SIZE : 0;
      if (!this.vm.pages.commit(add)) return false;
      e.committed += add;
      e.end = newEnd;
    } else if (newEnd < e.end) {
      this.vm.md.pmap_remove(this.pmap, newEnd, e.end);
      for (const [vpn, a] of e.anons) {
        if (vpn << PGSHIFT >>> 0 >= newEnd) {
          this.dropAnon(a);
          e.anons.delete(vpn);
        }
      }
      const sub = e.needsCommit ? (e.end - newEnd) / PAGE_SIZE : 0;
      this.vm.pages.uncommit(sub);
      e.committed -= sub;
      e.end = newEnd;
    }
    return true;
  }

  /** Moves the start of an entry down to newStart (stack growth). */
  growDown(e: VmMapEntry, newStart: number): boolean {
    if (newStart >= e.start) return true;
    if (!this.isFree(newStart, e.start)) return false;
    const add = e.needsCommit ? (e.start - newStart) / PAGE_SIZE : 0;
    if (!this.vm.pages.commit(add)) return false;
    e.committed += add;
    if (e.object) e.objOffset -= (e.start - newStart) / PAGE_SIZE; // keeps object pages in place
    e.start = newStart;
    return true;
  }

  /**
   * Splits e at the page-aligned address va (e.start < va < e.end): e keeps [start, va), the
   * returned entry takes [va, end) with its private pages, its share of the commitment and a
   * reference to the object. The heap's growing end is the upper piece; the stack's the lower.
   */
  private split(e: VmMapEntry, va: number): VmMapEntry {
    const lowPages = (va - e.start) / PAGE_SIZE;
    const n = new VmMapEntry(va, e.end, e.prot, e.inherit, e.kind, e.object, e.objOffset + lowPages,
      Math.max(0, e.objPages - lowPages), e.shared);
    e.objPages = Math.min(e.objPages, lowPages);
    for (const [vpn, a] of e.anons) {
      if ((vpn << PGSHIFT) >>> 0 >= va) {
        n.anons.set(vpn, a);
        e.anons.delete(vpn);
      }
    }
    n.committed = Math.min(e.committed, n.npages);
    e.committed -= n.committed;
    e.end = va;
    e.object?.reference();
    this.entries.splice(this.entries.indexOf(e) + 1, 0, n);
    if (this.heap === e) this.heap = n;
    this.lastHit = null;
    return n;
  }

  /** The entries inside [start, end) after splitting those that cross its bounds. */
  private clip(start: number, end: number): VmMapEntry[] {
    for (const e of [...this.entries]) {
      if (e.start < start && start < e.end) this.split(e, start);
    }
    for (const e of [...this.entries]) {
      if (e.start < end && end < e.end) this.split(e, end);
    }
    return this.entries.filter((e) => e.start >= start && e.end <= end);
  }

  /** True when some device entry (the trace buffer) or reserved range meets [start, end). */
  touchesDevice(start: number, end: number): boolean {
    for (const e of this.entries) if (e.kind === 'device' && start < e.end && e.start < end) return true;
    for (const [s, t] of this.reserved) if (start < t && s < end) return true;
    return false;
  }

  /** Unmaps [start, end) (page-aligned): every page in it, wherever it came from (munmap). */
  deleteRange(start: number, end: number): void {
    for (const e of this.clip(start, end)) this.remove(e);
  }

  /**
   * Changes the protection of [start, end) (mprotect). False when a page of the range is not
   * mapped (nothing changed) or when memory for newly writable private pages cannot be committed.
   */
  protectRange(start: number, end: number, prot: number): boolean {
    let va = start;
    for (const e of this.entries) {
      if (e.end <= va) continue;
      if (e.start > va) break;
      va = e.end;
      if (va >= end) break;
    }
    if (va < end) return false;
    let need = 0;
    for (const e of this.entries) {
      if (e.end <= start || e.start >= end || e.shared || (prot & VM_PROT_WRITE) === 0) continue;
      const pages = (Math.min(e.end, end) - Math.max(e.start, start)) / PAGE_SIZE;
      if (e.committed < e.npages) need += pages;
    }
    if (!this.vm.pages.commit(need)) return false;
    for (const e of this.clip(start, end)) {
      e.prot = prot;
      if (e.needsCommit && e.committed < e.npages) e.committed = e.npages;
    }
    // The pages fault back in with the new protection.
    this.vm.md.pmap_remove(this.pmap, start, end);
    return true;
  }

  /**
   * A free range of len bytes (page-aligned) for a new mapping: `hint` when it is free and
   * inside [lo, hi), otherwise the highest free range below hi (top-down first fit, below the
   * stack's growth zone); -1 when there is none.
   */
  findSpace(len: number, hint: number, lo: number, hi: number): number {
    if (hint && hint % PAGE_SIZE === 0 && hint >= lo && hint + len <= hi && this.isFree(hint, hint + len)) return hint;
    const used: [number, number][] = [...this.entries.map((e): [number, number] => [e.start, e.end]), ...this.reserved];
    used.sort((a, b) => b[1] - a[1]);
    let top = hi;
    for (const [s, t] of used) {
      if (t <= top && top - t >= len) return top - len;
      top = Math.min(top, s);
      if (top < lo + len) return -1;
    }
    return top - lo >= len ? top - len : -1;
  }

  /** Releases everything (exit, exec). */
  destroy(): void {
    while (this.entries.length) this.remove(this.entries[this.entries.length - 1]!);
    this.vm.md.pmap_destroy(this.pmap);
  }

  /**
   * fork: a copy-on-write duplicate (4.4BSD vmspace_fork). Private pages are shared with their
   * reference counts raised and write-protected in this address space; shared entries stay
   * shared. Returns null when the child's memory cannot be committed.
   */
  fork(): VmSpace | null {
    const child = new VmSpace(this.vm);
    let need = 0;
    for (const e of this.entries) if (e.inherit !== VM_INHERIT_NONE && e.committed) need += e.committed;
    if (!this.vm.pages.commit(need)) {
      this.vm.md.pmap_destroy(child.pmap);
      return null;
    }
    for (const e of this.entries) {
      if (e.inherit === VM_INHERIT_NONE) continue;
      const c = new VmMapEntry(e.start, e.end, e.prot, e.inherit, e.kind, e.object, e.objOffset, e.objPages, e.shared);
      c.committed = e.committed;
      for (const [vpn, a] of e.anons) {
        a.ref++;
        c.anons.set(vpn, a);
      }
      e.object?.reference();
      child.entries.push(c);
      if (e === this.heap) child.heap = c;
      if (e === this.stack) child.stack = c;
      // The parent's writable private pages become copy-on-write.
      if (!e.shared && (e.prot & VM_PROT_WRITE) !== 0) {
        this.vm.md.pmap_protect(this.pmap, e.start, e.end, e.prot & ~VM_PROT_WRITE);
      }
    }
    child.brk = this.brk;
    child.brkBase = this.brkBase;
    child.daddr = this.daddr;
    child.stackLimit = this.stackLimit;
    for (const r of this.reserved) child.reserved.push([r[0], r[1]]);
    return child;
  }

  /** A new anonymous page for vpn in e (committed already), replacing any previous one. */
  newAnon(e: VmMapEntry, vpn: number, pa: number): VmAnon {
    const old = e.anons.get(vpn);
    if (old) this.dropAnon(old);
    return this.newAnonNoDrop(e, vpn, pa);
  }

  /** As newAnon, for a page whose previous anon (if any) the caller already released. */
  newAnonNoDrop(e: VmMapEntry, vpn: number, pa: number): VmAnon {
    const a = new VmAnon(pa);
    e.anons.set(vpn, a);
    return a;
  }
}
