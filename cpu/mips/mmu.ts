/**
 * R2000 address translation: kuseg through the 64-entry TLB, kseg0/kseg1 unmapped (kernel only),
 * kseg2 through the TLB (kernel only); and the software page map in front of it.
 *
 * Software page map: for the current mode, `rmap[vpn]` / `wmap[vpn]` hold the physical page base
 * (ppn << 12) of a translation the TLB (or kseg0/1) grants for reading / writing, or -1. A page base
 * is a non-negative multiple of 4096, so one test covers "mapped" and alignment together:
 * ((rmap[va >>> 12] | va) & 0x80000003) === 0 for a word load. Misses go to the slow path
 * (translate), which consults the architectural TLB and fills the map.
 *
 * Invariants (what keeps the map from ever being stale):
 *   - every map entry filled from TLB entry i is recorded in cachedVpn[i];
 *   - writing TLB entry i (tlbwi/tlbwr) drops the old and the new VPN of i from every map;
 *   - changing EntryHi.ASID drops every cached translation of a non-global entry;
 *   - wmap never maps a physical page holding translated code (PhysMem.codePage), so guest stores
 *     to such pages reach the slow path, which lets the translator invalidate first;
 *   - user and kernel mode have separate maps (kseg0/1 and kseg2 only exist in the kernel map).
 * The reference interpreter never reads the map: it translates every access through the TLB, so
 * lockstep tests check the map against the architecture.
 */
import type { PhysMem } from '../physmem.js';
import {
  ENTRYHI_ASID_MASK, ENTRYHI_VPN_MASK, ENTRYLO_D, ENTRYLO_G, ENTRYLO_MASK, ENTRYLO_V, INDEX_MASK, INDEX_P,
  SR_KUC, TLB_ENTRIES,
} from './cp0.js';

/** Results of translate() other than a physical address. */
export const XL_TLB_REFILL = -1; // no matching entry
export const XL_TLB_INVALID = -2; // matching entry with V = 0
export const XL_TLB_MOD = -3; // store to a matching entry with D = 0
export const XL_ADDR_ERR = -4; // kernel address from user mode
export const XL_BUS_ERR = -5; // physical address beyond memory

export const ACC_LOAD = 0;
export const ACC_STORE = 1;
export const ACC_FETCH = 2;

const MAP_PAGES = 1 << 20;
/** Buckets of the TLB's VPN index (a hash over the 64 entries, not part of the architecture). */
const TLB_HASH = 128;

function vpnHash(vpn: number): number {
  return Math.imul(vpn, 0x9e3779b1) >>> 25;
}

function newMap(): Int32Array {
  return new Int32Array(MAP_PAGES).fill(-1);
}

export class MipsMmu {
  readonly mem: PhysMem;
  /** TLB entries: EntryHi (VPN | ASID) and EntryLo (PFN | N | D | V | G) images. */
  readonly tlbHi = new Int32Array(TLB_ENTRIES);
  readonly tlbLo = new Int32Array(TLB_ENTRIES);
  /** Virtual page number each TLB entry has put into a page map, or -1. */
  private readonly cachedVpn = new Int32Array(TLB_ENTRIES).fill(-1);
  /**
   * Index of the TLB by VPN: chains of entries per hash bucket, so a lookup compares a few entries
   * instead of 64. A lookup still answers exactly what the associative search does (the lowest
   * numbered matching entry); tlbWrite keeps the chains in step.
   */
  private readonly bucketHead = new Int8Array(TLB_HASH).fill(-1);
  private readonly chainNext = new Int8Array(TLB_ENTRIES).fill(-1);
  private readonly entryBucket = new Int16Array(TLB_ENTRIES).fill(-1);

  index = 0;
  entryLo = 0;
  entryHi = 0;
  context = 0;
  badVAddr = 0;
  /** Status register; the mode bits select the page map (setStatus keeps them in step). */
  status = 0;

  private readonly userR = newMap();
  private readonly userW = newMap();
  private kernR: Int32Array | null = null;
  private kernW: Int32Array | null = null;
  /** Page maps of the current mode. */
  rmap: Int32Array = this.userR;
  wmap: Int32Array = this.userW;
  /** Number of physical pages. */
  private readonly npages: number;

  constructor(mem: PhysMem) {
    this.mem = mem;
    this.npages = mem.size >>> 12;
    for (let i = 0; i < TLB_ENTRIES; i++) this.link(i);
  }

  private link(i: number): void {
    const b = vpnHash(this.tlbHi[i]! >>> 12);
    this.chainNext[i] = this.bucketHead[b]!;
    this.bucketHead[b] = i;
    this.entryBucket[i] = b;
  }

  private unlink(i: number): void {
    const b = this.entryBucket[i]!;
    let p = this.bucketHead[b]!;
    if (p === i) this.bucketHead[b] = this.chainNext[i]!;
    else {
      while (this.chainNext[p] !== i) p = this.chainNext[p]!;
      this.chainNext[p] = this.chainNext[i]!;
    }
    this.entryBucket[i] = -1;
  }

  /**
   * The TLB's associative search: the lowest-numbered entry whose VPN equals hi's and which is
   * global or has hi's ASID; -1 if none.
   */
  tlbMatch(hi: number): number {
    const asid = hi & ENTRYHI_ASID_MASK;
    let best = -1;
    for (let i = this.bucketHead[vpnHash(hi >>> 12)]!; i >= 0; i = this.chainNext[i]!) {
      const e = this.tlbHi[i]!;
      if (((e ^ hi) & ENTRYHI_VPN_MASK) !== 0) continue;
      if ((this.tlbLo[i]! & ENTRYLO_G) === 0 && (e & ENTRYHI_ASID_MASK) !== asid) continue;
      if (best < 0 || i < best) best = i;
    }
    return best;
  }

  /** True in user mode (Status.KUc). */
  get userMode(): boolean {
    return (this.status & SR_KUC) !== 0;
  }

  /** Writes Status and selects the page map of the new mode. */
  protected setStatusRaw(v: number): void {
    this.status = v | 0;
    if ((v & SR_KUC) !== 0) {
      this.rmap = this.userR;
      this.wmap = this.userW;
    } else {
      this.kernR ??= newMap();
      this.kernW ??= newMap();
      this.rmap = this.kernR;
      this.wmap = this.kernW;
    }
  }

  /** Drops a virtual page from every map. */
  private dropVpn(vpn: number): void {
    this.userR[vpn] = -1;
    this.userW[vpn] = -1;
    if (this.kernR) {
      this.kernR[vpn] = -1;
      this.kernW![vpn] = -1;
    }
  }

  /**
   * Translates va for an access (ACC_LOAD/STORE/FETCH): a physical address, or an XL_* code.
   * Alignment is the caller's business. Fills the current page map on success.
   */
  translate(va: number, acc: number): number {
    const vpn = va >>> 12;
    if ((va | 0) < 0) {
      if ((this.status & SR_KUC) !== 0) return XL_ADDR_ERR;
      if ((va >>> 0) < 0xc0000000) {
        // kseg0 (cached) and kseg1 (uncached) both map the low 512 MB of physical memory.
        const ppn = vpn & 0x1ffff;
        if (ppn >= this.npages) return XL_BUS_ERR;
        this.rmap[vpn] = ppn << 12;
        if (this.mem.codePage[ppn] === 0) this.wmap[vpn] = ppn << 12;
        return (ppn << 12) | (va & 0xfff);
      }
    }
    const i = this.tlbMatch((va & ENTRYHI_VPN_MASK) | (this.entryHi & ENTRYHI_ASID_MASK));
    if (i < 0) return XL_TLB_REFILL;
    const lo = this.tlbLo[i]!;
    if ((lo & ENTRYLO_V) === 0) return XL_TLB_INVALID;
    if (acc === ACC_STORE && (lo & ENTRYLO_D) === 0) return XL_TLB_MOD;
    const ppn = lo >>> 12;
    if (ppn >= this.npages) return XL_BUS_ERR;
    this.rmap[vpn] = ppn << 12;
    if ((lo & ENTRYLO_D) !== 0 && this.mem.codePage[ppn] === 0) this.wmap[vpn] = ppn << 12;
    this.cachedVpn[i] = vpn;
    return (ppn << 12) | (va & 0xfff);
  }

  /** Writes EntryHi; a new ASID drops every cached non-global translation. */
  setEntryHi(v: number): void {
    const old = this.entryHi;
    this.entryHi = v & (ENTRYHI_VPN_MASK | ENTRYHI_ASID_MASK);
    if (((old ^ this.entryHi) & ENTRYHI_ASID_MASK) === 0) return;
    for (let i = 0; i < TLB_ENTRIES; i++) {
      const vpn = this.cachedVpn[i]!;
      if (vpn >= 0 && (this.tlbLo[i]! & ENTRYLO_G) === 0) {
        this.dropVpn(vpn);
        this.cachedVpn[i] = -1;
      }
    }
  }

  /** Writes TLB entry i from EntryHi/EntryLo (tlbwi, tlbwr). */
  protected tlbWrite(i: number): void {
    const old = this.cachedVpn[i]!;
    if (old >= 0) {
      this.dropVpn(old);
      this.cachedVpn[i] = -1;
    }
    this.unlink(i);
    this.tlbHi[i] = this.entryHi;
    this.tlbLo[i] = this.entryLo & ENTRYLO_MASK;
    this.link(i);
    // Another entry may have cached the same page (duplicate entries): drop it too.
    const vpn = this.entryHi >>> 12;
    this.dropVpn(vpn);
    for (let j = this.bucketHead[this.entryBucket[i]!]!; j >= 0; j = this.chainNext[j]!) if (this.cachedVpn[j] === vpn) this.cachedVpn[j] = -1;
    // A kuseg entry is usually written by a refill for the access about to be retried: put its
    // translation into the user map now, as translate() would fill it on that access (so that
    // translated code does not take its slow path, or leave a region, for it). EntryHi holds the
    // current ASID; the entry serves the page unless a lower-numbered entry matches it too.
    if (vpn < 0x80000 && this.tlbMatch(this.entryHi) === i) {
      const lo = this.tlbLo[i]!;
      const ppn = lo >>> 12;
      if ((lo & ENTRYLO_V) !== 0 && ppn < this.npages) {
        this.userR[vpn] = ppn << 12;
        if ((lo & ENTRYLO_D) !== 0 && this.mem.codePage[ppn] === 0) this.userW[vpn] = ppn << 12;
        this.cachedVpn[i] = vpn;
      }
    }
  }

  /** tlbwi: write the entry Index selects. */
  tlbWriteIndexed(): void {
    this.tlbWrite((this.index & INDEX_MASK) >>> 8);
  }

  /** tlbwr: write the entry `random` (the Random register's value, 8..63) selects. */
  tlbWriteRandomAt(random: number): void {
    this.tlbWrite(random);
  }

  /** tlbr: load EntryHi/EntryLo from the entry Index selects. */
  tlbRead(): void {
    const i = (this.index & INDEX_MASK) >>> 8;
    this.setEntryHi(this.tlbHi[i]!);
    this.entryLo = this.tlbLo[i]!;
  }

  /** tlbp: Index = the entry matching EntryHi (VPN and ASID, or global), else P set. */
  tlbProbe(): void {
    const i = this.tlbMatch(this.entryHi);
    this.index = i >= 0 ? i << 8 : INDEX_P | (this.index & INDEX_MASK);
  }

  /**
   * Keeps guest stores to physical page ppn off the fast path: removes every wmap entry that maps
   * it. Called when the translator caches code from the page.
   */
  protectCodePage(ppn: number): void {
    for (let i = 0; i < TLB_ENTRIES; i++) {
      const vpn = this.cachedVpn[i]!;
      if (vpn >= 0 && this.tlbLo[i]! >>> 12 === ppn) {
        this.userW[vpn] = -1;
        if (this.kernW) this.kernW[vpn] = -1;
      }
    }
    if (this.kernW && ppn < 0x20000) {
      this.kernW[0x80000 + ppn] = -1;
      this.kernW[0xa0000 + ppn] = -1;
    }
  }

  /** Drops every cached translation (e.g. after the kernel rewrote memory behind the CPU's back). */
  flushPageMaps(): void {
    this.userR.fill(-1);
    this.userW.fill(-1);
    this.kernR?.fill(-1);
    this.kernW?.fill(-1);
    this.cachedVpn.fill(-1);
  }
}
