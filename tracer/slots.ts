/**
 * Stack slots treated as registers (mazieres-smith-1994 2.2.4, footnote 7): a word the function
 * stores into its own frame and loads back (a spilled pointer, a saved argument) is a value
 * regeneration can carry itself, so the load need not be recorded.
 *
 * A slot is a word at a constant offset from the stack pointer the function was entered with,
 * found through the reaching definitions (every definition of the base register is the entry
 * stack pointer plus a constant). The function's frame may be tracked only when no address into
 * it escapes: every use of a stack-derived value is the base of a load or store or the source of
 * another stack-derived value, and none reaches a call, a return or an exit in a register other
 * than the stack pointer itself. Excluded: the caller's frame (offsets >= 0), the areas a callee
 * or the kernel may write below a stack pointer the function runs with (o32's 16-byte argument
 * home area; SPARC's 64-byte window save area, the struct-return word and the 24-byte argument
 * home area), and any slot also accessed other than as a whole word.
 */
import type { Cfg } from './cfg.js';
import { Dataflow, State } from './dataflow.js';
import type { Decoded, Isa } from './isa.js';

/** Canonical register numbers of slots: SLOT_BASE + offset / 4 + SLOT_BIAS. */
export const SLOT_BASE = 1 << 20;
export const SLOT_BIAS = 1 << 16;

export function slotReg(offset: number): number {
  return SLOT_BASE + SLOT_BIAS + offset / 4;
}
export function slotOffset(reg: number): number {
  return (reg - SLOT_BASE - SLOT_BIAS) * 4;
}

export interface SlotAccess {
  slot: number;
  kind: 'load' | 'store';
  /** The register loaded or stored. */
  reg: number;
}

/** What the analysis found about a function's frame. */
export interface FrameInfo {
  /** Tracked slot accesses by instruction address (empty when the frame escapes). */
  slots: Map<number, SlotAccess>;
  /** An address into the frame escapes (no slot is tracked). */
  escaped: boolean;
  /** Loads based on the entry stack pointer plus a constant: address -> offset from it. */
  stackLoads: Map<number, number>;
  /**
   * The canonical registers that may hold a stack-derived value: the analysis reads the reaching
   * definitions of no other register but the stack pointer's (at its window's depth).
   */
  live: ReadonlySet<number>;
}

/** The tracked slots of a function (none when its frame escapes) and its loads from the stack. */
export function analyzeFrame(cfg: Cfg, isa: Isa, df: Dataflow): FrameInfo {
  const out = new Map<number, SlotAccess>();
  const stackLoads = new Map<number, number>();
  if (df.degraded) return { slots: out, escaped: true, stackLoads, live: new Set() };
  const spEntry = isa.canon(isa.SP, 0);
  // Stack-derived value of a site's definition of a register: entry sp + delta, or undefined.
  // Memo by site, then register (null: not stack-derived, or being computed).
  const memo: (Map<number, number | null> | undefined)[] = [];
  // The registers that may hold a stack-derived value (`live`), and per site whether its
  // definitions may be (kind 2) or never are (kind 1), whatever the register and the depth: the
  // least set holding the entry stack pointer and the registers defined by an operation that
  // adds, subtracts or or-s a constant to a register of the set (the start's entry site is kind
  // 2; every other entry, call and instruction kind 1). deltaOfSite gives undefined for a kind 1
  // site at once (it would, memoizing only answers that are undefined in any order), and a
  // register outside the set has no definition that is stack-derived.
  const kind = new Uint8Array(df.sites.length).fill(1);
  const live = new Set<number>([spEntry]);
  {
    const ops: { id: number; a: number }[] = [];
    const sites = df.sites;
    for (let si = 0; si < sites.length; si++) {
      const site = sites[si]!;
      if (site.kind === 'entry') {
        if (site.block === 0) kind[site.id] = 2;
        continue;
      }
      if (!site.insn || (site.kind !== 'insn' && site.kind !== 'ds')) continue;
      // computeOf gives the instruction's own computation, a slot's move (or) or a read-only
      // load (ldro): without a tracked slot at it, only its own can be one of those operations.
      const own = site.insn.compute;
      if (!df.opts.slots?.has(site.insn.addr) && !(own && (own.op === 'add' || own.op === 'sub' || own.op === 'or' || own.op === 'save' || own.op === 'restore'))) continue;
      const c = df.computeOf(site.insn);
      if (c && (c.op === 'add' || c.op === 'sub' || c.op === 'or' || c.op === 'save' || c.op === 'restore') && c.a && 'r' in c.a && c.b && 'k' in c.b) {
        ops.push({ id: site.id, a: isa.canon(c.a.r, site.depth) });
      }
    }
    for (let changed = true; changed;) {
      changed = false;
      for (let k = 0; k < ops.length; k++) {
        const o = ops[k]!;
        if (kind[o.id] === 2 || !live.has(o.a)) continue;
        kind[o.id] = 2;
        const regs = sites[o.id]!.regs;
        for (let j = 0; j < regs.length; j++) live.add(regs[j]!);
        changed = true;
      }
    }
  }
  const deltaOfSite = (id: number, r: number, depth: number): number | undefined => {
    if (kind[id] === 1) return undefined;
    let bySite = memo[id];
    if (!bySite) memo[id] = bySite = new Map();
    const m = bySite.get(r);
    if (m !== undefined) return m ?? undefined;
    if (depth > 30) return undefined;
    bySite.set(r, null);
    const site = df.sites[id]!;
    let v: number | undefined;
    // Only the start has the entry stack pointer. At another entry (a label, a non-local goto's
    // receiver) the stack pointer is unrelated to it, and every other register is defined there:
    // nothing is stack-derived on a path from it, so no tracked slot is accessed past it, and
    // what that code does with its addresses cannot reach a tracked slot's load.
    if (site.kind === 'entry') v = r === spEntry && site.block === 0 ? 0 : undefined;
    else if (site.insn && (site.kind === 'insn' || site.kind === 'ds')) {
      const c = df.computeOf(site.insn);
      if (c && (c.op === 'add' || c.op === 'sub' || c.op === 'or' || c.op === 'save' || c.op === 'restore') && c.a && 'r' in c.a && c.b && 'k' in c.b) {
        const b = cfg.blocks[site.block]!;
        const st = site.kind === 'insn' ? df.stateAt(b, site.index) : df.stateAt(b, b.insns.length);
        const a = deltaOf(st, isa.canon(c.a.r, site.depth), depth + 1);
        if (a !== undefined && !(c.op === 'or' && c.b.k !== 0)) v = c.op === 'sub' ? a - c.b.k : a + c.b.k;
      }
    }
    bySite.set(r, v ?? null);
    return v;
  };
  const deltaOfDefs = (defs: readonly number[], r: number, depth: number): number | undefined => {
    if (defs.length === 0) return r === spEntry ? 0 : undefined;
    let v: number | undefined;
    for (let k = 0; k < defs.length; k++) {
      const d = deltaOfSite(defs[k]!, r, depth);
      if (d === undefined) return undefined;
      if (v === undefined) v = d;
      else if (v !== d) return undefined;
    }
    return v;
  };
  const deltaOf = (st: State, r: number, depth: number): number | undefined => deltaOfDefs(df.reaching(st, r), r, depth);
  /** deltaOf at depth 0. */
  const delta0 = (st: State, r: number): number | undefined => (live.has(r) ? deltaOfDefs(df.reaching(st, r), r, 0) : undefined);
  /** True when a definition in `defs` of register r is stack-derived (r is the stack pointer on entry when none). */
  const someDerived = (defs: readonly number[], r: number): boolean => {
    if (!live.has(r)) return false;
    if (defs.length === 0) return r === spEntry;
    for (let k = 0; k < defs.length; k++) {
      const id = defs[k]!;
      if (kind[id] === 1 || deltaOfSite(id, r, 0) === undefined) continue;
      return true;
    }
    return false;
  };

  const singles: (readonly number[] | undefined)[] = [];
  /**
   * Site `id`'s definitions over `st` (as Dataflow defines them: each register reached by that one
   * site), of the registers in `live` only: the walk asks `st` about no other register. True when
   * it defined one.
   */
  const define = (st: State, id: number): boolean => {
    const regs = df.sites[id]!.regs;
    if (regs.length === 0) return false;
    const one = (singles[id] ??= [id]);
    let any = false;
    for (let k = 0; k < regs.length; k++) {
      if (!live.has(regs[k]!)) continue;
      st.define(regs[k]!, one);
      any = true;
    }
    return any;
  };

  const spDeltas = new Set<number>();
  interface Acc { addr: number; off: number; size: number; kind: 'load' | 'store'; reg: number }
  const accs: Acc[] = [];
  let escaped = false;
  const lastSp: { defs: readonly number[] | undefined; r: number } = { defs: undefined, r: -1 };
  /** `sp`: the stack pointer's definitions may differ from the last instruction's (spDeltas). */
  const visit = (st: State, insn: NonNullable<Cfg['blocks'][number]['ds']>, depth: number, sp: boolean): void => {
    const m = insn.mem;
    const uses = insn.uses;
    for (let k = 0; k < uses.length; k++) {
      const u = uses[k]!;
      if (u === 0) continue;
      const cu = isa.canon(u, depth);
      if (!live.has(cu) || !someDerived(df.reaching(st, cu), cu)) continue;
      // Allowed: the base of a memory access; the source of another stack-derived value.
      if (m && u === m.base && !(m.kind === 'store' && isStoredValue(insn, u))) continue;
      const c = df.computeOf(insn);
      if (c && c.a && 'r' in c.a && c.a.r === u && c.b && 'k' in c.b && (c.op === 'add' || c.op === 'sub' || (c.op === 'or' && c.b.k === 0) || c.op === 'save' || c.op === 'restore')) continue;
      escaped = true;
    }
    if (m && m.index === undefined) {
      const d = delta0(st, isa.canon(m.base, depth));
      if (d !== undefined) accs.push({ addr: insn.addr, off: d + m.offset, size: m.size, kind: m.kind === 'load' ? 'load' : 'store', reg: m.kind === 'load' ? insn.defs[0] ?? 0 : storedReg(insn) });
    }
    // The stack pointer's definitions change at its definitions only (and its canonical name at
    // a window's change): the same list as at the instruction before gives the same delta (the
    // calls made for it at depth 0 memoized theirs).
    if (!sp) return;
    const spr = isa.canon(isa.SP, depth);
    const spDefs = df.reaching(st, spr);
    if (spDefs !== lastSp.defs || spr !== lastSp.r) {
      lastSp.defs = spDefs;
      lastSp.r = spr;
      const sd = live.has(spr) ? deltaOfDefs(spDefs, spr, 0) : undefined;
      if (sd !== undefined) spDeltas.add(sd);
    }
  };
  // The walk keeps one State per block, defined over instruction by instruction (the reaching
  // definitions before each instruction, as df.stateAt gives them, without a State per point).
  const canon = isa.canon;
  const blocks = cfg.blocks;
  for (let bi = 0; bi < blocks.length; bi++) {
    const b = blocks[bi]!;
    if (Number.isNaN(df.depthIn[b.id]!)) continue;
    let d = df.depthIn[b.id]!;
    const start = df.stateAt(b, 0);
    const st = new State(start.base, start.implicit);
    const sites = df.insnSite[b.id]!;
    const insns = b.insns;
    // sp: an instruction before defined a register of `live` or moved the window (at the block's
    // start: the first instruction).
    let sp = true;
    for (let i = 0; i < insns.length; i++) {
      const insn = insns[i]!;
      // visit does nothing unless it is to look the stack pointer up, or the instruction reads a
      // register of `live` (its uses, or its memory reference's base).
      let touch = sp || (insn.mem !== undefined && insn.mem.index === undefined && live.has(canon(insn.mem.base, d)));
      const uses = insn.uses;
      for (let k = 0; !touch && k < uses.length; k++) touch = uses[k] !== 0 && live.has(canon(uses[k]!, d));
      if (touch) visit(st, insn, d, sp);
      const w = df.win(insn);
      sp = define(st, sites[i]!) || w !== 0;
      d += w;
    }
    if (b.ds) visit(st, b.ds, d, sp);
    // The state after the delay slot (edges that execute it), made on first use.
    let afterDs: State | undefined;
    const dsSite = df.dsSite[b.id];
    // Nothing stack-derived but the stack pointer may reach a call or leave the function.
    const leavesAll = b.term === 'call' || b.term === 'icall';
    for (let ei = 0; ei < b.succ.length; ei++) {
      const e = b.succ[ei]!;
      const to = blocks[e.to]!;
      if (!(leavesAll || to.term === 'exit' || to.term === 'tail')) continue;
      let es = st;
      if (e.ds && dsSite !== undefined) {
        if (!afterDs) {
          afterDs = st.copy();
          define(afterDs, dsSite);
        }
        es = afterDs;
      }
      const dd = d + (e.ds && b.ds ? df.win(b.ds) : 0);
      // Registers the callee or the caller sees: MIPS all but sp; SPARC the globals and the
      // %o registers of the window control is in (%sp excepted).
      const visible = (r: number): boolean => {
        if (r >= SLOT_BASE) return false;
        const { reg, depth } = isa.uncanon(r);
        if (isa.name === 'mips') return reg !== isa.SP;
        return reg < 8 || (reg >= 8 && reg < 16 && reg !== isa.SP && depth === dd);
      };
      es.forEachExplicit((r) => {
        if (!live.has(r) || !visible(r)) return;
        const set = es.get(r);
        if (set.length > 0 && someDerived(set, r)) escaped = true;
      });
    }
  }
  for (const a of accs) if (a.kind === 'load') stackLoads.set(a.addr, a.off);
  if (escaped) return { slots: out, escaped, stackLoads, live };
  const guard = isa.name === 'mips' ? 16 : 92;
  const bad = new Set<number>();
  const word = (a: Acc): boolean => a.size === 4 && (a.off & 3) === 0 && a.off < 0 && a.reg !== 0;
  for (const a of accs) {
    const inGuard = [...spDeltas].some((sd) => a.off + a.size > sd && a.off < sd + guard);
    if (!word(a) || inGuard) for (let o = a.off & ~3; o < a.off + a.size; o += 4) bad.add(o);
  }
  for (const a of accs) {
    if (!word(a) || bad.has(a.off)) continue;
    out.set(a.addr, { slot: slotReg(a.off), kind: a.kind, reg: a.reg });
  }
  return { slots: out, escaped, stackLoads, live };
}

/** The register a store writes to memory. */
function storedReg(insn: { uses: number[]; mem?: { base: number; index?: number } }): number {
  const others = insn.uses.filter((u) => u !== insn.mem!.base && u !== insn.mem!.index);
  return others[0] ?? (insn.uses.length === 1 && insn.uses[0] === insn.mem!.base ? insn.mem!.base : 0);
}

function isStoredValue(insn: { uses: number[]; mem?: { base: number; index?: number; kind: string } }, u: number): boolean {
  return insn.mem?.kind === 'store' && storedReg(insn) === u;
}

/**
 * The function's dataflow with its stack slots tracked (analyzeFrame's, from the dataflow `df0`
 * without slots), or undefined when none can be: a tracked slot must be written by the function
 * before every load of it (never live on entry, never clobbered by a call), so slots some load
 * reads from elsewhere are dropped until every remaining one passes (from `slots`, which loses
 * them). `first`: df0.withSlots(slots), when the caller has it.
 */
export function trackedSlots(cfg: Cfg, isa: Isa, df0: Dataflow, slots = analyzeFrame(cfg, isa, df0).slots, first?: Dataflow): Dataflow | undefined {
  while (slots.size > 0) {
    const df = first ?? df0.withSlots(slots);
    first = undefined;
    const bad = new Set<number>();
    for (const b of cfg.blocks) {
      if (Number.isNaN(df.depthIn[b.id]!)) continue;
      const check = (insn: Decoded, st: State): void => {
        const sl = slots.get(insn.addr);
        if (sl?.kind !== 'load') return;
        const defs = df.reaching(st, sl.slot);
        if (defs.length === 0 || defs.some((id) => df.sites[id]!.kind !== 'insn' && df.sites[id]!.kind !== 'ds')) bad.add(sl.slot);
      };
      b.insns.forEach((insn, i) => check(insn, df.stateAt(b, i)));
      if (b.ds) check(b.ds, df.stateAt(b, b.insns.length));
    }
    if (bad.size === 0) return df;
    for (const [a, sl] of slots) if (bad.has(sl.slot)) slots.delete(a);
  }
  return undefined;
}
