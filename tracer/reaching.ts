/**
 * The reaching definitions' in-states (tracer/dataflow.ts): per block, the sites whose definitions
 * may reach its start, per canonical register, and the `implicit` set reaching every register
 * without an entry of its own.
 *
 * The solution is the least one of the equations (it does not depend on the order a solver
 * visits the blocks in): a block's in-state is the union, over its in-edges from reachable blocks
 * (edges to the exit block excepted), of the edges' out-states:
 *   - an edge's out-state is its source's in-state, after the source's entry definitions when it
 *     is an entry (every register gains the entry site, the carried ones too except at the start,
 *     where they keep what reaches them; every carried register has an entry of its own), overlaid
 *     with the registers the source's body, its delay slot (edges that execute it) and its call
 *     (return edges) define, each reached by that one definition (the last);
 *   - a register has an entry of its own (is explicit) in an in-state when it has one in the
 *     out-state of an in-edge; the others are reached by the implicit set.
 * A set is handed out in ascending site order. The analyses read sites in set order (the slice
 * graph's node order in tracer/cut.ts, the order records and computations are found in), so the
 * order is a function of the set alone, never of how it was found.
 *
 * How it is solved: per block a bit vector holds every register's set (a register's universe is
 * the sites that may reach it — the entry sites and the sites defining it — in ascending order;
 * an implicit register's bits are the implicit set's; the universes follow each other bit after
 * bit, so that the vector is as long as their sizes' sum, not a word or more per register: a
 * call defines twenty-odd registers, and a small function's universes hold a bit or two each)
 * and a bit per explicit register, so that a merge is a run of word operations, the same for
 * every register (no per-register branch, no lists: the solve runs in V8's baseline code, where
 * each operation counts). Blocks are visited in
 * reverse postorder from the entries, round after round while an in-state grows; an edge merges
 * again only when its source's in-state grew since its last merge. A set's list is made from its
 * bits when first read. Registers are numbered densely while solving (`canon` maps back).
 */
import type { Cfg } from './cfg.js';

/** What the solution is computed from (tracer/dataflow.ts Dataflow). */
export interface ReachingInput {
  readonly cfg: Cfg;
  /** Window depth at the start of each block (NaN: unreachable). */
  readonly depthIn: readonly number[];
  /** Canonical registers each site defines. */
  readonly sites: readonly { readonly regs: readonly number[] }[];
  readonly insnSite: readonly (readonly number[])[];
  readonly dsSite: readonly (number | undefined)[];
  readonly callSite: readonly (number | undefined)[];
  readonly entrySite: readonly (number | undefined)[];
}

/** The registers with an entry of their own in a start state (canonical), and their sets (read only). */
export interface ExplicitSets {
  get(r: number): readonly number[] | undefined;
  has(r: number): boolean;
  /** The explicit registers, in the order they became explicit at the block while solving (an entry's carried ones after). */
  forEachReg(f: (r: number) => void): void;
}

/** A block's start state: per explicit register, its sites in ascending order, and the implicit set. */
export interface StartState {
  explicit: ExplicitSets;
  implicit: readonly number[];
}

/**
 * Per block, the reaching definitions at its start after its entry definitions: its in-state, or
 * for an entry block the entry's out-state before the body (the one rule for what an entry
 * defines, above). Unreachable blocks: empty. `carriedAt(b)`: the canonical registers an entry at block b does not
 * define (tracer/dataflow.ts Dataflow.carriedAt). The states are made when first asked for.
 */
export function solveStartStates(df: ReachingInput, carriedAt: (b: number) => readonly number[]): (b: number) => StartState {
  return new Reaching(df, carriedAt).startState;
}

/**
 * Canonical registers below SMALL_REG (the MIPS registers; the SPARC globals and window registers
 * to a depth of 20: tracer/isa_sparc.ts) -> dense number while a Reaching numbers them (-1
 * otherwise: it resets the entries it set). Not reentrant; a Reaching numbers its registers in its
 * constructor only.
 */
const SMALL_REG = 1024;
const SMALL_DENSE = new Int32Array(SMALL_REG).fill(-1);

class Reaching {
  /** Dense registers: canonical register -> dense id, and back. PH (= R) is the implicit set's. */
  private readonly dense = new Map<number, number>();
  private readonly canon: number[] = [];
  private readonly R: number;
  readonly PH: number;
  /** Per dense register (and PH): bit -> site (its universe, ascending). */
  private readonly siteOfBit: number[][] = [];
  /** Per dense register (and PH): its universe's first bit in a block's vector; words of a block's vector. */
  private readonly bOff: Int32Array;
  private readonly SW: number;
  /** Per block: the sets (in-state, every register, the implicit set as PH) as bit vectors. */
  private readonly E: Int32Array;
  /** Per block: its explicit registers (bits), and in the order they became explicit (ExplicitSets.forEach). */
  private readonly X: Int32Array;
  private readonly WR: number;
  readonly regs: number[][];
  /** Per entry block: its carried registers (dense), and a mark per register. */
  readonly carried: (number[] | undefined)[] = [];
  readonly carriedMark: (Uint8Array | undefined)[] = [];
  /** Per entry site: its index among the entries; per register (and PH) × entry: the entry's bit in the universe. */
  private readonly entryIdx: Int32Array;
  private readonly nE: number;
  private readonly entryBit: Int32Array;
  private readonly starts: (StartState | undefined)[] = [];

  constructor(readonly df: ReachingInput, carriedAt: (b: number) => readonly number[]) {
    const { cfg } = df;
    const n = cfg.blocks.length;
    // Registers below SMALL_REG (all but stack slots) are numbered through SMALL_DENSE, reset after.
    const small = SMALL_DENSE;
    const idOf = (r: number): number => {
      let d = r < SMALL_REG ? small[r]! : (this.dense.get(r) ?? -1);
      if (d < 0) {
        d = this.canon.length;
        if (r < SMALL_REG) small[r] = d;
        this.dense.set(r, d);
        this.canon.push(r);
      }
      return d;
    };
    const nS = df.sites.length;
    const siteRegs: number[][] = new Array<number[]>(nS);
    for (let s = 0; s < nS; s++) {
      const regs = df.sites[s]!.regs;
      const d: number[] = new Array<number>(regs.length);
      for (let k = 0; k < regs.length; k++) d[k] = idOf(regs[k]!);
      siteRegs[s] = d;
    }
    for (let b = 0; b < n; b++) {
      if (df.entrySite[b] === undefined || Number.isNaN(df.depthIn[b]!)) continue;
      this.carried[b] = carriedAt(b).map(idOf);
    }
    for (let d = 0; d < this.canon.length; d++) if (this.canon[d]! < SMALL_REG) small[this.canon[d]!] = -1;
    const R = (this.R = this.canon.length);
    this.PH = R;
    for (let b = 0; b < n; b++) {
      const c = this.carried[b];
      if (!c) continue;
      const m = (this.carriedMark[b] = new Uint8Array(R));
      for (const r of c) m[r] = 1;
    }

    // The universes: per register (and PH), the sites that may reach it (the entry sites and the
    // sites defining it), in ascending order.
    const entryIdx = new Int32Array(df.sites.length).fill(-1);
    let nE = 0;
    for (let b = 0; b < n; b++) if (df.entrySite[b] !== undefined && !Number.isNaN(df.depthIn[b]!)) entryIdx[df.entrySite[b]!] = nE++;
    this.entryIdx = entryIdx;
    this.nE = nE;
    const entryBit = (this.entryBit = new Int32Array((R + 1) * nE));
    const siteOfBit = this.siteOfBit;
    for (let r = 0; r <= R; r++) siteOfBit.push([]);
    const siteBits: number[][] = [];
    for (let s = 0; s < siteRegs.length; s++) {
      const i = entryIdx[s]!;
      if (i >= 0) {
        for (let r = 0; r <= R; r++) {
          entryBit[r * nE + i] = siteOfBit[r]!.length;
          siteOfBit[r]!.push(s);
        }
      }
      const regs = siteRegs[s]!;
      const bits: number[] = new Array<number>(regs.length);
      for (let k = 0; k < regs.length; k++) {
        const u = siteOfBit[regs[k]!]!;
        if (u[u.length - 1] !== s) u.push(s);
        bits[k] = u.length - 1;
      }
      siteBits.push(bits);
    }
    // The universes lie one after the other in a block's vector (not word-aligned: most registers
    // of a small function have one or two bits, and a merge's work is the vector's length).
    const bOff = (this.bOff = new Int32Array(R + 1));
    let bits = 0;
    for (let r = 0; r <= R; r++) {
      bOff[r] = bits;
      bits += siteOfBit[r]!.length;
    }
    const SW = (this.SW = (bits + 31) >>> 5);
    this.E = new Int32Array(n * SW);
    const WR = (this.WR = (R + 31) >>> 5);
    this.X = new Int32Array(n * WR);
    this.regs = cfg.blocks.map((): number[] => []);

    // Per edge: the registers its out-state defines over its source's in-state, in order of first
    // definition, and the bit of the site that does (the last) in the register's universe.
    const overBit: number[][] = [];
    // Per dense register: its index in the edge's list (-1: none yet; reset after each edge).
    const at = new Int32Array(R + 1).fill(-1);
    // The last edge's source, delay-slot and call sites and lists: an edge from the same block
    // that executes the same sites has the same lists (shared; they are only read).
    let lastFrom = -1;
    let lastDs: number | undefined;
    let lastC: number | undefined;
    let lastRs: number[] = [];
    let lastBs: number[] = [];
    for (let ei = 0; ei < cfg.edges.length; ei++) {
      const e = cfg.edges[ei]!;
      if (Number.isNaN(df.depthIn[e.from]!)) {
        this.overRegs[e.id] = [];
        overBit[e.id] = [];
        continue;
      }
      // The sites the edge executes, in order: the body's, the delay slot's, the call's (a return edge).
      const body = df.insnSite[e.from]!;
      const nb = body.length;
      const ds = e.ds ? df.dsSite[e.from] : undefined;
      const c = e.kind === 'return' ? df.callSite[e.from] : undefined;
      if (e.from === lastFrom && ds === lastDs && c === lastC) {
        this.overRegs[e.id] = lastRs;
        overBit[e.id] = lastBs;
        continue;
      }
      const rs: number[] = (this.overRegs[e.id] = []);
      const bs: number[] = (overBit[e.id] = []);
      lastFrom = e.from;
      lastDs = ds;
      lastC = c;
      lastRs = rs;
      lastBs = bs;
      for (let j = 0; j < nb + 2; j++) {
        const sid = j < nb ? body[j]! : j === nb ? ds : c;
        if (sid === undefined) continue;
        const regs = siteRegs[sid]!;
        const sb = siteBits[sid]!;
        for (let k = 0; k < regs.length; k++) {
          const r = regs[k]!;
          const i = at[r]!;
          if (i < 0) {
            at[r] = rs.length;
            rs.push(r);
            bs.push(sb[k]!);
          } else bs[i] = sb[k]!;
        }
      }
      for (let i = 0; i < rs.length; i++) at[rs[i]!] = -1;
    }

    this.overMask = new Int32Array(cfg.edges.length * SW);
    this.overVal = new Int32Array(cfg.edges.length * SW);
    this.overX = new Int32Array(cfg.edges.length * WR);
    for (let ei = 0; ei < cfg.edges.length; ei++) {
      const e = cfg.edges[ei]!;
      const ov = this.overRegs[e.id]!;
      const ob = overBit[e.id]!;
      const eo = e.id * SW;
      for (let i = 0; i < ov.length; i++) {
        const r = ov[i]!;
        const lo = bOff[r]!;
        setBits(this.overMask, eo, lo, lo + siteOfBit[r]!.length);
        const v = lo + ob[i]!;
        this.overVal[eo + (v >>> 5)]! |= 1 << (v & 31);
        this.overX[e.id * WR + (r >>> 5)]! |= 1 << (r & 31);
      }
    }
    this.out = new Int32Array(SW);
    this.outX = new Int32Array(WR);
    this.queued = new Uint8Array(n);
    this.ver = new Int32Array(n);
    this.mergedVer = new Int32Array(cfg.edges.length).fill(-1);
    this.solve();
  }

  // The solve's tables (its steps are methods, compiled once for every function's solve).
  private readonly overRegs: number[][] = [];
  /** Per edge × vector word: the bits of the registers the edge defines over, and their value then. */
  private overMask!: Int32Array;
  private overVal!: Int32Array;
  private overX!: Int32Array;
  /** An entry's out-state before its edges' own definitions (made when the entry is visited). */
  private out!: Int32Array;
  private outX!: Int32Array;

  /** The solve: rounds in reverse postorder until no in-state grows. */
  private solve(): void {
    const { df, queued } = this;
    const { cfg } = df;
    // Round robin in reverse postorder from the entries (every reachable block at least once),
    // until no in-state grows.
    const n = cfg.blocks.length;
    const seen = new Uint8Array(n);
    const post: number[] = [];
    const stack: number[] = [];
    const next: number[] = [];
    for (let b = 0; b < n; b++) {
      if (!cfg.blocks[b]!.entry || Number.isNaN(df.depthIn[b]!) || seen[b]) continue;
      seen[b] = 1;
      stack.push(b);
      next.push(0);
      while (stack.length > 0) {
        const top = stack.length - 1;
        const succ = cfg.blocks[stack[top]!]!.succ;
        if (next[top]! < succ.length) {
          const t = succ[next[top]!++]!.to;
          if (!seen[t] && cfg.blocks[t]!.term !== 'exit' && !Number.isNaN(df.depthIn[t]!)) {
            seen[t] = 1;
            stack.push(t);
            next.push(0);
          }
        } else {
          post.push(stack.pop()!);
          next.pop();
        }
      }
    }
    const order = post.reverse();
    for (let b = 0; b < n; b++) if (!seen[b] && !Number.isNaN(df.depthIn[b]!)) order.push(b);
    for (const b of order) queued[b] = 1;
    for (let any = true; any;) {
      any = false;
      for (let i = 0; i < order.length; i++) {
        const b = order[i]!;
        if (queued[b] === 0) continue;
        any = true;
        this.pop(b);
      }
    }
  }

  // Per block: to visit (its in-state grew, or never visited), a version bumped when its in-state
  // grows; per edge: the source's version it last merged.
  private readonly queued: Uint8Array;
  private readonly ver: Int32Array;
  private readonly mergedVer: Int32Array;

  /** Visits block id: merges its out-state along each out-edge into the successor's in-state. */
  private pop(id: number): void {
    const { df, SW, WR, R, PH, E, X, bOff, out, outX } = this;
    const { cfg } = df;
    this.queued[id] = 0;
    const b = cfg.blocks[id]!;
    const entry = df.entrySite[id];
    let sRegs = this.regs[id]!;
    if (entry !== undefined) {
      // The entry's out-state, made once for its edges.
      const { nE, entryBit } = this;
      const i = this.entryIdx[entry]!;
      const cm = this.carriedMark[id]!;
      out.set(E.subarray(id * SW, id * SW + SW));
      for (let r = 0; r <= R; r++) {
        if (r !== PH && id === 0 && cm[r] !== 0) continue;
        const eb = entryBit[r * nE + i]!;
        const x = bOff[r]! + eb;
        out[x >>> 5]! |= 1 << (x & 31);
      }
      outX.set(X.subarray(id * WR, id * WR + WR));
      for (const r of this.carried[id]!) outX[r >>> 5]! |= 1 << (r & 31);
      sRegs = [...sRegs, ...this.carried[id]!.filter((r) => (X[id * WR + (r >>> 5)]! & (1 << (r & 31))) === 0)];
    }
    const popVer = this.ver[id]!;
    const succ = b.succ;
    for (let i = 0; i < succ.length; i++) {
      const e = succ[i]!;
      if (cfg.blocks[e.to]!.term === 'exit') continue;
      this.mergeEdge(id, e.id, e.to, entry !== undefined ? popVer : this.ver[id]!, sRegs, entry !== undefined);
    }
  }

  /** Merges edge e's out-state (an entry's, made at its pop: `out`) into block `to`'s in-state. */
  private mergeEdge(id: number, e: number, to: number, v: number, sRegs: readonly number[], ent: boolean): void {
    if (this.mergedVer[e] === v) return;
    this.mergedVer[e] = v;
    const { SW, E, X, WR, overMask, overVal } = this;
    const src = ent ? this.out : E;
    const sb = ent ? 0 : id * SW;
    const eo = e * SW;
    const tb = to * SW;
    let grew = false;
    for (let w = 0; w < SW; w++) {
      const x = (src[sb + w]! & ~overMask[eo + w]!) | overVal[eo + w]!;
      const d = x & ~E[tb + w]!;
      if (d === 0) continue;
      E[tb + w]! |= d;
      grew = true;
    }
    if (this.mergeX(e, to, ent ? this.outX : X, ent ? 0 : id * WR, sRegs, this.overRegs[e]!)) grew = true;
    if (grew) {
      this.ver[to]!++;
      this.queued[to] = 1;
    }
  }

  /**
   * Merges the out-state's explicit registers (srcX from sxb, with the edge's own) into block
   * `to`'s; the new ones are appended to its list in the order the merge takes them: the source's
   * explicit registers, then the edge's own.
   */
  private mergeX(e: number, to: number, srcX: Int32Array, sxb: number, sRegs: readonly number[], ov: readonly number[]): boolean {
    const { WR, X, overX } = this;
    const txb = to * WR;
    let any = false;
    for (let w = 0; w < WR; w++) if (((srcX[sxb + w]! | overX[e * WR + w]!) & ~X[txb + w]!) !== 0) any = true;
    if (!any) return false;
    const tRegs = this.regs[to]!;
    // The source's explicit registers, then the edge's own, each added once.
    const n = sRegs.length;
    for (let i = 0; i < n + ov.length; i++) {
      const r = i < n ? sRegs[i]! : ov[i - n]!;
      const m = 1 << (r & 31);
      if (i < n && (srcX[sxb + (r >>> 5)]! & m) === 0) continue;
      const k = txb + (r >>> 5);
      if ((X[k]! & m) !== 0) continue;
      X[k]! |= m;
      tRegs.push(r);
    }
    return true;
  }

  /** Block b's start state (made once). */
  readonly startState = (b: number): StartState => {
    let st = this.starts[b];
    if (!st) {
      const sets = new BlockSets(this, b);
      st = this.starts[b] = { explicit: sets, implicit: sets.implicit };
    }
    return st;
  };

  /** Whether dense register d is explicit in block b's in-state. */
  isX(b: number, d: number): boolean {
    return (this.X[b * this.WR + (d >>> 5)]! & (1 << (d & 31))) !== 0;
  }

  /** The universe bit block b's start state adds to register d's set (or PH's): an entry's site, but at the start for a carried register (-1: none). */
  entryExtra(b: number, d: number): number {
    const entry = this.df.entrySite[b];
    if (entry === undefined || (b === 0 && d !== this.PH && this.carriedMark[b]![d] !== 0)) return -1;
    return this.entryBit[d * this.nE + this.entryIdx[entry]!]!;
  }

  /** The dense id of canonical register r, if any site defines it or an entry carries it. */
  denseOf(r: number): number | undefined {
    return this.dense.get(r);
  }

  canonOf(d: number): number {
    return this.canon[d]!;
  }

  /** Block b's in-state set of register r (or PH), with the site of universe bit `extra` (-1: none): its sites in universe order (a new list). */
  list(b: number, r: number, extra: number): number[] {
    const u = this.siteOfBit[r]!;
    const out: number[] = [];
    if (u.length === 0) return out;
    const E = this.E;
    const row = b * this.SW;
    // The universe's bits [lo, hi) of the block's vector, word by word, the bits outside masked off.
    const lo = this.bOff[r]!;
    const hi = lo + u.length;
    const x = extra >= 0 ? lo + extra : -1;
    for (let w = lo >>> 5; w <= (hi - 1) >>> 5; w++) {
      let d = E[row + w]!;
      if (x >>> 5 === w && x >= 0) d |= 1 << (x & 31);
      if (w === lo >>> 5) d &= -1 << (lo & 31);
      if (w === (hi - 1) >>> 5 && (hi & 31) !== 0) d &= (1 << (hi & 31)) - 1;
      while (d !== 0) {
        const low = d & -d;
        out.push(u[(w << 5) + 31 - Math.clz32(low) - lo]!);
        d ^= low;
      }
    }
    return out;
  }
}

/** Sets bits [lo, hi) of the vector at a[base..]. */
function setBits(a: Int32Array, base: number, lo: number, hi: number): void {
  if (hi <= lo) return;
  const wl = lo >>> 5;
  const wh = (hi - 1) >>> 5;
  const ml = -1 << (lo & 31);
  const mh = (hi & 31) === 0 ? -1 : (1 << (hi & 31)) - 1;
  if (wl === wh) {
    a[base + wl]! |= ml & mh;
    return;
  }
  a[base + wl]! |= ml;
  for (let w = wl + 1; w < wh; w++) a[base + w] = -1;
  a[base + wh]! |= mh;
}

/** Block b's start state's explicit registers and their sets (ExplicitSets), made when read. */
class BlockSets implements ExplicitSets {
  readonly implicit: readonly number[];
  private readonly reachable: boolean;
  private readonly entry: boolean;
  private readonly sets: (readonly number[] | undefined)[] = [];

  constructor(private readonly sol: Reaching, private readonly b: number) {
    const df = sol.df;
    this.reachable = !Number.isNaN(df.depthIn[b]!);
    this.entry = df.entrySite[b] !== undefined;
    this.implicit = this.reachable ? sol.list(b, sol.PH, sol.entryExtra(b, sol.PH)) : [];
  }

  private explicit(d: number | undefined): d is number {
    return d !== undefined && this.reachable && (this.sol.isX(this.b, d) || (this.entry && this.sol.carriedMark[this.b]![d] !== 0));
  }

  private setOf(d: number): readonly number[] {
    return (this.sets[d] ??= this.sol.list(this.b, d, this.sol.entryExtra(this.b, d)));
  }

  get(r: number): readonly number[] | undefined {
    const d = this.sol.denseOf(r);
    return this.explicit(d) ? this.setOf(d) : undefined;
  }

  has(r: number): boolean {
    return this.explicit(this.sol.denseOf(r));
  }

  forEachReg(f: (r: number) => void): void {
    if (!this.reachable) return;
    const { sol, b } = this;
    const regs = sol.regs[b]!;
    for (let i = 0; i < regs.length; i++) f(sol.canonOf(regs[i]!));
    if (!this.entry) return;
    const carried = sol.carried[b]!;
    for (let i = 0; i < carried.length; i++) if (!sol.isX(b, carried[i]!)) f(sol.canonOf(carried[i]!));
  }
}
