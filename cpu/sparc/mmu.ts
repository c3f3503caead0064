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
/** Region size (bytes) mapped by a PTE at each level. */
const LEVEL_SIZE = LEVEL_SHIFT.map((s) => 2 ** s);

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
  /** Map entries installed in pass-through mode (MMU off), as (vpn << 3) | map index. */
  private readonly passInstalled: number[] = [];
  /**
   * The TLB model as parallel arrays indexed by slot (no allocation on a miss): each live slot
   * caches one PTE with its level, context and region base; `installed` lists the software-map
   * entries derived from it as (vpn << 3) | map index. Slots are replaced in FIFO order.
   */
  private readonly tlbLive: Uint8Array;
  private readonly tlbCtx: Int32Array;
  private readonly tlbLevel: Int32Array;
  private readonly tlbVbase: Int32Array;
  private readonly tlbPte: Int32Array;
  private readonly tlbPteAddr: Float64Array;
  /** Home bucket in hashTab of each live slot's key (its hash, kept to avoid recomputing it). */
  private readonly tlbHome: Int32Array;
  private readonly installed: number[][];
  /** Number of valid codes at the front of installed[slot] (the arrays are reused, never shrunk). */
  private readonly instN: Int32Array;
  private tlbNext = 0;
  /** Live slots per level: a lookup skips the levels no entry maps. */
  private readonly levelCount = new Int32Array(4);
  /**
   * Open-addressing (linear probing) index over the live slots keyed by (context, level, tag):
   * slot + 1, or 0 for an empty bucket. Not part of the architecture; it answers exactly what a
   * search of every slot would.
   */
  private readonly hashTab: Int16Array;
  private readonly hashMask: number;
  /** Result of the last walk (walkInto): PTE, its level and physical address, fault type. */
  private wPte = 0;
  private wLevel = 0;
  private wAddr = 0;
  private wFault = 0;
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
    if (!Number.isInteger(tlbSize) || tlbSize < 1 || tlbSize > 4096) throw new Error(`TLB size ${tlbSize} outside 1..4096`);
    this.tlbSize = tlbSize;
    this.tlbLive = new Uint8Array(tlbSize);
    this.tlbCtx = new Int32Array(tlbSize);
    this.tlbLevel = new Int32Array(tlbSize);
    this.tlbVbase = new Int32Array(tlbSize);
    this.tlbPte = new Int32Array(tlbSize);
    this.tlbPteAddr = new Float64Array(tlbSize);
    this.tlbHome = new Int32Array(tlbSize);
    this.installed = Array.from({ length: tlbSize }, () => [] as number[]);
    this.instN = new Int32Array(tlbSize);
    let hs = 16;
    while (hs < tlbSize * 4) hs *= 2;
    this.hashTab = new Int16Array(hs);
    this.hashMask = hs - 1;
    this.maps = [];
    for (let i = 0; i < 6; i++) this.maps.push(new Int32Array(1 << 20).fill(MAP_INVALID));
    this.codePages = new Uint8Array(mem.size >>> 12);
  }

  /** Power-on state: MMU disabled, registers and statistics zero, TLB and maps empty. */
  reset(): void {
    for (let i = 0; i < this.tlbSize; i++) if (this.tlbLive[i]) this.evict(i);
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
      if (!probeOnly) this.install(-1, va >>> 12, mode, access, va - (va % 4096));
      return va;
    }
    let e = this.lookupTlb(va);
    if (e < 0) {
      if (probeOnly) {
        this.walkInto(va);
        if (this.wFault) return this.fail(va, access, sup, this.wFault, this.wLevel, true);
        return this.check(va, this.wPte, this.wLevel, access, sup, true);
      }
      this.tlbMisses++;
      this.walkInto(va);
      if (this.wFault) return this.fail(va, access, sup, this.wFault, this.wLevel, false);
      e = this.insertTlb(va, this.wLevel, this.wPte, this.wAddr);
    }
    const pa = this.check(va, this.tlbPte[e]!, this.tlbLevel[e]!, access, sup, probeOnly);
    if (pa < 0 || probeOnly) return pa;
    // Referenced/modified bits: a store through an entry with M clear walks again to set M.
    const old = this.tlbPte[e]!;
    let pte = old;
    if (access === ACCESS_WRITE && (pte & PTE_M) === 0) {
      this.mWalks++;
      pte |= PTE_M | PTE_R;
    } else if ((pte & PTE_R) === 0) {
      pte |= PTE_R;
    }
    if (pte !== old) {
      this.tlbPte[e] = pte;
      this.mem.write32(this.tlbPteAddr[e]!, pte);
    }
    // pa < mem.size <= 2^32 here, so the low bits of its int32 image are its page offset.
    this.install(e, va >>> 12, mode, access, pa - (pa & 4095));
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
    const base = (pte >>> 8) * 4096;
    const pa = level === 3 ? base + (va & 0xfff) : base - (base % LEVEL_SIZE[level]!) + (va % LEVEL_SIZE[level]!);
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
    this.walkInto(va >>> 0);
    return { pte: this.wPte >>> 0, level: this.wLevel, pteAddr: this.wAddr, fault: this.wFault };
  }

  /** The walk of walk(), leaving its result in wPte, wLevel, wAddr and wFault. */
  private walkInto(va: number): void {
    const u32 = this.mem.u32;
    const size = this.mem.size;
    let addr = (this.contextTable() + this.ctx * 4) >>> 0;
    let level = 0;
    let pte = 0;
    let ft = FT_TRANSLATION;
    for (;;) {
      if (addr + 4 > size) break;
      const ent = u32[addr >>> 2]!;
      const et = ent & 3;
      if (et === ET_PTE) {
        pte = ent;
        ft = 0;
        break;
      }
      if (et === ET_INVALID) {
        ft = FT_INVALID_ADDRESS;
        break;
      }
      // A PTD at level 3, or the reserved type: translation error at this level.
      if (et !== ET_PTD || level === 3) break;
      const idx = level === 0 ? va >>> 24 : level === 1 ? (va >>> 18) & 63 : (va >>> 12) & 63;
      addr = ((((ent >>> 2) << 6) >>> 0) + idx * 4) >>> 0;
      level++;
    }
    this.wPte = pte;
    this.wLevel = level;
    this.wAddr = addr;
    this.wFault = ft;
  }

  // ---- TLB model ----

  /** Tag of va at a level: the virtual address bits above the region a PTE there maps. */
  private static tag(level: number, va: number): number {
    return level === 0 ? 0 : va >>> LEVEL_SHIFT[level]!;
  }

  private hash(ctx: number, level: number, tag: number): number {
    return (Math.imul(tag ^ (ctx << 20) ^ (level << 30), 0x9e3779b1) >>> 16) & this.hashMask;
  }

  /** Slot of the live entry (ctx, level, tag), or -1. */
  private find(ctx: number, level: number, tag: number): number {
    const h = this.hashTab;
    for (let b = this.hash(ctx, level, tag); ; b = (b + 1) & this.hashMask) {
      const s = h[b]! - 1;
      if (s < 0) return -1;
      if (this.tlbLevel[s] === level && this.tlbCtx[s] === ctx && SparcMmu.tag(level, this.tlbVbase[s]! >>> 0) === tag) return s;
    }
  }

  /** The entry translating va in the current context (the smallest region first), or -1. */
  private lookupTlb(va: number): number {
    const n = this.levelCount;
    const ctx = this.ctx;
    for (let level = 3; level >= 0; level--) {
      if (n[level] === 0) continue;
      const s = this.find(ctx, level, SparcMmu.tag(level, va));
      if (s >= 0) return s;
    }
    return -1;
  }

  private insertTlb(va: number, level: number, pte: number, pteAddr: number): number {
    const slot = this.tlbNext;
    if (this.tlbLive[slot]) this.evict(slot);
    this.tlbNext = (slot + 1) % this.tlbSize;
    const shift = LEVEL_SHIFT[level]!;
    this.tlbLive[slot] = 1;
    this.tlbCtx[slot] = this.ctx;
    this.tlbLevel[slot] = level;
    this.tlbVbase[slot] = shift === 32 ? 0 : (va >>> shift) << shift;
    this.tlbPte[slot] = pte;
    this.tlbPteAddr[slot] = pteAddr;
    this.levelCount[level]!++;
    const h = this.hashTab;
    const home = this.hash(this.ctx, level, SparcMmu.tag(level, va));
    this.tlbHome[slot] = home;
    let b = home;
    while (h[b] !== 0) b = (b + 1) & this.hashMask;
    h[b] = slot + 1;
    return slot;
  }

  /** Removes slot s from the TLB and drops the map entries derived from it. */
  private evict(s: number): void {
    const level = this.tlbLevel[s]!;
    const h = this.hashTab;
    const mask = this.hashMask;
    let b = this.tlbHome[s]!;
    while (h[b] !== s + 1) b = (b + 1) & mask;
    // Backward-shift deletion keeps every remaining key reachable from its home bucket.
    for (let j = (b + 1) & mask; h[j] !== 0; j = (j + 1) & mask) {
      const home = this.tlbHome[h[j]! - 1]!;
      // Move the entry at j into the hole at b when its home bucket is not cyclically within (b, j].
      if (((j - home) & mask) >= ((j - b) & mask)) {
        h[b] = h[j]!;
        b = j;
      }
    }
    h[b] = 0;
    this.tlbLive[s] = 0;
    this.levelCount[level]!--;
    const l = this.installed[s]!;
    for (let i = 0, n = this.instN[s]!; i < n; i++) {
      const code = l[i]!;
      this.maps[code & 7]![code >>> 3] = MAP_INVALID;
    }
    this.instN[s] = 0;
  }

  /** Number of live TLB entries (for tests and statistics). */
  tlbOccupancy(): number {
    let n = 0;
    for (let i = 0; i < this.tlbSize; i++) n += this.tlbLive[i]!;
    return n;
  }

  /** Installs a software-map entry derived from TLB slot e (-1: pass-through). */
  private install(e: number, vpn: number, mode: number, access: Access, paPage: number): void {
    if (access === ACCESS_WRITE) {
      if (this.codePages[paPage >>> 12]) return;
      if (e >= 0 && (this.tlbPte[e]! & PTE_M) === 0) return;
    }
    const mi = mode * 3 + access;
    const map = this.maps[mi]!;
    if (map[vpn] !== MAP_INVALID) return;
    map[vpn] = (paPage - vpn * 4096) | 0;
    if (e >= 0) this.installed[e]![this.instN[e]!++] = (vpn << 3) | mi;
    else this.passInstalled.push((vpn << 3) | mi);
  }

  /** Calls f with every installed map entry: (vpn << 3) | map index (some may be invalid). */
  private forEachInstalled(f: (code: number) => void): void {
    for (let s = 0; s < this.tlbSize; s++) {
      const l = this.installed[s]!;
      for (let i = 0, n = this.instN[s]!; i < n; i++) f(l[i]!);
    }
    const p = this.passInstalled;
    for (let i = 0; i < p.length; i++) f(p[i]!);
  }

  /** Drops every software-map entry (the TLB model keeps its entries). */
  clearMaps(): void {
    this.forEachInstalled((code) => {
      this.maps[code & 7]![code >>> 3] = MAP_INVALID;
    });
    this.instN.fill(0);
    this.passInstalled.length = 0;
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
    for (let e = 0; e < this.tlbSize; e++) {
      if (!this.tlbLive[e]) continue;
      if (type === FLUSH_ENTIRE) {
        this.evict(e);
        continue;
      }
      if (this.tlbCtx[e] !== this.ctx) continue;
      if (type === FLUSH_CONTEXT) {
        this.evict(e);
        continue;
      }
      // Overlap of [vbase, vbase + 2^eshift) and the flush region around va.
      const eshift = LEVEL_SHIFT[this.tlbLevel[e]!]!;
      const s = Math.max(eshift, span);
      const a = s >= 32 ? 0 : (this.tlbVbase[e]! >>> 0) >>> s;
      const b = s >= 32 ? 0 : va >>> s;
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
    this.forEachInstalled((code) => {
      const mi = code & 7;
      if (mi !== ACCESS_WRITE && mi !== 3 + ACCESS_WRITE) return;
      const vpn = code >>> 3;
      const map = this.maps[mi]!;
      const e = map[vpn]!;
      if (e !== MAP_INVALID && ((vpn * 4096 + e) >>> 12) === ppage) map[vpn] = MAP_INVALID;
    });
  }

  /** Physical page no longer holds translated code. */
  unprotectCodePage(ppage: number): void {
    this.codePages[ppage] = 0;
  }
}
