/**
 * The SPARC pmap: SPARC Reference MMU page tables in physical memory (v8 manual Appendix H),
 * walked by the machine on a TLB miss. One context per address space: the context table (one
 * frame, 256 contexts) holds a PTD to each space's level-1 table (256 entries, 16 MiB each),
 * level-2 tables (64 × 256 KiB) and level-3 tables (64 × 4 KiB pages). Contexts are handed out
 * by generation like MIPS ASIDs: when all are used, the whole TLB is flushed and numbering
 * restarts. The TLB model caches PTEs, so every change of a PTE flushes the page's entry.
 *
 * Table memory comes from frames the kernel reserved for the MD layer at boot (never committed
 * to processes): 1 KiB slots for level-1 tables, 256-byte slots for levels 2 and 3.
 */
import type { PhysMem } from '../../cpu/physmem.js';
import type { SparcCpu } from '../../cpu/sparc/index.js';
import { ET_PTD, ET_PTE, FLUSH_CONTEXT, FLUSH_ENTIRE, FLUSH_PAGE, MMU_CTRL_E, PTE_C, PTE_M, PTE_R } from '../../cpu/sparc/mmu.js';
import { VM_PROT_EXECUTE, VM_PROT_WRITE, type Pmap } from '../machdep.js';
import type { VmPages } from '../vm/vm_page.js';

const NCTX = 256;

/** A page-table descriptor pointing to the table at physical address `table` (64-byte aligned). */
export function srmmuPtd(table: number): number {
  return (((table >>> 6) << 2) | ET_PTD) >>> 0;
}

/** A page-table entry mapping the frame at `pa` with access permissions `acc` (the ACC field) and `flags` (C, R, M). */
export function srmmuPte(pa: number, acc: number, flags = 0): number {
  return (((pa >>> 12) << 8) | flags | (acc << 2) | ET_PTE) >>> 0;
}

/**
 * The address of va's level-3 entry in the tables under the level-1 table at `l1`, creating the
 * level-2 and level-3 tables on the way with `alloc` (a zeroed table of at least 256 bytes, 256-byte
 * aligned); without `alloc`, -1 where a table is missing. The pmap and the tests' bare machines
 * build their tables with it.
 */
export function srmmuPteAddr(mem: PhysMem, l1: number, va: number, alloc: (() => number) | null): number {
  const a1 = l1 + (va >>> 24) * 4;
  let e1 = mem.read32(a1) >>> 0;
  if ((e1 & 3) !== ET_PTD) {
    if (!alloc) return -1;
    e1 = srmmuPtd(alloc());
    mem.write32(a1, e1);
  }
  const a2 = ((e1 >>> 2) << 6) + ((va >>> 18) & 63) * 4;
  let e2 = mem.read32(a2) >>> 0;
  if ((e2 & 3) !== ET_PTD) {
    if (!alloc) return -1;
    e2 = srmmuPtd(alloc());
    mem.write32(a2, e2);
  }
  return ((e2 >>> 2) << 6) + ((va >>> 12) & 63) * 4;
}

export class SparcPmap implements Pmap {
  /** Physical address of the level-1 table. */
  l1 = -1;
  ctx = 0;
  gen = -1;
  constructor(readonly id: number) {}
}

/** SRMMU ACC field for a protection (user permissions: R, RW, RX, RWX). */
function acc(prot: number): number {
  const w = (prot & VM_PROT_WRITE) !== 0;
  const x = (prot & VM_PROT_EXECUTE) !== 0;
  return w ? (x ? 3 : 1) : x ? 2 : 0;
}

export class SparcPmapModule {
  private nextId = 1;
  private ctxGen = 0;
  private nextCtx = 1;
  private ctxTable = 0;
  private readonly free1k: number[] = [];
  private readonly free256: number[] = [];
  private frames = 0;
  active: SparcPmap | null = null;

  constructor(private readonly cpu: SparcCpu, private readonly vmp: VmPages, private readonly maxFrames: number) {
    this.ctxTable = this.frame();
    const mmu = cpu.mmu;
    mmu.setCtpr((this.ctxTable >>> 6) << 2);
    mmu.setContext(0);
    mmu.setControl(MMU_CTRL_E);
  }

  private get mem() {
    return this.vmp.mem;
  }

  /** A zeroed frame from the reservation. */
  private frame(): number {
    if (this.frames >= this.maxFrames) {
      throw new Error(`SPARC pmap: page-table memory exhausted (${this.maxFrames} reserved frames); boot with more memory`);
    }
    this.frames++;
    return this.vmp.allocZeroed();
  }

  private alloc1k(): number {
    if (this.free1k.length === 0) {
      const f = this.frame();
      for (let i = 3; i >= 0; i--) this.free1k.push(f + i * 1024);
    }
    const a = this.free1k.pop()!;
    this.mem.zero(a, 1024);
    return a;
  }

  private alloc256(): number {
    if (this.free256.length === 0) {
      const f = this.frame();
      for (let i = 15; i >= 0; i--) this.free256.push(f + i * 256);
    }
    const a = this.free256.pop()!;
    this.mem.zero(a, 256);
    return a;
  }

  create(): SparcPmap {
    const pm = new SparcPmap(this.nextId++);
    pm.l1 = this.alloc1k();
    return pm;
  }

  private live(pm: SparcPmap): boolean {
    return pm.gen === this.ctxGen && pm.ctx !== 0;
  }

  /** Flushes the TLB entries of pm for one page (FLUSH_PAGE) or all of them (FLUSH_CONTEXT). */
  private flush(pm: SparcPmap, type: number, va = 0): void {
    if (!this.live(pm)) return;
    const mmu = this.cpu.mmu;
    if (mmu.ctx === pm.ctx) {
      mmu.flush(type, va);
      return;
    }
    const cur = mmu.ctx;
    mmu.setContext(pm.ctx);
    mmu.flush(type, va);
    mmu.setContext(cur);
  }

  private readonly alloc256_ = (): number => this.alloc256();

  enter(pm: SparcPmap, va: number, pa: number, prot: number): void {
    const a = srmmuPteAddr(this.mem, pm.l1, va >>> 0, this.alloc256_);
    // R and M preset: the kernel does not page, so the MMU need not walk again to set them.
    this.mem.write32(a, srmmuPte(pa, acc(prot), PTE_C | PTE_R | (prot & VM_PROT_WRITE ? PTE_M : 0)));
    this.flush(pm, FLUSH_PAGE, va);
  }

  /** Applies f to every valid level-3 entry address in [sva, eva). */
  private each(pm: SparcPmap, sva: number, eva: number, f: (a: number) => void): void {
    const mem = this.mem;
    for (let i1 = sva >>> 24; i1 <= (eva - 1) >>> 24 && i1 < 256; i1++) {
      const e1 = mem.read32(pm.l1 + i1 * 4) >>> 0;
      if ((e1 & 3) !== ET_PTD) continue;
      const t2 = (e1 >>> 2) << 6;
      for (let i2 = 0; i2 < 64; i2++) {
        const base2 = i1 * 0x1000000 + i2 * 0x40000;
        if (base2 + 0x40000 <= sva || base2 >= eva) continue;
        const e2 = mem.read32(t2 + i2 * 4) >>> 0;
        if ((e2 & 3) !== ET_PTD) continue;
        const t3 = (e2 >>> 2) << 6;
        for (let i3 = 0; i3 < 64; i3++) {
          const va = base2 + i3 * 4096;
          if (va < sva || va >= eva) continue;
          if ((mem.read32(t3 + i3 * 4) & 3) === ET_PTE) f(t3 + i3 * 4);
        }
      }
    }
  }

  remove(pm: SparcPmap, sva: number, eva: number): void {
    let n = 0;
    this.each(pm, sva, eva, (a) => {
      this.mem.write32(a, 0);
      n++;
    });
    if (n) this.flush(pm, FLUSH_CONTEXT);
  }

  protect(pm: SparcPmap, sva: number, eva: number, prot: number): void {
    if (prot & VM_PROT_WRITE) return;
    let n = 0;
    const mem = this.mem;
    this.each(pm, sva, eva, (a) => {
      const pte = mem.read32(a);
      const ac = (pte >>> 2) & 7;
      const ro = ac === 1 ? 0 : ac === 3 ? 2 : ac;
      mem.write32(a, (pte & ~(7 << 2) & ~PTE_M) | (ro << 2));
      n++;
    });
    if (n) this.flush(pm, FLUSH_CONTEXT);
  }

  destroy(pm: SparcPmap): void {
    const mem = this.mem;
    if (this.live(pm)) {
      this.flush(pm, FLUSH_CONTEXT);
      mem.write32(this.ctxTable + pm.ctx * 4, 0);
    }
    for (let i1 = 0; i1 < 256; i1++) {
      const e1 = mem.read32(pm.l1 + i1 * 4) >>> 0;
      if ((e1 & 3) !== ET_PTD) continue;
      const t2 = (e1 >>> 2) << 6;
      for (let i2 = 0; i2 < 64; i2++) {
        const e2 = mem.read32(t2 + i2 * 4) >>> 0;
        if ((e2 & 3) === ET_PTD) this.free256.push((e2 >>> 2) << 6);
      }
      this.free256.push(t2);
    }
    this.free1k.push(pm.l1);
    pm.l1 = -1;
    pm.gen = -1;
    pm.ctx = 0;
    if (this.active === pm) this.active = null;
  }

  /** Makes pm the current context (a fresh context number if its generation is old). */
  activate(pm: SparcPmap): void {
    const mmu = this.cpu.mmu;
    if (!this.live(pm)) {
      if (this.nextCtx >= NCTX) {
        this.ctxGen++;
        this.nextCtx = 1;
        for (let c = 1; c < NCTX; c++) this.mem.write32(this.ctxTable + c * 4, 0);
        mmu.flush(FLUSH_ENTIRE);
      }
      pm.ctx = this.nextCtx++;
      pm.gen = this.ctxGen;
      this.mem.write32(this.ctxTable + pm.ctx * 4, srmmuPtd(pm.l1));
    }
    this.active = pm;
    if (mmu.ctx !== pm.ctx) mmu.setContext(pm.ctx);
  }
}
