/**
 * Physical page frames (4.4BSD vm_page.c): allocation from a free list and the commitment
 * accounting that keeps the machine from ever overcommitting memory (docs/kernel.md section 6).
 *
 * Determinism: the free list is a LIFO stack initialised in frame order (the lowest frame is
 * handed out first), so the same sequence of allocations and frees gives the same frames.
 */
import type { PhysMem } from '../../cpu/physmem.js';
import { PAGE_SIZE, PGSHIFT } from '../param.js';

export class VmPages {
  readonly npages: number;
  private readonly freeList: Int32Array;
  private nfree: number;
  /** Pages promised to mappings (each can be allocated at any time without failing). */
  committed = 0;
  /** Pages that may be committed: all frames minus the kernel's reservation. */
  commitLimit: number;
  /** High-water mark of frames in use, for the statistics. */
  maxInUse = 0;
  /**
   * Called with every frame handed out, before the kernel writes it: a CPU whose translation
   * cache does not watch PhysMem's code pages (SPARC) drops what it derived from the frame.
   */
  onAlloc: ((pa: number) => void) | null = null;

  constructor(readonly mem: PhysMem, reservedPages: number) {
    this.npages = mem.size >>> PGSHIFT;
    this.freeList = new Int32Array(this.npages);
    for (let i = 0; i < this.npages; i++) this.freeList[i] = this.npages - 1 - i;
    this.nfree = this.npages;
    this.commitLimit = this.npages - reservedPages;
    if (this.commitLimit <= 0) throw new Error(`physical memory of ${mem.size} bytes is too small (${reservedPages} pages are reserved for the kernel)`);
  }

  get freePages(): number {
    return this.nfree;
  }

  get inUse(): number {
    return this.npages - this.nfree;
  }

  /** Commits n pages; false (nothing committed) when that would exceed the limit. */
  commit(n: number): boolean {
    if (n <= 0) return true;
    if (this.committed + n > this.commitLimit) return false;
    this.committed += n;
    return true;
  }

  uncommit(n: number): void {
    this.committed -= n;
    if (this.committed < 0) throw new Error(`vm: commitment went negative (${this.committed})`);
  }

  /**
   * A free frame's physical address, not zeroed. Callers hold a commitment for it; running out
   * here means the accounting is wrong, which is a kernel bug, not a guest error.
   */
  alloc(): number {
    if (this.nfree === 0) throw new Error('vm_page_alloc: out of physical pages despite commitment accounting (kernel bug)');
    const pa = this.freeList[--this.nfree]! << PGSHIFT;
    const used = this.npages - this.nfree;
    if (used > this.maxInUse) this.maxInUse = used;
    this.onAlloc?.(pa);
    return pa;
  }

  /** A zero-filled frame. */
  allocZeroed(): number {
    const pa = this.alloc();
    this.mem.zero(pa, PAGE_SIZE); // through PhysMem: a frame that held translated code is noted
    return pa;
  }

  free(pa: number): void {
    this.freeList[this.nfree++] = pa >>> PGSHIFT;
  }

  /** Copies one page frame to another (word-native storage: the byte order does not matter). */
  copy(dst: number, src: number): void {
    const ppn = dst >>> PGSHIFT;
    if (this.mem.codePage[ppn] !== 0) this.mem.codeWriteHook?.(ppn);
    this.mem.u32.copyWithin(dst >>> 2, src >>> 2, (src + PAGE_SIZE) >>> 2);
  }
}
