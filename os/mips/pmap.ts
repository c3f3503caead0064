/**
 * The MIPS R2000 pmap (4.4BSD arch/pmax pmap.c in spirit): a software page table per address
 * space, holding EntryLo images (PFN | D | V), from which the kernel refills the 64-entry TLB on
 * a UTLB miss. Address spaces are told apart by 6-bit ASIDs, handed out by generation: when all
 * 63 are used, the whole TLB is flushed and numbering restarts (kernel ASID 0 is never used for
 * user pages). Changing or removing a mapping invalidates the TLB entries that cache it.
 */
import type { MipsCpu } from '../../cpu/mips/cpu.js';
import {
  ENTRYHI_ASID_MASK, ENTRYHI_ASID_SHIFT, ENTRYHI_VPN_MASK, ENTRYLO_D, ENTRYLO_V, TLB_ENTRIES, TLB_WIRED,
} from '../../cpu/mips/cp0.js';
import { VM_PROT_WRITE, type Pmap } from '../machdep.js';

const SEG_SHIFT = 22; // 4 MiB of address space per page-table page
const SEGS = 512; // kuseg: 2 GiB
const MAX_ASID = 63;

export class MipsPmap implements Pmap {
  readonly segs: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(SEGS);
  asid = 0;
  gen = -1;
  /** Valid entries (for the statistics). */
  resident = 0;
  constructor(readonly id: number) {}

  /** The EntryLo image for va, or 0. */
  pte(va: number): number {
    const seg = this.segs[va >>> SEG_SHIFT];
    return seg ? seg[(va >>> 12) & 1023]! : 0;
  }
}

export class MipsPmapModule {
  private nextId = 1;
  private asidGen = 0;
  private nextAsid = 1;
  /** The pmap whose ASID is in EntryHi. */
  active: MipsPmap | null = null;
  /**
   * Next TLB slot the refill writes (tlbwi over the non-wired entries in turn). Not tlbwr: the
   * CPU derives Random from the retired-instruction count, so two refills with no instruction
   * between them (an instruction fetch and its data access both missing) would take the same
   * slot and evict each other forever.
   */
  private slot = TLB_WIRED;

  constructor(private readonly cpu: MipsCpu) {}

  create(): MipsPmap {
    return new MipsPmap(this.nextId++);
  }

  private live(pm: MipsPmap): boolean {
    return pm.gen === this.asidGen;
  }

  /** A TLB entry that matches no user address (a kseg0 VPN, invalid), EntryHi's ASID kept. */
  private invalidate(i: number): void {
    const cpu = this.cpu;
    const asid = cpu.entryHi & ENTRYHI_ASID_MASK;
    cpu.tlbSet(i, ((0x80000000 + (i << 12)) & ENTRYHI_VPN_MASK) | asid, 0);
  }

  /** Invalidates the TLB entries of pm's ASID for virtual pages in [sva, eva). */
  private flushRange(pm: MipsPmap, sva: number, eva: number): void {
    if (!this.live(pm)) return;
    const cpu = this.cpu;
    const a = pm.asid << ENTRYHI_ASID_SHIFT;
    for (let i = 0; i < TLB_ENTRIES; i++) {
      const hi = cpu.tlbHi[i]!;
      if ((hi & ENTRYHI_ASID_MASK) !== a) continue;
      const va = (hi & ENTRYHI_VPN_MASK) >>> 0;
      if (va >= sva && va < eva) this.invalidate(i);
    }
  }

  enter(pm: MipsPmap, va: number, pa: number, prot: number): void {
    const si = va >>> SEG_SHIFT;
    let seg = pm.segs[si];
    if (!seg) pm.segs[si] = seg = new Int32Array(1024);
    const i = (va >>> 12) & 1023;
    if (seg[i] === 0) pm.resident++;
    seg[i] = (pa & ENTRYHI_VPN_MASK) | ENTRYLO_V | (prot & VM_PROT_WRITE ? ENTRYLO_D : 0);
    this.flushRange(pm, va >>> 0, (va >>> 0) + 4096);
  }

  remove(pm: MipsPmap, sva: number, eva: number): void {
    for (let si = sva >>> SEG_SHIFT; si < SEGS && si <= (eva - 1) >>> SEG_SHIFT; si++) {
      const seg = pm.segs[si];
      if (!seg) continue;
      const base = si << SEG_SHIFT >>> 0;
      const lo = Math.max(0, (sva - base) / 4096);
      const hi = Math.min(1024, Math.ceil((eva - base) / 4096));
      for (let i = lo; i < hi; i++) {
        if (seg[i] !== 0) {
          seg[i] = 0;
          pm.resident--;
        }
      }
    }
    this.flushRange(pm, sva, eva);
  }

  protect(pm: MipsPmap, sva: number, eva: number, prot: number): void {
    if (prot & VM_PROT_WRITE) return;
    for (let si = sva >>> SEG_SHIFT; si < SEGS && si <= (eva - 1) >>> SEG_SHIFT; si++) {
      const seg = pm.segs[si];
      if (!seg) continue;
      const base = si << SEG_SHIFT >>> 0;
      const lo = Math.max(0, (sva - base) / 4096);
      const hi = Math.min(1024, Math.ceil((eva - base) / 4096));
      for (let i = lo; i < hi; i++) seg[i]! &= ~ENTRYLO_D;
    }
    this.flushRange(pm, sva, eva);
  }

  destroy(pm: MipsPmap): void {
    if (this.live(pm)) this.flushRange(pm, 0, 0x80000000);
    pm.segs.fill(undefined);
    pm.resident = 0;
    pm.gen = -1;
    if (this.active === pm) this.active = null;
  }

  /** Makes pm the address space the TLB translates for (a fresh ASID if its generation is old). */
  activate(pm: MipsPmap): void {
    if (!this.live(pm)) {
      if (this.nextAsid > MAX_ASID) {
        this.asidGen++;
        this.nextAsid = 1;
        for (let i = 0; i < TLB_ENTRIES; i++) this.invalidate(i);
      }
      pm.asid = this.nextAsid++;
      pm.gen = this.asidGen;
    }
    this.active = pm;
    this.cpu.setEntryHi(pm.asid << ENTRYHI_ASID_SHIFT);
  }

  /**
   * UTLB refill from the active pmap (the R2000 refill handler): EntryHi already holds the
   * faulting VPN and the ASID. Returns false when the page has no valid translation.
   */
  refill(va: number): boolean {
    const pm = this.active;
    if (!pm) return false;
    const pte = pm.pte(va >>> 0);
    if ((pte & ENTRYLO_V) === 0) return false;
    const cpu = this.cpu;
    cpu.entryLo = pte;
    cpu.index = this.slot << 8;
    cpu.tlbWriteIndexed();
    if (++this.slot === TLB_ENTRIES) this.slot = TLB_WIRED;
    return true;
  }
}
