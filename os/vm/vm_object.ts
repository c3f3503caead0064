/**
 * Memory objects (4.4BSD vm_object.c, reduced to what a static-executable system needs) and
 * anonymous pages.
 *
 * - VmObject: the pages of an executable file (its text, and the initial contents of its data,
 *   which processes map copy-on-write), or device memory (the trace buffer). Pages are filled on
 *   first use from the file's bytes; every process running the same executable maps the same
 *   frames. An object commits all its pages when created and frees them when the last mapping
 *   goes away.
 * - VmAnon: a private page of one or more address spaces, with a reference count; copy-on-write
 *   is "copy when written while the count is above one" (docs/kernel.md section 6 explains why
 *   this replaces Mach's shadow-object chains).
 */
import { PAGE_SIZE } from '../param.js';
import type { VmPages } from './vm_page.js';

export class VmObject {
  ref = 0;
  /** Physical address of each resident page, or -1. */
  readonly pages: Int32Array;
  /** Pages filled from the file so far (page-ins, for the statistics). */
  pageins = 0;
  private committed: number;

  /**
   * data: the bytes of the file in file order (null for device memory, whose pages are provided
   * with `setPage`). The object covers ceil(size / PAGE_SIZE) pages and commits them all.
   */
  constructor(
    readonly vmp: VmPages,
    readonly name: string,
    readonly data: Uint8Array | null,
    readonly npages: number,
  ) {
    this.pages = new Int32Array(npages).fill(-1);
    this.committed = npages;
  }

  /** Creates an object, or returns null when its pages cannot be committed. */
  static create(vmp: VmPages, name: string, data: Uint8Array | null, size: number): VmObject | null {
    const n = Math.ceil(size / PAGE_SIZE);
    if (!vmp.commit(n)) return null;
    return new VmObject(vmp, name, data, n);
  }

  /** The frame of page i, filled from the file on first use. */
  getPage(i: number): number {
    let pa = this.pages[i]!;
    if (pa >= 0) return pa;
    if (i < 0 || i >= this.npages) throw new Error(`vm_object ${this.name}: page ${i} outside 0..${this.npages - 1}`);
    pa = this.vmp.allocZeroed();
    if (this.data) {
      const off = i * PAGE_SIZE;
      const n = Math.min(PAGE_SIZE, this.data.length - off);
      if (n > 0) this.vmp.mem.writeBytes(pa, this.data.subarray(off, off + n));
    }
    this.pages[i] = pa;
    this.pageins++;
    return pa;
  }

  /** Device memory: installs a frame the owner allocated (and committed) itself. */
  setPage(i: number, pa: number): void {
    this.pages[i] = pa;
  }

  reference(): void {
    this.ref++;
  }

  /** Drops a reference; the last one frees every resident page and the commitment. */
  deallocate(): void {
    if (--this.ref > 0) return;
    if (this.ref < 0) throw new Error(`vm_object ${this.name}: reference count below zero`);
    for (let i = 0; i < this.npages; i++) {
      const pa = this.pages[i]!;
      if (pa >= 0) this.vmp.free(pa);
      this.pages[i] = -1;
    }
    this.vmp.uncommit(this.committed);
    this.committed = 0;
    this.onFree?.();
  }

  /** Called when the object is freed (the vnode drops its cached pointer). */
  onFree: (() => void) | null = null;
}

export class VmAnon {
  ref = 1;
  constructor(public pa: number) {}
}
