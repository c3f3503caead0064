/**
 * The fast engine: guest basic blocks translated into JavaScript functions (`new Function`),
 * cached by physical address and mode, and run by a dispatch loop that links blocks to their
 * successors.
 *
 * A block is the straight-line code from its start up to and including the first branch or jump
 * and its delay slot (Kane & Heinrich 5-4: the delay slot executes before the transfer), or up to
 * an instruction that must end a block (syscall, break, CP0 operations, ctc1, reserved
 * encodings), the end of the page, or MAX_BLOCK instructions. A block that branches back to its
 * own start is emitted as a JS loop that iterates while the budget allows another full pass.
 * Once the machine has retired regionStart instructions, a user-mode block dispatched
 * regionThreshold times becomes the entry of a region (region.ts):
 * it and hot blocks it leads to on its page, compiled into one small function that the dispatch
 * loop runs instead of the block (large regions were measured slower: V8 compiles them late and
 * again after each deoptimisation).
 *
 * Contracts:
 *   - State is the CPU's: generated code reads and writes cpu.r, the FGRs and memory directly, so
 *     an exception in the middle of a block leaves exactly the state of the instructions before it.
 *     Slow paths (cpu.lw & co., cpu.raise) receive info = (k << 1) | ds — k instructions of the
 *     block retired before this one — and add k to icount at the exception entry; the block then
 *     returns -1. A slow path called from a delay slot first sets cpu.npc to the branch's
 *     destination (excNextPC).
 *   - Slow exits: a load or store after a block's first instruction does not call its slow path
 *     in place; when the page map does not serve it, the block stops before it (before its branch
 *     in a delay slot) through the function's common epilogue and returns SLOW_EXIT - pc, and the
 *     dispatch loop runs the block starting at pc, whose first instruction calls the slow path.
 *     V8 compiles code that never ran as a deoptimisation; the epilogue runs on every call, so a
 *     block optimised before its first TLB miss is not deoptimised and compiled again at it.
 *   - The budget: a block runs only if it fits in what remains; otherwise (and for a pending delay
 *     slot, or a branch whose delay slot lies on the next page) the reference interpreter steps.
 *   - Caches: one per (mode, sink on/off); the hooked translation calls the sink, the plain one
 *     contains no hook code. Keyed by physical address; a block also records its virtual start
 *     and is retranslated if reached at another address (its code embeds virtual pcs).
 *   - Links: a block (and a region exit) remembers up to two successors (one), on any page and
 *     through indirect jumps too. A link is followed only while the successor is live (va: not
 *     dropped, at that address) and the current page map still maps its virtual page to the
 *     physical page it was translated from (Block.pb): the map is never stale (mmu.ts), so the
 *     fetch would translate to the same place without a fault. The mode and the sink do not
 *     change along links: blocks ending in a mode or translation change ('end' blocks) never
 *     link, and exceptions end the chain.
 *   - The jump-target table: where a block's or region exit's links miss (returns and indirect
 *     jumps with more targets than links hold), the successor is taken from a direct-mapped table
 *     of the blocks those look-ups found, under the link's checks and one more: the entry's cache
 *     (mode and sink, Block.ck) is the one the block that jumped was found in, which the mode
 *     and sink have not left along the links. A live block is in its cache at its physical
 *     address, so the entry is then the block lookup would return.
 *   - Invalidation: translating from a physical page marks it in PhysMem.codePage and removes it
 *     from the CPU's write map, so every store to it (guest or kernel) reaches a slow path that
 *     drops the page's blocks first (and marks them dead, so no link reaches them); a guest store
 *     that does so ends its block right after the store (cpu.codeStale), so the next instruction
 *     is fetched anew.
 *   - Memory fast path: one page-map load and one test per access (mmu.ts); user-mode code tests
 *     ((map[va >>> 12] | va) & 0x80000003) for words (mapped, aligned, kuseg), kernel code tests
 *     the map entry's sign and the alignment separately (kseg addresses have bit 31 set).
 */
import { Insn, decode } from './decode.js';
import { SR_KUC } from './cp0.js';
import { MipsCpu, STOP_BUDGET, STOP_EXCEPTION, TRAP, type MipsEngine } from './cpu.js';
import { Emitter, SLOW_EXIT, emitBlock, endsAfter, type BlockInfo, type BlockKind } from './emit.js';
import { step } from './interp.js';
import { HELPER_NAMES, HELPER_VALUES } from '../semantics.js';
import { buildRegion, type RegionExit } from './region.js';
import { jitCache, type JitCache } from '../jitcache.js';

/** Longest block translated (instructions). */
export const MAX_BLOCK = 128;
/** Most side exits (forward conditional branches followed along their fall-through) per block. */
export const MAX_EXITS = 6;
/**
 * Instructions the machine retires (cpu.icount) before regions form (blocks count their
 * dispatches from the start). A region costs V8 an optimising compilation of its own (a few ms
 * of CPU each, on its compiler threads) and the dispatch loop a recompilation when its region
 * call meets a new target, while its code runs little faster than the linked, already optimised
 * blocks it replaces: regions pay back only over long runs. The rule is the ski-rental one — rent (blocks) until what was spent
 * equals the price of buying (the regions' compilation, about 0.3 s of CPU for CoreMark's 59
 * regions, what blocks take for some 10^8 instructions) — so a short run never pays for them
 * and a long one loses at most that much. Measured: docs/cpu-mips.md, "When regions start".
 */
export const REGION_START_INSNS = 100_000_000;
/**
 * A block other than the entry joins a region only if it was dispatched at least
 * regionThreshold / REGION_NODE_SHARE times: code that rarely runs stays out (when V8's optimised
 * code first reaches a path that had not run, it deoptimises and recompiles the whole region).
 */
export const REGION_NODE_SHARE = 5;
/**
 * Calls of a new region with no budget (it leaves at once through its common epilogue) before
 * its first real call. V8 allocates a function's type feedback only after some calls; without
 * these, the first call of a hot loop is compiled on the stack (OSR) before the epilogue ever ran,
 * deoptimises at its first exit, and later calls re-enter that OSR code and deoptimise again.
 */
const REGION_PRIME_CALLS = 64;

type BlockFn = (end: number) => number;

/** Parameters of a block's factory (what its code names; compile passes their values). */
const FACTORY_PARAMS = ['cpu', 'r', 'u32', 'u16', 'u8', 'rm', 'wm', 'fpu', 'fgr', 'sink', ...HELPER_NAMES];

/** Entries of the jump-target table (a power of two). */
const JTAB = 4096;

/** A compiled region (region.ts) and its exits, each with a link to the block it leads to. */
class Region {
  constructor(
    readonly fn: BlockFn,
    readonly exits: LinkedExit[],
    /** Instructions of its entry block: less budget left runs the block path instead. */
    readonly entryLen: number,
  ) {}
}

/**
 * A region exit; a class, so that the dispatch loop's loads from it see one hidden class. Where
 * execution continues and the retired count are in cpu.pc and cpu.icount (the region wrote them).
 */
class LinkedExit {
  readonly slow: boolean;
  link: Block | null = null;
  constructor(e: RegionExit) {
    this.slow = e.slow;
  }
}

class Block {
  /** Linked successors (pc and block), or -1/null. */
  s1pc = -1;
  s1: Block | null = null;
  s2pc = -1;
  s2: Block | null = null;
  /** Dispatches so far (the region threshold counts them). */
  hits = 0;
  /** The region entered at va, run instead of the block; null: none (yet). */
  region: Region | null = null;
  /**
   * Forms no region of its own: part of some region (its code is compiled once into a region),
   * or its own was formed or could not be.
   */
  covered = false;
  constructor(
    /** Virtual address of the first instruction; -1 once the block is dropped. */
    public va: number,
    /** Instructions per execution; 0: the interpreter executes the instruction at va. */
    readonly len: number,
    readonly fn: BlockFn | null,
    /** May link to successors (not an 'end' block). */
    readonly linkable: boolean,
    /** Physical page base (ppn << 12) it was translated from: links check the map against it. */
    readonly pb: number,
    /** Index of its cache (mode and sink): the jump-target table's entries are checked against it. */
    readonly ck: number,
  ) {}
}

/** Per-page arrays of blocks indexed by word offset. */
type PageCache = (Block | undefined)[];

export class FastEngine implements MipsEngine {
  readonly name = 'fast' as const;
  /** caches[(user ? 2 : 0) + (hooked ? 1 : 0)][ppn]: dense arrays (a sparse one is a slow dictionary). */
  private readonly caches: (PageCache | null)[][];
  /** Blocks compiled since creation (statistics). */
  blocks = 0;
  /**
   * At most this many dispatches (a block, or one interpreted instruction) per run() before it
   * returns STOP_BUDGET — lockstep tests compare states after every block with 1.
   */
  blockLimit = Infinity;
  /**
   * A block dispatched this many times becomes the entry of a region (region.ts); 0 disables
   * regions. Regions are used only for user-mode code without a ground-truth sink and when
   * blockLimit is Infinity, and once cpu.icount has reached regionStart (blocks count their
   * dispatches from the start; those past the threshold form their regions then).
   */
  regionThreshold = 1000;
  /** cpu.icount from which regions form (REGION_START_INSNS; the lockstep tests set 0). */
  regionStart = REGION_START_INSNS;
  /** Regions compiled since creation (statistics). */
  regions = 0;
  /**
   * Blocks found by the look-ups of successors that links did not hold, direct-mapped by virtual
   * address: returns and indirect jumps with more targets than links hold find them here. An
   * entry is followed as a link is (live, at that address, page map unchanged) and only from a
   * block of the same cache (mode and sink): it is then the block lookup would return.
   */
  private readonly jtab: (Block | null)[] = new Array<Block | null>(JTAB).fill(null);

  /** The translation cache (../jitcache.ts), when the command keeps one. */
  private readonly jit: JitCache | null = jitCache('mips', FACTORY_PARAMS);

  constructor(readonly cpu: MipsCpu) {
    const npages = cpu.mem.size >>> 12;
    this.caches = [0, 1, 2, 3].map(() => new Array<PageCache | null>(npages).fill(null));
  }

  invalidatePage(ppn: number): void {
    for (const c of this.caches) {
      const page = c[ppn];
      if (!page) continue;
      for (const b of page) if (b !== undefined) b.va = -1;
      c[ppn] = null;
    }
  }

  /** Drops every translation. */
  flush(): void {
    for (let p = 0; p < this.caches[0]!.length; p++) this.invalidatePage(p);
    this.jtab.fill(null);
  }

  /** Hooked translations captured the old sink object. */
  sinkChanged(): void {
    for (const k of [1, 3]) {
      const c = this.caches[k]!;
      for (let p = 0; p < c.length; p++) {
        const page = c[p];
        if (!page) continue;
        for (const b of page) if (b !== undefined) b.va = -1;
        c[p] = null;
      }
    }
    this.jtab.fill(null);
  }

  /** The block at pc (translating it if needed); may raise a fetch exception (throws TRAP). */
  private lookup(cpu: MipsCpu, pc: number): Block {
    const x = cpu.rmap[pc >>> 12]!;
    const pa = x >= 0 && (pc & 3) === 0 ? x | (pc & 0xfff) : this.fetchSlow(cpu, pc);
    const user = (cpu.status & SR_KUC) !== 0;
    const ck = (user ? 2 : 0) + (cpu.sink !== null ? 1 : 0);
    const page = this.caches[ck]![pa >>> 12]!;
    const b = page === null ? undefined : page[(pa & 0xfff) >>> 2];
    return b !== undefined && b.va === pc ? b : this.translate(cpu, pc, pa, user, ck);
  }

  run(cpu: MipsCpu, budget: number): number {
    const end = cpu.icount + budget;
    let dispatches = this.blockLimit;
    const regions = this.regionThreshold > 0 && dispatches === Infinity && cpu.sink === null && cpu.icount >= this.regionStart;
    const threshold = this.regionThreshold;
    cpu.trapped = false;
    cpu.codeStale = false;
    // Translated code returns -1 after an exception entry (regions never take one); the
    // interpreter and the fetch slow path throw TRAP, so throwTraps is switched on around them.
    cpu.throwTraps = true;
    let blk: Block | null = null;
    // The next dispatch runs a block even where a region starts (after a region's slow exit).
    let noRegion = false;
    const jtab = this.jtab;
    try {
      if (cpu.interruptPending()) cpu.takeInterrupt();
      cpu.irqCheck = false;
      cpu.throwTraps = false;
      for (;;) {
        const left = end - cpu.icount;
        if (left <= 0 || dispatches-- <= 0) break;
        if (blk === null && !cpu.delay) {
          cpu.throwTraps = true;
          blk = this.lookup(cpu, cpu.pc);
          cpu.throwTraps = false;
        }
        const rg: Region | null = blk === null ? null : blk.region;
        if (rg !== null && regions && !noRegion && rg.entryLen <= left) {
          // A region: runs until an exit, then continues at the exit's block (linked), at cpu.pc.
          const ex: LinkedExit = rg.exits[rg.fn(end)]!;
          const next = cpu.pc;
          noRegion = ex.slow;
          let nb: Block | null = ex.link;
          if (nb === null || nb.va !== next || cpu.rmap[next >>> 12] !== nb.pb) {
            const j: number = (next >>> 2) & (JTAB - 1);
            nb = jtab[j]!;
            if (nb === null || nb.va !== next || cpu.rmap[next >>> 12] !== nb.pb || nb.ck !== blk!.ck) {
              cpu.npc = (next + 4) >>> 0;
              cpu.throwTraps = true;
              nb = this.lookup(cpu, next);
              cpu.throwTraps = false;
              jtab[j] = nb;
            }
            ex.link = nb;
          }
          blk = nb;
          continue;
        }
        noRegion = false;
        if (blk === null || blk.len === 0 || blk.len > left) {
          cpu.throwTraps = true;
          if (!cpu.delay) cpu.npc = (cpu.pc + 4) >>> 0;
          step(cpu);
          cpu.throwTraps = false;
          blk = null;
        } else {
          if (++blk.hits >= threshold && regions && !blk.covered) {
            // Once: a block whose region cannot be built forms none later either.
            blk.covered = true;
            if (this.formRegion(cpu, blk)) continue;
          }
          let next = blk.fn!(end);
          if (next === -1) return STOP_EXCEPTION;
          if (next >= 0 && dispatches === Infinity) {
            // The hot path: follow links for as long as they exist and the next block fits,
            // stopping at a region's entry or at a block that becomes one.
            for (;;) {
              const nb: Block | null = next === blk.s1pc ? blk.s1 : next === blk.s2pc ? blk.s2 : null;
              if (nb === null || nb.va !== next || nb.len === 0 || nb.len > end - cpu.icount || cpu.rmap[next >>> 12] !== nb.pb) break;
              if (regions && (nb.region !== null || (nb.hits >= threshold - 1 && !nb.covered))) break;
              nb.hits++;
              blk = nb;
              next = nb.fn!(end);
              if (next < 0) {
                if (next === -1) return STOP_EXCEPTION;
                break;
              }
            }
          }
          if (next < 0) {
            // A slow exit (emit.ts, blockSlowExit): the block starting at the instruction that
            // left (looked up at the top of the loop) takes its slow path in place.
            next = SLOW_EXIT - next;
            cpu.pc = next;
            cpu.npc = (next + 4) >>> 0;
            noRegion = true;
            blk = null;
            continue;
          }
          cpu.pc = next;
          // Follow a link, or look the successor up and link it.
          let nb: Block | null = next === blk.s1pc ? blk.s1 : next === blk.s2pc ? blk.s2 : null;
          if (nb === null || nb.va !== next || cpu.rmap[next >>> 12] !== nb.pb) {
            const from = blk;
            if (!from.linkable) {
              cpu.npc = (next + 4) >>> 0;
              // A mode, translation or interrupt-state change may have happened: no link, and
              // look the next block up afresh after the interrupt check.
              blk = null;
              if (cpu.irqCheck) {
                cpu.irqCheck = false;
                if (cpu.interruptPending()) {
                  cpu.throwTraps = true;
                  cpu.takeInterrupt();
                }
              }
              continue;
            }
            const j: number = (next >>> 2) & (JTAB - 1);
            nb = jtab[j]!;
            if (nb === null || nb.va !== next || cpu.rmap[next >>> 12] !== nb.pb || nb.ck !== from.ck) {
              cpu.npc = (next + 4) >>> 0;
              cpu.throwTraps = true;
              nb = this.lookup(cpu, next);
              cpu.throwTraps = false;
              jtab[j] = nb;
            }
            if (from.va >= 0) {
              if (from.s1 === null || from.s1pc === next) {
                from.s1pc = next;
                from.s1 = nb;
              } else {
                from.s2pc = next;
                from.s2 = nb;
              }
            }
          }
          blk = nb;
          continue;
        }
        if (cpu.irqCheck) {
          cpu.irqCheck = false;
          if (cpu.interruptPending()) {
            cpu.throwTraps = true;
            cpu.takeInterrupt();
          }
        }
      }
    } catch (err) {
      if (err !== TRAP) throw err;
      return STOP_EXCEPTION;
    } finally {
      cpu.throwTraps = true;
      // Blocks leave npc stale while following links.
      if (!cpu.delay) cpu.npc = (cpu.pc + 4) >>> 0;
    }
    return STOP_BUDGET;
  }

  /** Fetch translation off the fast path: raises the fetch exception, or fills the map. */
  private fetchSlow(cpu: MipsCpu, pc: number): number {
    cpu.fetch(pc, 0);
    return cpu.rmap[pc >>> 12]! | (pc & 0xfff);
  }

  /** Compiles the region entered at blk (user mode, no sink) into blk.region; false if none. */
  private formRegion(cpu: MipsCpu, blk: Block): boolean {
    if ((cpu.status & SR_KUC) === 0 || cpu.sink !== null || blk.va < 0) return false;
    const x = cpu.rmap[blk.va >>> 12]!;
    if (x < 0) return false;
    const page = this.caches[2]![x >>> 12];
    if (!page) return false;
    // The blocks of this page that have run (translated blocks exist only for code that ran).
    const minHits = this.regionThreshold / REGION_NODE_SHARE;
    const ran = (a: number): BlockInfo | null => {
      const b = page[(a & 0xfff) >>> 2];
      return b !== undefined && b.va === a && b.len > 0 && (a === blk.va || b.hits >= minHits) ? this.scan(cpu, a, x | (a & 0xfff)) : null;
    };
    const code = buildRegion(blk.va, ran, cpu.mem.bx, cpu.mem.hx);
    if (code === null) return false;
    const f = new Function('cpu', 'r', 'u32', 'u16', 'u8', 'rm', 'wm', 'fpu', 'fgr', 'sink', ...HELPER_NAMES, code.src) as (...a: unknown[]) => BlockFn;
    const fn = f(cpu, cpu.r, cpu.mem.u32, cpu.mem.u16, cpu.mem.u8, cpu.rmap, cpu.wmap, cpu.fpu, cpu.fpu.fgr, null, ...HELPER_VALUES);
    // Prime the exit path: a call with no budget leaves at once through the common epilogue, so
    // that V8 has type feedback for it before the first real call. Otherwise the first call of a
    // hot loop is compiled on-stack (OSR) without it and deoptimises at its first exit, and every
    // later call enters that same OSR code and deoptimises again.
    const pc = cpu.pc;
    for (let k = 0; k < REGION_PRIME_CALLS; k++) fn(cpu.icount - 1);
    cpu.pc = pc;
    blk.region = new Region(fn, code.exits.map((e) => new LinkedExit(e)), code.entryLen);
    for (const a of code.pcs) {
      const b = page[(a & 0xfff) >>> 2];
      if (b !== undefined && b.va === a) b.covered = true;
    }
    this.regions++;
    return true;
  }


  /**
   * Decodes the superblock at pc (physical pa): straight-line code through forward conditional
   * branches (side exits), up to a final branch and its delay slot, all on one page.
   */
  private scan(cpu: MipsCpu, pc: number, pa: number): BlockInfo {
    const mem = cpu.mem;
    const insns: Insn[] = [];
    const exits: number[] = [];
    let kind: BlockKind = 'fall';
    for (let k = 0; k < MAX_BLOCK; k++) {
      const off = (pa & 0xfff) + 4 * k;
      if (off >= 4096) break;
      const i = decode(mem.u32[(pa + 4 * k) >>> 2]!);
      if (i.spec?.delaySlot) {
        // The branch and its delay slot go together, on the same page, the delay slot not itself a
        // branch or a block-ending instruction; otherwise the interpreter takes over at the branch.
        if (off + 4 >= 4096) break;
        const d = decode(mem.u32[(pa + 4 * k + 4) >>> 2]!);
        if ((d.spec?.delaySlot ?? false) || endsAfter(d)) break;
        insns.push(i, d);
        const s = i.spec;
        const forward = s.cls === 'branch' && s.flow === 'branch' && i.simm >= 0;
        if (forward && exits.length < MAX_EXITS && off + 8 < 4096 && k + 2 < MAX_BLOCK) {
          exits.push(k);
          k++;
          continue;
        }
        kind = 'branch';
        break;
      }
      insns.push(i);
      if (endsAfter(i)) {
        kind = 'end';
        break;
      }
    }
    // A trailing side exit is just the final branch.
    if (kind === 'fall' && exits.length > 0 && exits[exits.length - 1] === insns.length - 2) {
      exits.pop();
      kind = 'branch';
    }
    let selfLoop = false;
    if (kind === 'branch') {
      const n = insns.length;
      const b = insns[n - 2]!;
      selfLoop = b.spec!.cls === 'branch' && ((pc + 4 * (n - 2) + 4 + (b.simm << 2)) >>> 0) === pc;
    }
    return { pc, insns, kind, exits, selfLoop };
  }

  private translate(cpu: MipsCpu, pc: number, pa: number, user: boolean, ck: number): Block {
    const mem = cpu.mem;
    const cache = this.caches[ck]!;
    const ppn = pa >>> 12;
    const info = this.scan(cpu, pc, pa);
    const n = info.insns.length;
    const blk = new Block(pc, n, n > 0 ? this.compile(cpu, info, user) : null, info.kind !== 'end', pa & ~0xfff, ck);
    let page = cache[ppn]!;
    if (page === null) page = cache[ppn] = new Array<Block | undefined>(1024);
    const old = page[(pa & 0xfff) >>> 2];
    if (old !== undefined) old.va = -1;
    page[(pa & 0xfff) >>> 2] = blk;
    if (n > 0) {
      this.blocks++;
      if (mem.codePage[ppn] === 0) {
        mem.codePage[ppn] = 1;
        cpu.protectCodePage(ppn);
      }
    }
    return blk;
  }

  private compile(cpu: MipsCpu, b: BlockInfo, user: boolean): BlockFn {
    const hooked = cpu.sink !== null;
    // The key holds every input of the generated source: what the scan decided (the words, kind
    // and side exits, at this pc) and the emitter's parameters.
    const key = this.jit === null ? '' : `${user ? 1 : 0}${hooked ? 1 : 0}${cpu.mem.bx}${cpu.mem.hx} ${b.pc} ${b.kind} ${b.exits.join(',')} ${b.insns.map((i) => i.word).join(',')}`;
    let f = this.jit === null ? undefined : (this.jit.get(key) as ((...a: unknown[]) => BlockFn) | undefined);
    if (f === undefined) {
      const e = new Emitter(user, hooked, cpu.mem.bx, cpu.mem.hx);
      emitBlock(e, b);
      const src = `return function blk_${(b.pc >>> 0).toString(16)}(end) {\n${e.out.join('\n')}\n};`;
      f = (this.jit === null ? new Function(...FACTORY_PARAMS, src) : this.jit.add(key, src)) as (...a: unknown[]) => BlockFn;
    }
    return f(cpu, cpu.r, cpu.mem.u32, cpu.mem.u16, cpu.mem.u8, cpu.rmap, cpu.wmap, cpu.fpu, cpu.fpu.fgr, cpu.sink, ...HELPER_VALUES);
  }
}
