/**
 * The fast engine: guest basic blocks translated into JavaScript functions (`new Function`),
 * cached by physical address and mode, and run by a dispatch loop that links blocks to their
 * successors on the same page.
 *
 * A block is the straight-line code from its start up to and including the first branch or jump
 * and its delay slot (Kane & Heinrich 5-4: the delay slot executes before the transfer), or up to
 * an instruction that must end a block (syscall, break, CP0 operations, ctc1, reserved
 * encodings), the end of the page, or MAX_BLOCK instructions. A block that branches back to its
 * own start is emitted as a JS loop that iterates while the budget allows another full pass.
 * (Multi-block functions were tried: V8 tiers large functions up so late that they ran slower.)
 *
 * Contracts:
 *   - State is the CPU's: generated code reads and writes cpu.r, the FGRs and memory directly, so
 *     an exception in the middle of a block leaves exactly the state of the instructions before it.
 *     Slow paths (cpu.lw & co., cpu.raise) receive info = (k << 1) | ds — k instructions of the
 *     block retired before this one — and add k to icount at the exception entry; the block then
 *     returns -1. A slow path called from a delay slot first sets cpu.npc to the branch's
 *     destination (excNextPC).
 *   - The budget: a block runs only if it fits in what remains; otherwise (and for a pending delay
 *     slot, or a branch whose delay slot lies on the next page) the reference interpreter steps.
 *   - Caches: one per (mode, sink on/off); the hooked translation calls the sink, the plain one
 *     contains no hook code. Keyed by physical address; a block also records its virtual start
 *     and is retranslated if reached at another address (its code embeds virtual pcs).
 *   - Links: a block remembers up to two successors on its own virtual page. They stay valid
 *     while the block is reached: the page's virtual-to-physical mapping is the one the block was
 *     looked up with. Blocks ending in a mode or translation change ('end' blocks) never link.
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
import { Emitter, emitBlock, endsAfter, type BlockInfo, type BlockKind } from './emit.js';
import { mulHi, step } from './interp.js';

/** Longest block translated (instructions). */
export const MAX_BLOCK = 128;
/** Most side exits (forward conditional branches followed along their fall-through) per block. */
export const MAX_EXITS = 6;

type BlockFn = (end: number) => number;

interface Block {
  /** Virtual address of the first instruction; -1 once the block is dropped. */
  va: number;
  /** Instructions per execution; 0: the interpreter executes the instruction at va. */
  len: number;
  fn: BlockFn | null;
  /** May link to successors (not an 'end' block). */
  linkable: boolean;
  /** Linked successors on the same page (pc and block), or -1/null. */
  s1pc: number;
  s1: Block | null;
  s2pc: number;
  s2: Block | null;
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
  }

  /** The block at pc (translating it if needed); may raise a fetch exception (throws TRAP). */
  private lookup(cpu: MipsCpu, pc: number): Block {
    const x = cpu.rmap[pc >>> 12]!;
    const pa = x >= 0 && (pc & 3) === 0 ? x | (pc & 0xfff) : this.fetchSlow(cpu, pc);
    const user = (cpu.status & SR_KUC) !== 0;
    const cache = this.caches[(user ? 2 : 0) + (cpu.sink !== null ? 1 : 0)]!;
    const page = cache[pa >>> 12]!;
    const b = page === null ? undefined : page[(pa & 0xfff) >>> 2];
    return b !== undefined && b.va === pc ? b : this.translate(cpu, pc, pa, user, cache);
  }

  run(cpu: MipsCpu, budget: number): number {
    const end = cpu.icount + budget;
    let dispatches = this.blockLimit;
    cpu.trapped = false;
    cpu.codeStale = false;
    // Translated blocks return -1 after an exception entry; the interpreter and the fetch slow
    // path throw TRAP, so throwTraps is switched on around them only.
    cpu.throwTraps = true;
    let blk: Block | null = null;
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
        if (blk === null || blk.len === 0 || blk.len > left) {
          cpu.throwTraps = true;
          if (!cpu.delay) cpu.npc = (cpu.pc + 4) >>> 0;
          step(cpu);
          cpu.throwTraps = false;
          blk = null;
        } else {
          let next = blk.fn!(end);
          if (next < 0) return STOP_EXCEPTION;
          if (dispatches === Infinity) {
            // The hot path: follow links for as long as they exist and the next block fits.
            for (;;) {
              const nb: Block | null = next === blk.s1pc ? blk.s1 : next === blk.s2pc ? blk.s2 : null;
              if (nb === null || nb.va !== next || nb.len === 0 || nb.len > end - cpu.icount) break;
              blk = nb;
              next = nb.fn!(end);
              if (next < 0) return STOP_EXCEPTION;
            }
          }
          cpu.pc = next;
          // Follow a link, or look the successor up and link it when it is on the same page.
          let nb: Block | null = next === blk.s1pc ? blk.s1 : next === blk.s2pc ? blk.s2 : null;
          if (nb === null || nb.va !== next) {
            const from = blk;
            cpu.npc = (next + 4) >>> 0;
            if (!from.linkable) {
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
            cpu.throwTraps = true;
            nb = this.lookup(cpu, next);
            cpu.throwTraps = false;
            if (((from.va ^ next) >>> 12) === 0 && from.va >= 0) {
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

  private translate(cpu: MipsCpu, pc: number, pa: number, user: boolean, cache: (PageCache | null)[]): Block {
    const mem = cpu.mem;
    const ppn = pa >>> 12;
    const info = this.scan(cpu, pc, pa);
    const n = info.insns.length;
    const blk: Block = {
      va: pc, len: n, fn: n > 0 ? this.compile(cpu, info, user) : null, linkable: info.kind !== 'end',
      s1pc: -1, s1: null, s2pc: -1, s2: null,
    };
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
    const e = new Emitter(user, cpu.sink !== null, cpu.mem.bx, cpu.mem.hx);
    emitBlock(e, b);
    const src = `return function blk_${(b.pc >>> 0).toString(16)}(end) {\n${e.out.join('\n')}\n};`;
    const f = new Function('cpu', 'r', 'u32', 'u16', 'u8', 'rm', 'wm', 'fpu', 'fgr', 'sink', 'mulHi', src) as (...a: unknown[]) => BlockFn;
    return f(cpu, cpu.r, cpu.mem.u32, cpu.mem.u16, cpu.mem.u8, cpu.rmap, cpu.wmap, cpu.fpu, cpu.fpu.fgr, cpu.sink, mulHi);
  }
}
