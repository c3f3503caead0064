/**
 * Bounds of a pointer that walks a table in lockstep with a counter (tracer/rodata.ts): cc1's
 * keyword loop starts p at the table and i at 0, steps p by 8 and i by 1 on every iteration,
 * and leaves when i reaches 43. Intervals alone cannot bound p (it grows on a cycle); the
 * relation p - 8i = T and the bounds of i can:
 *
 *   a forward analysis over the function's CFG keeps, at every point, the constant A with
 *   p ≡ A + β·i (mod 2^32) (β = p's step / i's step) when it is known, p's constant value when
 *   it is known, and an interval of i; `p += cp` adds cp to A, `i += ci` subtracts β·ci, a
 *   constant assigned to p or i gives A from the other's constant, anything else that defines
 *   p or i (a call that clobbers it, an entry, an operation not understood) forgets what it
 *   affects. A two-way branch that compares i with a constant (MIPS beq/bne with a register of
 *   constant value; SPARC `cmp i, K` or `cmp i, rK` then a Bicc in the same block, neither
 *   operand redefined between them) narrows i on each out-edge before the edge's delay slot.
 *   Joins keep A and p's constant when equal, and the hull of i's intervals; after a few visits a
 *   block's interval widens to the next comparison constant (K - 1, K, K + 1), else to nothing.
 *
 * Every definition of p and i in the function goes through the transfer, so the relation holds
 * on every path; what is not understood gives "unbounded", and the load stays recorded.
 *
 * Most loads ask about pairs the solve would leave unknown at the load: before solving, exact
 * pre-tests (forgotten, unknownOnEveryPath, unknowns) find most of those, and the solve is skipped.
 * The constants the analysis reads depend on the site and the register only (SiteValues), so its
 * answers depend on nothing but the load: what it skips, or the order it asks in, changes none.
 */
import type { Block, Cfg } from './cfg.js';
import type { Dataflow, Site, State } from './dataflow.js';
import type { Isa } from './isa.js';
import { findComparison, findShape, narrow, type Cmp, type Range, type Shape } from './comparisons.js';

export type { Range };

/** Per block: the body indices of the sites that define p or q, in order (Induction.relevant). */
interface Relevant {
  index: number[][];
}

/** Analysis state: A (p - β·i), p's constant, i's interval; null: unknown. */
interface IState {
  A: number | null;
  pc: number | null;
  i: Range | null;
}

const TWO32 = 2 ** 32;
const same = (x: number, y: number): boolean => ((x - y) % TWO32 + TWO32) % TWO32 === 0;


/**
 * Self-increments `r = r + c` of every canonical register r: r -> (site id -> c), each in site
 * order, from one pass over the sites. A site steps r when it defines r, computes it, and its
 * operation adds a constant to r read at the site's depth.
 */
function increments(df: Dataflow, isa: Isa): Map<number, Map<number, number>> {
  const out = new Map<number, Map<number, number>>();
  const { sites } = df;
  for (let k = 0; k < sites.length; k++) {
    const s = sites[k]!;
    if (s.kind !== 'insn' && s.kind !== 'ds') continue;
    const c = df.computeOf(s.insn!);
    if (!c || (c.op !== 'add' && c.op !== 'sub') || !c.a || !('r' in c.a) || !c.b || !('k' in c.b)) continue;
    const r = isa.canon(c.a.r, s.depth);
    if (!s.regs.includes(r) || !df.computes(s, r)) continue;
    let m = out.get(r);
    if (!m) out.set(r, (m = new Map()));
    m.set(s.id, c.op === 'add' ? c.b.k : -c.b.k);
  }
  return out;
}

const NONE: Map<number, number> = new Map();
const NO_SITES: readonly number[] = [];

/** What the analysis knows of the value a site gives a register (tracer/rodata.ts siteValues). */
export interface SiteValues {
  /**
   * The constant a non-increment site gives register r, when it is one: a function of the site
   * and the register only, whatever was asked before, so the analysis may ask it at any time, in
   * any order, or not at all.
   */
  constantOf(site: Site, r: number): number | undefined;
}

/** Bits of Induction.unknowns: the solve's state has A and p's constant unknown; i unknown; the block is reached. */
const NO_A = 1;
const NO_I = 2;
const REACHED = 4;

export class Induction {
  private readonly cache = new Map<string, (IState | undefined)[] | null>();
  private incs: Map<number, Map<number, number>> | undefined;
  private readonly cmps = new Map<number, (Cmp & { q: number }) | undefined>();
  private readonly inits = new Map<number, boolean>();
  private defs: Map<number, number[]> | undefined;
  private readonly rels = new Map<string, Relevant>();
  private counters: number[] | undefined;
  private readonly uncuts = new Map<number, Uint8Array>();
  private readonly unk = new Map<string, Uint8Array>();
  private readonly taints = new Map<number, Set<number>>();
  private readonly betaOf = new Map<string, number[]>();
  private readonly shapes = new Map<number, Shape | undefined>();
  /** Steps of canonical register r: site id -> c (never changed by the caller). */
  private inc(r: number): Map<number, number> {
    this.incs ??= increments(this.df, this.isa);
    return this.incs.get(r) ?? NONE;
  }

  constructor(readonly cfg: Cfg, readonly isa: Isa, readonly df: Dataflow, readonly values: SiteValues) {}

  /**
   * The range of canonical register p before body index `index` of block b, from a lockstep
   * counter, or undefined: the first the solves for the counters (compared, in order) and their
   * βs (betas, in order) give at that point.
   */
  range(b: Block, index: number, p: number): Range | undefined {
    const incP = this.inc(p);
    // A is only ever known after constants were assigned to both p and i.
    if (incP.size === 0 || !this.constantInit(p)) return undefined;
    const at = this.df.stateAt(b, index);
    // A unknown here whatever the counter and β.
    if (this.unknownOnEveryPath(at, p, incP)) return undefined;
    const counters = this.compared();
    for (let k = 0; k < counters.length; k++) {
      const q = counters[k]!;
      if (q === p || !this.constantInit(q)) continue;
      const incQ = this.inc(q);
      const betas = this.betas(p, q, incP, incQ);
      // The solves are not run for what they would find unknown here: i (forgotten,
      // unknownOnEveryPath), or A or i whatever β (unknownAt).
      if (betas.length === 0 || this.forgotten(at, q, incQ) || this.unknownOnEveryPath(at, q, incQ) || this.unknownAt(b, index, p, q, incP, incQ)) continue;
      for (let j = 0; j < betas.length; j++) {
        const beta = betas[j]!;
        const st = this.stateAt(b, index, p, q, incP, incQ, beta);
        if (!st || st.A === null || st.i === null) continue;
        const x = st.A + beta * st.i.lo;
        const z = st.A + beta * st.i.hi;
        const lo = Math.min(x, z);
        const hi = Math.max(x, z);
        if (Number.isSafeInteger(lo) && Number.isSafeInteger(hi) && hi - lo < TWO32) return { lo, hi };
      }
    }
    return undefined;
  }

  /**
   * β: one of p's steps over one of i's (every step goes through the transfer anyway), distinct,
   * in the order of p's steps then i's (cached per pair).
   */
  private betas(p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>): number[] {
    const key = `${p}:${q}`;
    let out = this.betaOf.get(key);
    if (out) return out;
    const stepsP = new Set(incP.values());
    const betas = new Set<number>();
    for (const cp of stepsP) for (const cq of incQ.values()) if (cp !== 0 && cq !== 0 && cp % cq === 0) betas.add(cp / cq);
    this.betaOf.set(key, (out = [...betas]));
    return out;
  }

  /**
   * True when i (counter q's interval) is unknown in state `st` on every solve for q: a definition
   * of q reaching `st` leaves it unknown, and the solve reaches that definition. Past it, the
   * path that brings it here defines q nowhere, so its states keep i unknown (only a constant
   * assigned to q makes it known, and a join with unknown is unknown), and with i unknown no
   * comparison cuts an edge of the path (narrowing). Such a definition: an entry (always reached);
   * a call that clobbers q, or a body instruction that is not a step of q and whose computation
   * the analysis may not use (a load: its value spans its width, constantOf gives nothing), in a
   * block `uncut` reaches; a delay slot so, of a block that compares no q (the narrowing on its
   * out-edges comes before the slot).
   */
  private forgotten(st: State, q: number, incQ: Map<number, number>): boolean {
    let reach: Uint8Array | undefined;
    const qdefs = st.get(q);
    for (let k = 0; k < qdefs.length; k++) {
      const id = qdefs[k]!;
      const site = this.df.sites[id]!;
      if (site.kind === 'entry') return true;
      if (site.kind === 'insn' || site.kind === 'ds') {
        if (incQ.has(id)) continue;
        const c = this.df.computeOf(site.insn!);
        if (c && this.df.computes(site, q) && c.op !== 'ldro') continue;
        if (site.kind === 'ds' && this.compares(this.cfg.blocks[site.block]!, q)) continue;
      }
      reach ??= this.uncut(q);
      if (reach[site.block]) return true;
    }
    return false;
  }

  /** True when, before body index `index` of block b, the solve for (p, q) leaves A or i unknown whatever β (unknowns). */
  private unknownAt(b: Block, index: number, p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>): boolean {
    let bits = this.unknowns(p, q, incP, incQ)[b.id]!;
    if ((bits & REACHED) === 0) return false;
    const idx = this.relevant(p, q).index[b.id]!;
    const sites = this.df.insnSite[b.id]!;
    for (let k = 0; k < idx.length && idx[k]! < index; k++) bits = this.unknownAfter(bits, this.df.sites[sites[idx[k]!]!]!, p, q, incP, incQ);
    return (bits & (NO_A | NO_I)) !== 0;
  }

  /**
   * True when, in state `st`, the solve leaves r's part unknown (A and p's constant for r = p; i
   * for r = q) on every path, whatever the other register: on every path the last definition of r
   * that is not a step is one that gives nothing (constantOf undefined: an entry, a call, a load,
   * an operation not understood), or there is none (the solve starts unknown at the
   * entries), and steps and the other register's definitions keep the part unknown (unknowns).
   * Those last definitions are the ones reaching `st` and, through steps, the ones reaching each
   * step that reaches (stepsAfterConstant).
   */
  private unknownOnEveryPath(st: State, r: number, inc: Map<number, number>): boolean {
    const tainted = this.stepsAfterConstant(r, inc);
    const rdefs = st.get(r);
    for (let k = 0; k < rdefs.length; k++) {
      const id = rdefs[k]!;
      if (inc.has(id) ? tainted.has(id) : this.givesConstant(id, r)) return false;
    }
    return true;
  }

  /** Whether site `id` (not a step of r) gives r a constant: not an entry, and constantOf not undefined. */
  private givesConstant(id: number, r: number): boolean {
    const site = this.df.sites[id]!;
    return site.kind !== 'entry' && this.values.constantOf(site, r) !== undefined;
  }

  /** The steps of r that a definition of r that gives a constant (givesConstant) reaches through steps only (cached). */
  private stepsAfterConstant(r: number, inc: Map<number, number>): Set<number> {
    let out = this.taints.get(r);
    if (out) return out;
    out = new Set();
    const { df } = this;
    const before = (id: number): readonly number[] => {
      const site = df.sites[id]!;
      const b = this.cfg.blocks[site.block]!;
      return df.stateAt(b, site.kind === 'insn' ? site.index : b.insns.length).get(r);
    };
    const steps = [...inc.keys()];
    for (const id of steps) for (const d of before(id)) if (!inc.has(d) && this.givesConstant(d, r)) out.add(id);
    for (let changed = true; changed;) {
      changed = false;
      for (const id of steps) {
        if (out.has(id)) continue;
        for (const d of before(id)) {
          if (out.has(d)) {
            out.add(id);
            changed = true;
            break;
          }
        }
      }
    }
    this.taints.set(r, out);
    return out;
  }

  /**
   * Per block, facts of the solve's in-states for (p, q) that hold for every β once solved:
   * REACHED, the block has a state; NO_A, A and p's constant are unknown; NO_I, i is unknown.
   * Unknown is absorbing: a join with an unknown is unknown, and past it only a definition of p
   * (of q) that is not a step can make p's constant and A (i) known again — a step keeps them
   * unknown, a constant assigned to q gives A only from p's constant. So a fact holds in a block's
   * final in-state when one path the solve surely follows brings it: from a reached entry (all
   * unknown), through definitions that give nothing (constantOf undefined: a call, a load, an
   * operation not understood) or steps, along edges the solve surely takes — every out-edge of a
   * block that compares no q, or whose i is unknown there (no narrowing cuts it). What it states
   * is exact; what it cannot tell it leaves out.
   */
  private unknowns(p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>): Uint8Array {
    const key = `${p}:${q}`;
    let ins = this.unk.get(key);
    if (ins) return ins;
    const { cfg, df } = this;
    ins = new Uint8Array(cfg.blocks.length);
    const rel = this.relevant(p, q);
    const work: number[] = [];
    for (const b of cfg.blocks) {
      if (b.entry && !Number.isNaN(df.depthIn[b.id]!)) {
        ins[b.id] = REACHED | NO_A | NO_I;
        work.push(b.id);
      }
    }
    while (work.length > 0) {
      const id = work.pop()!;
      const b = cfg.blocks[id]!;
      let bits = ins[id]!;
      const idx = rel.index[id]!;
      const sites = df.insnSite[id]!;
      for (let k = 0; k < idx.length; k++) bits = this.unknownAfter(bits, df.sites[sites[idx[k]!]!]!, p, q, incP, incQ);
      if ((bits & NO_I) === 0 && this.compares(b, q)) continue;
      const ds = df.dsSite[id];
      const cs = df.callSite[id];
      for (let j = 0; j < b.succ.length; j++) {
        const e = b.succ[j]!;
        if (cfg.blocks[e.to]!.term === 'exit') continue;
        let t = bits;
        if (e.ds && ds !== undefined) t = this.unknownAfter(t, df.sites[ds]!, p, q, incP, incQ);
        if (cs !== undefined && e.kind === 'return') t = this.unknownAfter(t, df.sites[cs]!, p, q, incP, incQ);
        if ((ins[e.to]! | t) !== ins[e.to]) {
          ins[e.to] = ins[e.to]! | t;
          work.push(e.to);
        }
      }
    }
    this.unk.set(key, ins);
    return ins;
  }

  /** unknowns' transfer of one site (apply's, for what it leaves unknown). */
  private unknownAfter(bits: number, site: Site, p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>): number {
    if (site.regs.includes(p) && !incP.has(site.id)) bits = this.values.constantOf(site, p) === undefined ? bits | NO_A : bits & ~NO_A;
    if (site.regs.includes(q) && !incQ.has(site.id)) bits = this.values.constantOf(site, q) === undefined ? bits | NO_I : bits & ~NO_I;
    return bits;
  }

  /**
   * Per block: 1 when a path from an entry reaches it without leaving a block that compares q
   * (comparisonOf): the solve for q reaches every such block, whatever its narrowing cuts.
   */
  private uncut(q: number): Uint8Array {
    let r = this.uncuts.get(q);
    if (r) return r;
    const { cfg, df } = this;
    r = new Uint8Array(cfg.blocks.length);
    const work: number[] = [];
    for (const b of cfg.blocks) {
      if (b.entry && !Number.isNaN(df.depthIn[b.id]!)) {
        r[b.id] = 1;
        work.push(b.id);
      }
    }
    while (work.length > 0) {
      const b = cfg.blocks[work.pop()!]!;
      if (this.compares(b, q)) continue;
      for (let j = 0; j < b.succ.length; j++) {
        const e = b.succ[j]!;
        if (r[e.to] || cfg.blocks[e.to]!.term === 'exit') continue;
        r[e.to] = 1;
        work.push(e.to);
      }
    }
    this.uncuts.set(q, r);
    return r;
  }



  private stateAt(b: Block, index: number, p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>, beta: number): IState | undefined {
    const key = `${p}:${q}:${beta}`;
    let ins = this.cache.get(key);
    if (ins === undefined) {
      ins = this.solve(p, q, incP, incQ, beta);
      this.cache.set(key, ins);
    }
    if (!ins || !ins[b.id]) return undefined;
    const s = { ...ins[b.id]! };
    this.body(s, b.id, index, this.relevant(p, q), p, q, incP, incQ, beta);
    return s;
  }

  /**
   * The transfer of the first `n` body sites of block `id`: `apply` of each in order. A site that
   * defines neither p nor q only normalises (the unsafe-integer checks at the end of apply), which
   * is idempotent: that is done once, before the first site that defines one, when some site that
   * defines neither comes before it (or when none defines either) — that is, when the block's
   * first site defines neither. `rel` lists, per block, the body indices of the sites that define
   * p or q (relevant), in order.
   */
  private body(s: IState, id: number, n: number, rel: Relevant, p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>, beta: number): void {
    if (n === 0) return;
    const idx = rel.index[id]!;
    if (idx.length === 0 || idx[0] !== 0) Induction.normalise(s);
    const sites = this.df.insnSite[id]!;
    for (let k = 0; k < idx.length && idx[k]! < n; k++) this.apply(s, this.df.sites[sites[idx[k]!]!]!, p, q, incP, incQ, beta);
  }

  /** Per block, the body indices of the sites that define canonical register p or q (cached per pair). */
  private relevant(p: number, q: number): Relevant {
    const key = `${p}:${q}`;
    let rel = this.rels.get(key);
    if (!rel) {
      rel = { index: this.df.insnSite.map((sites) => {
        const out: number[] = [];
        for (let k = 0; k < sites.length; k++) {
          const regs = this.df.sites[sites[k]!]!.regs;
          if (regs.includes(p) || regs.includes(q)) out.push(k);
        }
        return out;
      }) };
      this.rels.set(key, rel);
    }
    return rel;
  }

  /**
   * The instruction and delay-slot sites whose definitions include canonical register r, in site
   * order (distinct; every register's in one pass, cached).
   */
  private definers(r: number): readonly number[] {
    if (!this.defs) {
      this.defs = new Map();
      const { sites } = this.df;
      for (let k = 0; k < sites.length; k++) {
        const site = sites[k]!;
        if (site.kind !== 'insn' && site.kind !== 'ds') continue;
        const regs = site.regs;
        for (let j = 0; j < regs.length; j++) {
          let d = this.defs.get(regs[j]!);
          if (!d) this.defs.set(regs[j]!, (d = []));
          if (d[d.length - 1] !== site.id) d.push(site.id);
        }
      }
    }
    return this.defs.get(r) ?? NO_SITES;
  }

  /** The unsafe-integer checks every transfer ends with: what is not a safe integer (or an interval 2^32 wide) is unknown. */
  private static normalise(s: IState): void {
    if (s.A !== null && !Number.isSafeInteger(s.A)) s.A = null;
    if (s.pc !== null && !Number.isSafeInteger(s.pc)) s.pc = null;
    if (s.i && (!Number.isSafeInteger(s.i.lo) || !Number.isSafeInteger(s.i.hi) || s.i.hi - s.i.lo >= TWO32)) s.i = null;
  }

  /** The transfer of one site. */
  private apply(s: IState, site: Site, p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>, beta: number): void {
    const dp = site.regs.includes(p) || (site.kind === 'entry');
    const dq = site.regs.includes(q) || (site.kind === 'entry');
    if (dp) {
      const c = incP.get(site.id);
      if (c !== undefined) {
        s.A = s.A === null ? null : s.A + c;
        s.pc = s.pc === null ? null : s.pc + c;
      } else {
        const k = site.kind === 'entry' ? undefined : this.values.constantOf(site, p);
        s.pc = k ?? null;
        s.A = k !== undefined && s.i && s.i.lo === s.i.hi ? k - beta * s.i.lo : null;
      }
    }
    if (dq) {
      const c = incQ.get(site.id);
      if (c !== undefined) {
        s.A = s.A === null ? null : s.A - beta * c;
        s.i = s.i && { lo: s.i.lo + c, hi: s.i.hi + c };
      } else {
        const k = site.kind === 'entry' ? undefined : this.values.constantOf(site, q);
        s.i = k !== undefined ? { lo: k, hi: k } : null;
        s.A = k !== undefined && s.pc !== null ? s.pc - beta * k : null;
      }
    }
    Induction.normalise(s);
  }

  /**
   * The registers with steps some block's comparison reads (comparisonOf), distinct, in block
   * order of first use (cached). A block whose comparison can read none of them is not asked for
   * its constants.
   */
  private compared(): number[] {
    if (!this.counters) {
      const out: number[] = [];
      for (const b of this.cfg.blocks) {
        const sh = this.shape(b);
        if (!sh || !sh.regs.some((r) => this.inc(r).size > 0)) continue;
        const c = this.comparisonOf(b);
        if (c && this.inc(c.q).size > 0 && !out.includes(c.q)) out.push(c.q);
      }
      this.counters = out;
    }
    return this.counters;
  }

  /** comparisonOf(b)?.q === q, without asking for constants when b's comparison cannot read q. */
  private compares(b: Block, q: number): boolean {
    return this.shape(b)?.regs.includes(q) === true && this.comparisonOf(b)?.q === q;
  }

  /** Whether some instruction that defines canonical register r and is not a step assigns it a constant (cached). */
  private constantInit(r: number): boolean {
    let v = this.inits.get(r);
    if (v === undefined) {
      const inc = this.inc(r);
      v = false;
      const defs = this.definers(r);
      for (let k = 0; k < defs.length; k++) {
        const id = defs[k]!;
        const s = this.df.sites[id]!;
        if (!inc.has(id) && this.values.constantOf(s, r) !== undefined) {
          v = true;
          break;
        }
      }
      this.inits.set(r, v);
    }
    return v;
  }

  /** The comparison of a register with a constant that ends block b, if any (cached). */
  private comparisonOf(b: Block): (Cmp & { q: number }) | undefined {
    if (!this.cmps.has(b.id)) this.cmps.set(b.id, findComparison(this.df, this.isa, b, this.shape(b)));
    return this.cmps.get(b.id);
  }

  /**
   * What findComparison reads of block b before any constant: its edges, the branch and its
   * depth, and the registers it may compare (its q: MIPS rs or rt, SPARC the cmp's rs1) (cached).
   */
  private shape(b: Block): Shape | undefined {
    if (this.shapes.has(b.id)) return this.shapes.get(b.id);
    const sh = findShape(this.df, this.isa, b);
    this.shapes.set(b.id, sh);
    return sh;
  }

  /** Block-entry states (undefined: not reached), or null when the analysis does not apply. */
  private solve(p: number, q: number, incP: Map<number, number>, incQ: Map<number, number>, beta: number): (IState | undefined)[] | null {
    const { cfg, df } = this;
    const thresholds: number[] = [];
    const cmps = cfg.blocks.map((b) => (this.compares(b, q) ? this.comparisonOf(b) : undefined));
    for (const c of cmps) if (c) thresholds.push(c.k - 1, c.k, c.k + 1);
    if (thresholds.length === 0) return null;
    thresholds.sort((x, y) => x - y);
    const ins: (IState | undefined)[] = cfg.blocks.map(() => undefined);
    const visits = cfg.blocks.map(() => 0);
    // FIFO: `work` from `head` on; queued[id]: id is in it.
    const work: number[] = [];
    let head = 0;
    const queued = new Uint8Array(cfg.blocks.length);
    const rel = this.relevant(p, q);
    for (const b of cfg.blocks) {
      if (b.entry && !Number.isNaN(df.depthIn[b.id]!)) {
        ins[b.id] = { A: null, pc: null, i: null };
        work.push(b.id);
        queued[b.id] = 1;
      }
    }
    const join = (to: number, s: IState): void => {
      const old = ins[to];
      let n: IState;
      if (!old) n = s;
      else {
        n = {
          A: old.A !== null && s.A !== null && same(old.A, s.A) ? old.A : null,
          pc: old.pc !== null && s.pc !== null && same(old.pc, s.pc) ? old.pc : null,
          i: old.i && s.i ? { lo: Math.min(old.i.lo, s.i.lo), hi: Math.max(old.i.hi, s.i.hi) } : null,
        };
        if (n.i && n.i.hi - n.i.lo >= TWO32) n.i = null;
        if (n.i && old.i && ++visits[to]! > 3) {
          // Widening to the comparison constants.
          if (n.i.hi > old.i.hi) {
            const t = thresholds.find((x) => x >= n.i!.hi);
            n.i = t === undefined ? null : { lo: n.i.lo, hi: t };
          }
          if (n.i && n.i.lo < old.i.lo) {
            let t: number | undefined;
            for (let k = thresholds.length - 1; k >= 0; k--) {
              if (thresholds[k]! <= n.i.lo) {
                t = thresholds[k]!;
                break;
              }
            }
            n.i = t === undefined ? null : { lo: t, hi: n.i.hi };
          }
        }
        if (old.A === n.A && old.pc === n.pc && (old.i === n.i || (old.i && n.i && old.i.lo === n.i.lo && old.i.hi === n.i.hi))) return;
      }
      ins[to] = n;
      if (queued[to] === 0) {
        queued[to] = 1;
        work.push(to);
      }
    };
    let steps = 0;
    while (head < work.length) {
      if (++steps > 100000) return null;
      const id = work[head++]!;
      queued[id] = 0;
      const b = cfg.blocks[id]!;
      const s: IState = { ...ins[id]! };
      this.body(s, id, df.insnSite[id]!.length, rel, p, q, incP, incQ, beta);
      const cmp = cmps[id];
      const ds = df.dsSite[id];
      const cs = df.callSite[id];
      for (let j = 0; j < b.succ.length; j++) {
        const e = b.succ[j]!;
        if (cfg.blocks[e.to]!.term === 'exit') continue;
        const dsOn = e.ds && ds !== undefined;
        const csOn = cs !== undefined && e.kind === 'return';
        // States are never changed once join holds them (it makes a new one to change a block's),
        // nor is s past here: an edge that changes nothing passes s itself.
        const t: IState = (cmp && s.i) || dsOn || csOn ? { ...s } : s;
        if (cmp && t.i) {
          const nr = narrow(t.i, cmp, e === cmp.taken);
          if (nr === undefined) continue; // infeasible edge
          t.i = nr;
        }
        if (dsOn) this.apply(t, df.sites[ds]!, p, q, incP, incQ, beta);
        if (csOn) this.apply(t, df.sites[cs]!, p, q, incP, incQ, beta);
        join(e.to, t);
      }
    }
    return ins;
  }
}
