/**
 * Reaching definitions over one function's CFG (larus-1990 4.1.1), on canonical registers
 * (tracer/isa.ts: SPARC window registers renamed by window depth), and constant evaluation over
 * them (jump tables, code addresses formed in code).
 *
 * Definition sites:
 *   - 'insn'  a body instruction (block, index);
 *   - 'ds'    the delay slot of a block, which takes effect on the out-edges it executes on;
 *   - 'call'  the effect of a call on the caller's registers (the callee clobbers the
 *             caller-saved registers, and in the no-carry mode the stack pointer too), on the
 *             call's return edge after the delay slot; of those, `returned` are the ones the
 *             callee's own regeneration leaves known (its return value: DataflowOptions.returned);
 *   - 'entry' an entry of the function defines every register it receives from outside
 *             (`carried` registers excepted: regeneration already knows them). An entry other
 *             than the function's start (a label reached by an indirect jump, a non-local goto,
 *             a call) also reaches the carried registers: regeneration knows their values there
 *             (`knows`), but not how they relate to the values on the paths inside the function
 *             (after `__builtin_longjmp` the stack pointer is the buffer's, not the one at the
 *             call that left the function).
 * A state maps a register to the set of sites whose definition may reach; registers absent from
 * the map are reached by the `implicit` entry sites.
 */
import type { Block, Cfg, Edge } from './cfg.js';
import type { Decoded, Isa } from './isa.js';
import { evalOp } from './semantics.js';
import { solveStartStates, type ExplicitSets, type StartState } from './reaching.js';

export type SiteKind = 'insn' | 'ds' | 'call' | 'entry';

export interface Site {
  id: number;
  kind: SiteKind;
  block: number;
  /** Body index ('insn'), -1 otherwise. */
  index: number;
  insn?: Decoded;
  /** Canonical registers defined (entry sites: none listed, they define everything). */
  regs: number[];
  /** Window depth the site's instruction executes at (its sources are read at this depth). */
  depth: number;
  /** 'call': the canonical registers of `regs` regeneration knows after the call without a record. */
  returned?: number[];
}

/**
 * The reaching definitions at a point: a base (the start state of a block: its in-state after its
 * entry definitions, tracer/reaching.ts) overlaid with the registers defined since (body
 * instructions, the delay slot, the call effect). A set of sites is a list of distinct site ids in
 * ascending order. States share their base and lists with the solution and with each other:
 * callers only read them (readonly), and none changes once made.
 */
export class State {
  /** Registers defined since `base`, each reached by that one site only (made on the first: most States define none). */
  private over: Map<number, readonly number[]> | undefined;

  constructor(
    readonly base: ExplicitSets,
    /** The sites reaching every register with no entry of its own. */
    readonly implicit: readonly number[],
  ) {}

  /** The sites whose definition of canonical register r reaches this point. */
  get(r: number): readonly number[] {
    const o = this.over;
    if (o !== undefined) {
      const set = o.get(r);
      if (set !== undefined) return set;
    }
    return this.base.get(r) ?? this.implicit;
  }

  /** Defines canonical register r over this State, reached by `set` only (only its maker does, before handing it out). */
  define(r: number, set: readonly number[]): void {
    (this.over ??= new Map()).set(r, set);
  }

  /** A State with the same sites for every register, which the caller may define over. */
  copy(): State {
    const c = new State(this.base, this.implicit);
    this.over?.forEach((set, r) => c.define(r, set));
    return c;
  }

  /** True when canonical register r has an entry of its own (explicit). */
  has(r: number): boolean {
    return this.over?.has(r) === true || this.base.has(r);
  }

  /** Calls f with the registers with an entry of their own (their sites: `get`): base order, then newly defined ones. */
  forEachExplicit(f: (r: number) => void): void {
    this.base.forEachReg(f);
    this.over?.forEach((_, r) => {
      if (!this.base.has(r)) f(r);
    });
  }
}

/**
 * A start state's explicit sets with the root entry's site taken out of the sets of `regs`
 * (Dataflow.withRootCarried); `fromRoot`: the root reaches the block, where those registers have an
 * entry of their own. Each set is made once (the same list for the same register).
 */
class RootCarriedSets implements ExplicitSets {
  private readonly sets = new Map<number, readonly number[]>();

  constructor(private readonly from: StartState, private readonly regs: ReadonlySet<number>, private readonly entry0: number, private readonly fromRoot: boolean) {}

  get(r: number): readonly number[] | undefined {
    const base = this.from.explicit;
    if (!this.regs.has(r)) return base.get(r);
    if (!this.fromRoot && !base.has(r)) return undefined;
    let set = this.sets.get(r);
    if (set === undefined) {
      const all = base.get(r) ?? this.from.implicit;
      const i = all.indexOf(this.entry0);
      set = i < 0 ? all : [...all.slice(0, i), ...all.slice(i + 1)];
      this.sets.set(r, set);
    }
    return set;
  }

  has(r: number): boolean {
    return this.from.explicit.has(r) || (this.fromRoot && this.regs.has(r));
  }

  forEachReg(f: (r: number) => void): void {
    const base = this.from.explicit;
    base.forEachReg(f);
    if (this.fromRoot) this.regs.forEach((r) => {
      if (!base.has(r)) f(r);
    });
  }
}

export interface DataflowOptions {
  /** Registers (architectural, at the entry's window) an entry does not define: regeneration carries them from the caller. */
  carried: readonly number[];
  /** Further registers the root entry does not define (every caller provides them). */
  rootCarried?: readonly number[];
  /** Stack slots tracked as registers (tracer/slots.ts), by instruction address. */
  slots?: ReadonlyMap<number, { slot: number; kind: 'load' | 'store'; reg: number }>;
  /** Registers (architectural) a call does not clobber: regeneration carries them across the call. */
  callPreserved: readonly number[];
  /**
   * Loads proven to read the original executable's read-only image (tracer/rodata.ts), by
   * instruction address: regeneration computes them (op `ldro`, from the address registers).
   */
  roLoads?: ReadonlySet<number>;
  /**
   * Direct calls (call block ids) whose callee's regeneration knows these registers (architectural,
   * as the caller sees them) at every return: the callee computes or records its return value
   * itself (tracer/interproc.ts), so the caller's cut takes it as known.
   */
  returned?: ReadonlyMap<number, readonly number[]>;
  /**
   * Direct calls (call block ids) whose callee, and everything it may call, never writes these
   * caller-saved registers (architectural): the call leaves them as they were (tracer/instrument.ts
   * callKeeps), so the definitions before the call reach past it.
   */
  callKeeps?: ReadonlyMap<number, readonly number[]>;
  /**
   * Direct calls (call block ids) of functions that never return (tracer/frequency.ts
   * noReturnCallees, strict): no execution passes their return edge, so what they define reaches
   * nothing that runs; `knows` takes it as known (vacuously: a value at a use comes from its other
   * definitions).
   */
  noReturn?: ReadonlySet<number>;
}

class DepthConflict extends Error {}

export class Dataflow {
  readonly sites: Site[];
  /** Window depth at the start of each block. */
  readonly depthIn: number[];
  /** Per block: the reaching definitions at its start, after its entry definitions (tracer/reaching.ts). */
  private startOf: (b: number) => StartState;
  /** Per site id: operands' answer. */
  private operandsOf: ({ state: State; regs: number[] } | undefined)[] = [];
  /** Per block, by body index: the states stateAt has handed out (shared by withReturned's copies, which reach the same). */
  private states: (State | undefined)[][] = [];
  /** Per edge: the state stateAfterDs has handed out (shared likewise). */
  private edgeStates: (State | undefined)[] = [];
  /** Per site: the set {site id} its definitions leave (shared by every state it reaches; made on first use). */
  private readonly single: (readonly number[] | undefined)[] = [];
  /** Body-instruction site ids per block. */
  readonly insnSite: number[][];
  readonly dsSite: (number | undefined)[];
  readonly callSite: (number | undefined)[];
  readonly entrySite: (number | undefined)[];
  /**
   * The window depth is not static (SPARC _longjmp pops a data-dependent number of windows):
   * every depth counts as 0, and save/restore define all window registers with unknown values.
   */
  degraded = false;

  /**
   * `from`: a dataflow of the same CFG and ISA whose options differ from `opts` in `slots` only
   * (withSlots): its depths and site numbering are this one's, only the sites of slot accesses
   * define other registers.
   */
  constructor(readonly cfg: Cfg, readonly isa: Isa, readonly opts: DataflowOptions, from?: Dataflow) {
    if (from) {
      this.depthIn = from.depthIn;
      this.degraded = from.degraded;
      this.insnSite = from.insnSite;
      this.dsSite = from.dsSite;
      this.callSite = from.callSite;
      this.entrySite = from.entrySite;
      const now = opts.slots;
      const before = from.opts.slots;
      this.sites = from.sites.map((site): Site => {
        const insn = site.insn;
        if (!insn || (!now?.has(insn.addr) && !before?.has(insn.addr))) return site;
        return { ...site, regs: this.defsOf(insn, site.depth) };
      });
      this.startOf = solveStartStates(this, (b) => this.carriedAt(b));
      return;
    }
    this.sites = [];
    const n = cfg.blocks.length;
    this.depthIn = new Array(n).fill(NaN);
    this.insnSite = cfg.blocks.map(() => []);
    this.dsSite = new Array(n).fill(undefined);
    this.callSite = new Array(n).fill(undefined);
    this.entrySite = new Array(n).fill(undefined);
    this.computeDepths();
    // What a call defines, by the depth after its delay slot, when it keeps no register (callKeeps):
    // one list for every such call (sites' lists are only read).
    const clobbered = new Map<number, number[]>();
    const blocks = cfg.blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi]!;
      let d = this.depthIn[b.id]!;
      if (Number.isNaN(d)) continue;
      if (b.entry) this.entrySite[b.id] = this.addSite({ id: this.sites.length, kind: 'entry', block: b.id, index: -1, regs: [], depth: d });
      const insns = b.insns;
      const row = this.insnSite[b.id]!;
      for (let i = 0; i < insns.length; i++) {
        const insn = insns[i]!;
        row.push(this.addSite({ id: this.sites.length, kind: 'insn', block: b.id, index: i, insn, regs: this.defsOf(insn, d), depth: d }));
        d += this.win(insn);
      }
      if (b.ds) this.dsSite[b.id] = this.addSite({ id: this.sites.length, kind: 'ds', block: b.id, index: -1, insn: b.ds, regs: this.defsOf(b.ds, d), depth: d });
      if (b.term === 'call' || b.term === 'icall') {
        const dd = d + (b.ds ? this.win(b.ds) : 0);
        const keeps = b.term === 'call' ? opts.callKeeps?.get(b.id) : undefined;
        let regs = keeps === undefined ? clobbered.get(dd) : undefined;
        if (regs === undefined) {
          const kept = keeps ?? [];
          regs = isa.callClobbers.filter((r) => !opts.callPreserved.includes(r) && !kept.includes(r)).map((r) => isa.canon(r, dd));
          if (keeps === undefined) clobbered.set(dd, regs);
        }
        const known = this.knownAfter(b.id, regs, dd, opts.returned);
        this.callSite[b.id] = this.addSite({ id: this.sites.length, kind: 'call', block: b.id, index: -1, regs, depth: dd, ...(known.length > 0 ? { returned: known } : {}) });
      }
    }
    this.startOf = solveStartStates(this, (b) => this.carriedAt(b));
  }

  /**
   * This dataflow with other stack slots tracked (DataflowOptions.slots), solved anew: the window
   * depths and the sites do not depend on the slots (a slot store defines its slot instead of
   * memory, a slot load reads it), so they are this one's but for the slot accesses' definitions.
   */
  withSlots(slots: DataflowOptions['slots']): Dataflow {
    const opts: DataflowOptions = { ...this.opts };
    if (slots) opts.slots = slots;
    else delete opts.slots;
    return new Dataflow(this.cfg, this.isa, opts, this);
  }

  /** The call's results (canonical, of `regs`) its callee's regeneration leaves known (DataflowOptions.returned). */
  private knownAfter(block: number, regs: readonly number[], depth: number, returned: DataflowOptions['returned']): number[] {
    if (this.cfg.blocks[block]!.term !== 'call') return [];
    return (returned?.get(block) ?? []).map((r) => this.isa.canon(r, depth)).filter((r) => regs.includes(r));
  }

  /**
   * This dataflow with other `returned` registers of calls (DataflowOptions.returned), sharing the
   * solution: they only mark a call site's results as known (Site.returned, read by `returns`),
   * the call site defines the same registers, so the same definitions reach everywhere.
   */
  withReturned(returned: DataflowOptions['returned']): Dataflow {
    const opts: DataflowOptions = { ...this.opts };
    if (returned) opts.returned = returned;
    else delete opts.returned;
    const sites = this.sites.map((site): Site => {
      if (site.kind !== 'call') return site;
      const { returned: _, ...rest } = site;
      const known = this.knownAfter(site.block, site.regs, site.depth, returned);
      return known.length > 0 ? { ...rest, returned: known } : rest;
    });
    return Object.assign(Object.create(Dataflow.prototype) as Dataflow, this, { opts, sites });
  }

  /**
   * This dataflow with the architectural registers `extra` carried at the root entry as well
   * (DataflowOptions.rootCarried: every caller provides them), without solving again. The root
   * entry then no longer defines them, and nothing else changes: a definition reaches a point
   * along the paths that do not redefine its register, whatever else is defined, so each set of
   * those registers is this one's without the root entry's site; they have an entry of their
   * own wherever the root reaches (a carried register has one at its entry, and it reaches on).
   * The sites and depths are this one's, the states are made afresh. Only for a dataflow whose
   * root entry defines `extra` (not carried already).
   */
  withRootCarried(extra: readonly number[]): Dataflow {
    const d = Object.assign(Object.create(Dataflow.prototype) as Dataflow, this);
    (d as { opts: DataflowOptions }).opts = { ...this.opts, rootCarried: [...(this.opts.rootCarried ?? []), ...extra] };
    d.operandsOf = [];
    d.states = [];
    d.edgeStates = [];
    d.carriedOf = [];
    const entry0 = this.entrySite[0];
    if (entry0 === undefined || extra.length === 0) return d;
    const regs = new Set(extra.map((r) => this.isa.canon(r, this.depthIn[0]!)));
    // The blocks the root reaches (the solve's edges: not into EXIT).
    const blocks = this.cfg.blocks;
    const fromRoot = new Uint8Array(blocks.length);
    const work = [0];
    fromRoot[0] = 1;
    while (work.length > 0) {
      const succ = blocks[work.pop()!]!.succ;
      for (let k = 0; k < succ.length; k++) {
        const t = succ[k]!.to;
        if (fromRoot[t] === 1 || blocks[t]!.term === 'exit' || Number.isNaN(this.depthIn[t]!)) continue;
        fromRoot[t] = 1;
        work.push(t);
      }
    }
    const base = this.startOf;
    const starts: (StartState | undefined)[] = [];
    d.startOf = (b: number): StartState => {
      let st = starts[b];
      if (!st) {
        const from = base(b);
        st = starts[b] = { explicit: new RootCarriedSets(from, regs, entry0, fromRoot[b] === 1 && !Number.isNaN(this.depthIn[b]!)), implicit: from.implicit };
      }
      return st;
    };
    return d;
  }

  /** Adds a site (its `id` is its index) and returns its id. */
  private addSite(s: Site): number {
    this.sites.push(s);
    return s.id;
  }

  /** Window motion of an instruction as the analysis counts it. */
  win(insn: Decoded): number {
    return this.degraded ? 0 : insn.window;
  }

  /** True when r is a call's result its callee's regeneration leaves known (DataflowOptions.returned). */
  returns(site: Site, r: number): boolean {
    return site.kind === 'call' && site.returned !== undefined && site.returned.includes(r);
  }

  /**
   * True when regeneration knows the value site `site` gives canonical register r without a
   * record: a call's returned result, a carried register at an entry other than the start, or
   * anything a call that never returns defines (noReturn).
   */
  knows(site: Site, r: number): boolean {
    return this.returns(site, r) || (site.kind === 'entry' && site.block !== 0 && this.carriedAt(site.block).includes(r))
      || (site.kind === 'call' && this.opts.noReturn?.has(site.block) === true);
  }

  /** Per entry block: carriedAt's list (made on first use). */
  private carriedOf: (number[] | undefined)[] = [];

  /** The carried registers (canonical) at entry block b (the same list for the same block: read only). */
  private carriedAt(b: number): number[] {
    const known = this.carriedOf[b];
    if (known) return known;
    const regs = b === 0 && this.opts.rootCarried ? [...this.opts.carried, ...this.opts.rootCarried] : this.opts.carried;
    return (this.carriedOf[b] = regs.map((r) => this.isa.canon(r, this.depthIn[b]!)));
  }

  /**
   * The operands of a computing site (an 'insn' or 'ds' site with a computation): the state they
   * are read in and their canonical registers (the zero register left out). Made once per site (the
   * same object each time: read only; shared by withReturned's copies, whose states are the same).
   */
  operands(site: Site): { state: State; regs: number[] } {
    const known = this.operandsOf[site.id];
    if (known) return known;
    const c = this.computeOf(site.insn!)!;
    const b = this.cfg.blocks[site.block]!;
    const state = site.kind === 'insn' ? this.stateAt(b, site.index) : this.stateAt(b, b.insns.length);
    const regs: number[] = [];
    const { a, b: bx, extra } = c;
    if (a && 'r' in a && a.r !== 0) regs.push(this.isa.canon(a.r, site.depth));
    if (bx && 'r' in bx && bx.r !== 0) regs.push(this.isa.canon(bx.r, site.depth));
    if (extra) for (const x of extra) regs.push(this.isa.canon(x, site.depth));
    return (this.operandsOf[site.id] = { state, regs });
  }

  /** True when the site computes canonical register r (it is among the operation's results). */
  computes(site: Site, r: number): boolean {
    const c = site.insn && (site.kind === 'insn' || site.kind === 'ds') ? this.computeOf(site.insn) : undefined;
    if (!c) return false;
    const dd = site.depth + this.win(site.insn!);
    const d = c.d;
    for (let k = 0; k < d.length; k++) {
      const x = d[k]!;
      if ((x >= 32 && x < 200) || x >= (1 << 20) ? x === r : this.isa.canon(x, dd) === r) return true;
    }
    return false;
  }

  /** The instruction's computation, when the analysis may use it. */
  computeOf(insn: Decoded): Decoded['compute'] {
    const sl = this.opts.slots?.get(insn.addr);
    if (sl || (insn.mem && this.opts.roLoads?.has(insn.addr))) {
      let c = this.computed.get(insn.addr);
      if (!c) this.computed.set(insn.addr, (c = this.rewritten(insn, sl)));
      return c;
    }
    return this.degraded && insn.window !== 0 ? undefined : insn.compute;
  }

  /** Per instruction address: the computation rewritten for a tracked slot or a read-only load (the same object each time: read only). */
  private readonly computed = new Map<number, NonNullable<Decoded['compute']>>();

  private rewritten(insn: Decoded, sl: { slot: number; kind: 'load' | 'store'; reg: number } | undefined): NonNullable<Decoded['compute']> {
    if (sl) {
      return sl.kind === 'load'
        ? { op: 'or', d: [sl.reg], a: { r: sl.slot }, b: { k: 0 } }
        : { op: 'or', d: [sl.slot], a: { r: sl.reg }, b: { k: 0 } };
    }
    const m = insn.mem!;
    return { op: 'ldro', d: [insn.defs[0]!], a: { r: m.base }, b: m.index !== undefined ? { r: m.index } : { k: m.offset } };
  }

  /** Canonical registers an instruction defines when it executes at depth d. */
  defsOf(insn: Decoded, d: number): number[] {
    if (this.degraded && insn.window !== 0) {
      const all: number[] = [];
      for (let r = 8; r < 32; r++) all.push(this.isa.canon(r, 0));
      return all;
    }
    const sl = this.opts.slots?.get(insn.addr);
    if (sl?.kind === 'store') return [sl.slot];
    // MIPS registers are their own canonical names: the instruction's list serves (read only, like sites' lists).
    if (!insn.syscall && this.isa.name === 'mips') return insn.defs;
    const defs = insn.syscall ? [...new Set([...insn.defs, ...this.isa.syscallDefs])] : insn.defs;
    const out = defs.map((r) => this.isa.canon(r, d + insn.window));
    // save gives the function a new window: its %o and %l registers hold nothing defined.
    if (insn.window === 1) for (let r = 8; r < 24; r++) out.push(this.isa.canon(r, d + 1));
    return out.length < 2 ? out : out.filter((r, i) => out.indexOf(r) === i);
  }

  usesOf(insn: Decoded, d: number): number[] {
    return insn.uses.map((r) => this.isa.canon(r, d));
  }

  private computeDepths(): void {
    try {
      this.propagateDepths();
    } catch (e) {
      if (!(e instanceof DepthConflict)) throw e;
      this.degraded = true;
      this.depthIn.fill(NaN);
      this.propagateDepths();
    }
  }

  private propagateDepths(): void {
    const blocks = this.cfg.blocks;
    const depthIn = this.depthIn;
    const degraded = this.degraded;
    const work: number[] = [];
    for (let bi = 0; bi < blocks.length; bi++) {
      if (blocks[bi]!.entry) {
        depthIn[bi] = 0;
        work.push(bi);
      }
    }
    while (work.length > 0) {
      const b = blocks[work.pop()!]!;
      let d = depthIn[b.id]!;
      // win(): the window motion, none when degraded.
      if (!degraded) for (let k = 0; k < b.insns.length; k++) d += b.insns[k]!.window;
      const succ = b.succ;
      for (let k = 0; k < succ.length; k++) {
        const e = succ[k]!;
        const to = e.to;
        const dd = d + (e.ds && b.ds && !degraded ? b.ds.window : 0);
        if (blocks[to]!.term === 'exit') continue;
        const old = depthIn[to]!;
        if (Number.isNaN(old)) {
          depthIn[to] = dd;
          work.push(to);
        } else if (old !== dd) {
          throw new DepthConflict();
        }
      }
    }
  }

  /** Applies a site's definitions. */
  private define(s: State, site: Site): void {
    let one = this.single[site.id];
    if (!one) this.single[site.id] = one = [site.id];
    const regs = site.regs;
    for (let k = 0; k < regs.length; k++) s.define(regs[k]!, one);
  }

  /** State at the start of a block after its entry definitions (a fresh State, nothing defined over it). */
  private startState(b: Block): State {
    const st = this.startOf(b.id);
    return new State(st.explicit, st.implicit);
  }

  /**
   * State before body instruction `index` of block b (index = insns.length: end of body): the same
   * State for the same point (callers only read it; the analyses ask for the same points about
   * three times each).
   */
  stateAt(b: Block, index: number): State {
    let row = this.states[b.id];
    if (!row) this.states[b.id] = row = [];
    let s = row[index];
    if (!s) row[index] = s = this.freshState(b, index);
    return s;
  }

  /**
   * A new State before body instruction `index` of block b, which the caller may define over: a
   * copy of the nearest state stateAt made at or before that point of the block (its registers in
   * the same order) with the instructions between defined over it, else the block's start state
   * with all of them.
   */
  private freshState(b: Block, index: number): State {
    const row = this.states[b.id];
    let from = index;
    while (from >= 0 && row?.[from] === undefined) from--;
    const s = from >= 0 ? row![from]!.copy() : this.startState(b);
    const sites = this.insnSite[b.id]!;
    for (let i = Math.max(from, 0); i < index; i++) this.define(s, this.sites[sites[i]!]!);
    return s;
  }

  /** State on an edge after its delay slot (before the call effect): the same State for the same edge (callers only read it). */
  stateAfterDs(e: Edge): State {
    let s = this.edgeStates[e.id];
    if (s) return s;
    const b = this.cfg.blocks[e.from]!;
    s = this.freshState(b, b.insns.length);
    const ds = this.dsSite[b.id];
    if (e.ds && ds !== undefined) this.define(s, this.sites[ds]!);
    this.edgeStates[e.id] = s;
    return s;
  }

  /** Sites whose definition of canonical register r reaches a state, in ascending order (the state's own list: read only). */
  reaching(s: State, r: number): readonly number[] {
    return s.get(r);
  }

  /** Architectural register of a canonical one at a site's depth (entry sites: depth 0). */
  arch(r: number): number {
    return this.isa.uncanon(r).reg;
  }

  /**
   * The constant value of canonical register r in state s, when every definition reaching it is
   * computable from constants (and they agree); undefined otherwise.
   */
  constValue(s: State, r: number, depth = 0, memo = new Map<number, number | null>()): number | undefined {
    if (this.isa.uncanon(r).reg === 0 && r < 32) return 0;
    if (depth > 24) return undefined;
    let v: number | undefined;
    for (const id of this.reaching(s, r)) {
      // (site, register) as one integer: canonical registers and site counts stay far below 2^26.
      const key = r * 67108864 + id;
      let x = memo.get(key);
      if (x === undefined) {
        memo.set(key, null);
        x = this.siteValue(this.sites[id]!, r, depth + 1, memo) ?? null;
        memo.set(key, x);
      }
      if (x === null) return undefined;
      if (v === undefined) v = x;
      else if (v !== x) return undefined;
    }
    return v;
  }

  private siteValue(site: Site, r: number, depth: number, memo: Map<number, number | null>): number | undefined {
    const c = site.insn ? this.computeOf(site.insn) : undefined;
    if (!c || site.kind === 'entry' || site.kind === 'call') return undefined;
    const idx = c.d.map((x) => this.isa.canon(x, site.depth + this.win(site.insn!))).indexOf(r);
    if (idx < 0) return undefined;
    const b = this.cfg.blocks[site.block]!;
    const before = site.kind === 'insn' ? this.stateAt(b, site.index) : this.stateAt(b, b.insns.length);
    const val = (src: { r: number } | { k: number } | undefined): number | undefined => {
      if (!src) return 0;
      if ('k' in src) return src.k;
      if (src.r === 0) return 0;
      return this.constValue(before, this.isa.canon(src.r, site.depth), depth, memo);
    };
    if (c.op === 'udiv' || c.op === 'sdiv' || c.op === 'div' || c.op === 'divu' || c.op === 'wry' || c.op === 'ldro') return undefined;
    const a = val(c.a);
    const bb = val(c.b);
    if (a === undefined || bb === undefined) return undefined;
    return evalOp(c.op, a, bb, 0)[idx];
  }
}
