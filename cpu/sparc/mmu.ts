/**
 * SPARC Reference MMU (SRMMU, The SPARC Architecture Manual v8, Appendix H): page tables in
 * physical memory walked by the machine on a TLB miss, a TLB model that counts misses, and a
 * software page map that gives the engines' loads, stores and fetches a one-compare fast path.
 *
 * Page tables: the context table (at CTPR << 4, one word per context) holds a PTD or a PTE for
 * the whole 4 GB; a level-1 table has 256 entries (VA[31:24]), level-2 and level-3 tables 64
 * (VA[23:18], VA[17:12]). Entry type ET (bits 1:0): 0 invalid, 1 PTD (bits 31:2 = PA[35:6] of the
 * next table), 2 PTE (bits 31:8 = PPN = PA[35:12], C bit 7, M bit 6, R bit 5, ACC bits 4:2), 3
 * reserved. A walk sets R in the PTE it uses, and M too when the access is a store.
 *
 * TLB model: `tlbSize` entries (default 64), each caching one PTE with its level, context-tagged,
 * FIFO replacement (deterministic, independent of hits). Statistics: `tlbMisses` (walks for a
 * missing entry) and `mWalks` (walks to set M on a first store through an entry with M clear).
 * Like the hardware, a PTE changed in memory is seen only after a flush of its entry.
 *
 * Software page map (per mode user/supervisor and per access read/write/execute): for each 4 KiB
 * virtual page, `(PA_page - VA_page) | 0`, or MAP_INVALID (odd, so `((e | va) & 3) === 0` checks
 * word alignment and presence in one test). Every entry comes from a live TLB entry (or from
 * pass-through mode), so evicting or flushing TLB entries, changing the context, CTPR or the
 * control register removes exactly the map entries that could be stale. Write entries are
 * installed only when the PTE's M bit is already set and the physical page holds no translated
 * code (stores to code pages take the slow path, which invalidates translations).
 */
import type { PhysMem } from '../physmem.js';

export const MAP_INVALID = 1;

export const ACCESS_READ = 0;
export const ACCESS_WRITE = 1;
export const ACCESS_EXEC = 2;
export type Access = 0 | 1 | 2;

export const ET_INVALID = 0;
export const ET_PTD = 1;
export const ET_PTE = 2;
export const PTE_C = 0x80;
export const PTE_M = 0x40;
export const PTE_R = 0x20;

/** Control register: E (enable) bit 0, NF bit 1; IMPL/VER (bits 31:24) read-only. */
export const MMU_CTRL_E = 1;
export const MMU_CTRL_NF = 2;
export const MMU_IMPL_VER = 0x00000000;

/** SFSR fields (SRMMU): L bits 9:8, AT bits 7:5, FT bits 4:2, FAV bit 1, OW bit 0. */
export const FT_NONE = 0;
export const FT_INVALID_ADDRESS = 1;
export const FT_PROTECTION = 2;
export const FT_PRIVILEGE = 3;
export const FT_TRANSLATION = 4;
export const FT_ACCESS_BUS = 5;

/** Permission bits per ACC value (R = 1, W = 2, X = 4), user then supervisor (Table H-5). */
const PERM_USER = [1, 3, 5, 7, 4, 1, 0, 0];
const PERM_SUPER = [1, 3, 5, 7, 4, 3, 5, 7];
const NEED = [1, 2, 4];

/** Flush/probe types (ASI 3 address bits 11:8). */
export const FLUSH_PAGE = 0;
export const FLUSH_SEGMENT = 1;
export const FLUSH_REGION = 2;
export const FLUSH_CONTEXT = 3;
export const FLUSH_ENTIRE = 4;

/** Region size (log2) mapped by a PTE found at each level (0 = context table). */
const LEVEL_SHIFT = [32, 24, 18, 12];

interface TlbEntry {
  ctx: number;
  level: number;
  /** First virtual address of the region. */
  vbase: number;
  pte: number;
  /** Physical address of the PTE (for R/M updates). */
  pteAddr: number;
  /** Software map entries derived from this entry: (vpn << 3) | mapIndex. */
  installed: number[];
}

export interface MmuFault {
  /** SRMMU fault type FT_*. */
  ft: number;
  level: number;
}

export class SparcMmu {
  control = 0;
  ctpr = 0;
  ctx = 0;
  sfsr = 0;
  sfar = 0;
  readonly tlbSize: number;
  tlbMisses = 0;
  mWalks = 0;
  /** Maps indexed [mode * 3 + access], mode 0 user, 1 supervisor. */
  readonly maps: Int32Array[];
  private readonly installedPT: number[][] = [[], [], [], [], [], []];
  private readonly tlb: (TlbEntry | undefined)[];
  private tlbNext = 0;
  private readonly tlbIndex = new Map<number, TlbEntry>();
  /** Physical pages holding translated code (no write-map entries for them). */
  readonly codePages: Uint8Array;
  /**
   * Called when software changes translations explicitly (control, CTPR, context, flush): the
   * engines drop their current instruction-fetch page. TLB replacement does not call it.
   */
  onChange: () => void = () => {};
  /** Last fault of translate() (valid when it returned -1). */
  readonly fault: MmuFault = { ft: 0, level: 0 };

  constructor(readonly mem: PhysMem, tlbSize = 64) {
    this.tlbSize = tlbSize;
    this.tlb = new Array<TlbEntry | undefined>(tlbSize).fill(undefined);
    this.maps = [];
    for (let i = 0; i < 6; i++) this.maps.push(new Int32Array(1 << 20).fill(MAP_INVALID));
    this.codePages = new Uint8Array(mem.size >>> 12);
  }

  /** Power-on state: MMU disabled, registers and statistics zero, TLB and maps empty. */
  reset(): void {
    for (const e of this.tlb) if (e) this.evict(e);
    this.tlbNext = 0;
    this.ctpr = 0;
    this.ctx = 0;
    this.sfsr = 0;
    this.sfar = 0;
    this.tlbMisses = 0;
    this.mWalks = 0;
    this.codePages.fill(0);
    this.setControl(0);
  }

  get enabled(): boolean {
    return (this.control & MMU_CTRL_E) !== 0;
  }

  // ---- registers (also reachable through ASI 4 by supervisor code) ----

  setControl(v: number): void {
    this.control = v & (MMU_CTRL_E | MMU_CTRL_NF);
    this.clearMaps();
  }
  readControl(): number {
    return (MMU_IMPL_VER | this.control) >>> 0;
  }
  /** CTPR holds PA[35:6] of the context table in bits 31:2. */
  setCtpr(v: number): void {
    this.ctpr = v & ~3;
    this.clearMaps();
  }
  setContext(c: number): void {
    this.ctx = c & 0xfff;
    this.clearMaps();
  }
  /** Reading the SFSR clears it (SRMMU). */
  readSfsr(): number {
    const v = this.sfsr;
    this.sfsr = 0;
    return v >>> 0;
  }

  /** Physical address of the context table. */
  contextTable(): number {
    return ((this.ctpr >>> 2) << 6) >>> 0;
  }

  // ---- translation ----

  /**
   * Translates va for an access by the given mode; installs the software-map entry on success.
   * Returns the physical address, or -1 with `fault` describing why (SFSR/SFAR are set unless
   * `probeOnly`, which also leaves the TLB model and the maps untouched).
   */
  translate(va: number, access: Access, sup: boolean, probeOnly = false): number {
    va >>>= 0;
    const mode = sup ? 1 : 0;
    if (!this.enabled) {
      // Pass-through: virtual = physical.
      if (va >= this.mem.size) return this.fail(va, access, sup, FT_ACCESS_BUS, 0, probeOnly);
      if (!probeOnly) this.install(undefined, va >>> 12, mode, access, va & ~0xfff);
      return va;
    }
    let e = this.lookupTlb(va);
    if (!e) {
      if (probeOnly) {
        const w = this.walk(va);
        if (w.fault) return this.fail(va, access, sup, w.fault, w.level, true);
        return this.check(va, w.pte, w.level, access, sup, true);
      }
      this.tlbMisses++;
      const w = this.walk(va);
      if (w.fault) return this.fail(va, access, sup, w.fault, w.level, false);
      e = this.insertTlb(va, w.level, w.pte, w.pteAddr);
    }
    const pa = this.check(va, e.pte, e.level, access, sup, probeOnly);
    if (pa < 0 || probeOnly) return pa;
    // Referenced/modified bits: a store through an entry with M clear walks again to set M.
    let pte = e.pte;
    if (access === ACCESS_WRITE && (pte & PTE_M) === 0) {
      this.mWalks++;
      pte |= PTE_M | PTE_R;
    } else if ((pte & PTE_R) === 0) {
      pte |= PTE_R;
    }
    if (pte !== e.pte) {
      e.pte = pte;
      this.mem.write32(e.pteAddr, pte);
    }
    this.install(e, va >>> 12, mode, access, pa & ~0xfff);
    return pa;
  }

  /** Permission check of a PTE; returns the physical address or -1 (fault recorded). */
  private check(va: number, pte: number, level: number, access: Access, sup: boolean, probeOnly: boolean): number {
    const acc = (pte >>> 2) & 7;
    const perm = sup ? PERM_SUPER[acc]! : PERM_USER[acc]!;
    if ((perm & NEED[access]!) === 0) {
      const ft = !sup && acc >= 6 ? FT_PRIVILEGE : FT_PROTECTION;
      return this.fail(va, access, sup, ft, level, probeOnly);
    }
    // The PTE's PPN supplies the address bits above the region it maps; VA supplies the rest.
    const shift = LEVEL_SHIFT[level]!;
    const size = 2 ** shift;
    const base = (pte >>> 8) * 4096;
    const pa = base - (base % size) + (va % size);
    if (pa >= this.mem.size) return this.fail(va, access, sup, FT_ACCESS_BUS, level, probeOnly);
    return pa;
  }

  private fail(va: number, access: Access, sup: boolean, ft: number, level: number, probeOnly: boolean): number {
    this.fault.ft = ft;
    this.fault.level = level;
    if (!probeOnly) {
      // AT: 0/1 load user/supervisor data, 2/3 execute user/supervisor, 4/5 store user/supervisor data.
      const at = (access === ACCESS_EXEC ? 2 : access === ACCESS_WRITE ? 4 : 0) + (sup ? 1 : 0);
      const ow = (this.sfsr & 2) !== 0 ? 1 : 0;
      this.sfsr = ((level & 3) << 8) | (at << 5) | (ft << 2) | 2 | ow;
      this.sfar = va >>> 0;
    }
    return -1;
  }

  /** Table walk (no side effects): the PTE mapping va, its level and address, or a fault type. */
  walk(va: number): { pte: number; level: number; pteAddr: number; fault: number } {
    const mem = this.mem;
    let addr = (this.contextTable() + this.ctx * 4) >>> 0;
    for (let level = 0; level <= 3; level++) {
      if (addr + 4 > mem.size) return { pte: 0, level, pteAddr: addr, fault: FT_TRANSLATION };
      const ent = mem.read32(addr) >>> 0;
      const et = ent & 3;
      if (et === ET_PTE) return { pte: ent, level, pteAddr: addr, fault: 0 };
      if (et === ET_INVALID) return { pte: 0, level, pteAddr: addr, fault: FT_INVALID_ADDRESS };
      if (et !== ET_PTD || level === 3) return { pte: 0, level, pteAddr: addr, fault: FT_TRANSLATION };
      const table = ((ent >>> 2) << 6) >>> 0;
      const idx = level === 0 ? va >>> 24 : level === 1 ? (va >>> 18) & 63 : (va >>> 12) & 63;
      addr = (table + idx * 4) >>> 0;
    }
    return { pte: 0, level: 3, pteAddr: addr, fault: FT_TRANSLATION };
  }

  // ---- TLB model ----

  private key(ctx: number, level: number, va: number): number {
    const shift = LEVEL_SHIFT[level]!;
    const tag = shift === 32 ? 0 : va >>> shift;
    return (ctx * 4 + level) * 1048576 + tag;
  }

  private lookupTlb(va: number): TlbEntry | undefined {
    const idx = this.tlbIndex;
    return idx.get(this.key(this.ctx, 3, va)) ?? idx.get(this.key(this.ctx, 2, va))
      ?? idx.get(this.key(this.ctx, 1, va)) ?? idx.get(this.key(this.ctx, 0, va));
  }

  private insertTlb(va: number, level: number, pte: number, pteAddr: number): TlbEntry {
    const shift = LEVEL_SHIFT[level]!;
    const vbase = shift === 32 ? 0 : ((va >>> shift) << shift) >>> 0;
    const e: TlbEntry = { ctx: this.ctx, level, vbase, pte, pteAddr, installed: [] };
    const old = this.tlb[this.tlbNext];
    if (old) this.evict(old);
    this.tlb[this.tlbNext] = e;
    this.tlbNext = (this.tlbNext + 1) % this.tlbSize;
    this.tlbIndex.set(this.key(e.ctx, level, vbase), e);
    return e;
  }

  private evict(e: TlbEntry): void {
    this.tlbIndex.delete(this.key(e.ctx, e.level, e.vbase));
    const slot = this.tlb.indexOf(e);
    if (slot >= 0) this.tlb[slot] = undefined;
    for (const code of e.installed) this.maps[code & 7]![code >>> 3] = MAP_INVALID;
    e.installed.length = 0;
  }

  /** Number of live TLB entries (for tests and statistics). */
  tlbOccupancy(): number {
    return this.tlbIndex.size;
  }

  private install(e: TlbEntry | undefined, vpn: number, mode: number, access: Access, paPage: number): void {
    if (access === ACCESS_WRITE) {
      if (this.codePages[paPage >>> 12]) return;
      if (e && (e.pte & PTE_M) === 0) return;
    }
    const mi = mode * 3 + access;
    const map = this.maps[mi]!;
    if (map[vpn] !== MAP_INVALID) return;
    map[vpn] = (paPage - vpn * 4096) | 0;
    const l = this.installedPT[mi]!;
    l.push(vpn);
    // Entries invalidated by evictions stay listed; compact before the list grows without bound.
    if (l.length > 1 << 18) {
      const live = new Set<number>();
      for (const v of l) if (map[v] !== MAP_INVALID) live.add(v);
      l.length = 0;
      for (const v of live) l.push(v);
    }
    if (e) e.installed.push((vpn << 3) | mi);
  }

  /** Drops every software-map entry (the TLB model keeps its entries). */
  clearMaps(): void {
    for (let mi = 0; mi < 6; mi++) {
      const map = this.maps[mi]!;
      const l = this.installedPT[mi]!;
      for (const vpn of l) map[vpn] = MAP_INVALID;
      l.length = 0;
    }
    for (const e of this.tlb) if (e) e.installed.length = 0;
    this.onChange();
  }

  /**
   * SRMMU flush (ASI 3 store, or the kernel directly): removes the TLB entries of the current
   * context that cover va at the given granularity (page, segment, region), all entries of the
   * current context, or every entry.
   */
  flush(type: number, va = 0): void {
    va >>>= 0;
    const span = type === FLUSH_PAGE ? 12 : type === FLUSH_SEGMENT ? 18 : type === FLUSH_REGION ? 24 : 32;
    for (const e of [...this.tlb]) {
      if (!e) continue;
      if (type === FLUSH_ENTIRE) {
        this.evict(e);
        continue;
      }
      if (e.ctx !== this.ctx) continue;
      if (type === FLUSH_CONTEXT) {
        this.evict(e);
        continue;
      }
      // Overlap of [vbase, vbase + 2^eshift) and the flush region around va.
      const eshift = LEVEL_SHIFT[e.level]!;
      const s = Math.max(eshift, span);
      const a = s >= 32 ? 0 : Math.floor(e.vbase / 2 ** s);
      const b = s >= 32 ? 0 : Math.floor(va / 2 ** s);
      if (a === b) this.evict(e);
    }
    // Pass-through entries (MMU disabled) are not TLB-backed: drop all maps to be safe.
    if (!this.enabled) this.clearMaps();
    this.onChange();
  }

  /** SRMMU probe (ASI 3 load): the PTE the walk finds for va, or 0 when it is invalid. */
  probe(va: number): number {
    const w = this.walk(va >>> 0);
    return w.fault ? 0 : w.pte >>> 0;
  }

  /**
   * Marks a physical page as holding translated code: removes every write-map entry that points
   * to it, so stores there reach the slow path (and invalidate the translations).
   */
  protectCodePage(ppage: number): void {
    if (this.codePages[ppage]) return;
    this.codePages[ppage] = 1;
    for (const mi of [ACCESS_WRITE, 3 + ACCESS_WRITE]) {
      const map = this.maps[mi]!;
      const l = this.installedPT[mi]!;
      for (let i = 0; i < l.length; i++) {
        const vpn = l[i]!;
        const e = map[vpn]!;
        if (e !== MAP_INVALID && ((vpn * 4096 + e) >>> 12) === ppage) map[vpn] = MAP_INVALID;
      }
    }
  }

  /** Physical page no longer holds translated code. */
  unprotectCodePage(ppage: number): void {
    this.codePages[ppage] = 0;
  }
}
