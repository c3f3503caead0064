/**
 * Witness placement (ball-larus-1994 section 4, mazieres-smith-1994 2.2.2-2.2.3):
 *
 *   1. blocking witnesses on the blockers of every blocking point — call vertices, EXIT, vertices
 *      that record values, and edges that record values (ball-larus footnote 4: an address is
 *      never read as a witness) — placed as far from the point as possible, on the outgoing edge
 *      of the nearest predicate;
 *   2. Kruskal's maximum spanning tree over the remaining edges, seeded with the virtual edges
 *      EXIT -> entry; every edge outside the tree is witnessed;
 *   3. witnesses no predicate sees are dropped;
 *   4. then, heaviest first, every witness the predicates that see it can do without
 *      (dropRedundant).
 *
 * Edges whose successor is chosen by a recorded value (an indirect jump through a recorded
 * target) are not part of the tracing problem: they are never witnessed, and their targets are
 * entries of the tree (regeneration arrives there with nothing pending).
 *
 * Decided predicates (tracer/decide.ts: regeneration evaluates their condition) are not
 * predicates of the tracing problem: regeneration knows their choice, as it knows a vertex's only
 * successor, so they need neither disjoint witness sets nor blocking witnesses; their out-edges
 * carry a witness only when an undecided predicate's witness-free paths need one there (step 3
 * drops the others). Witness-free paths still run through them both ways: a witness set of an
 * undecided predicate is the same whichever way a decided predicate on the path goes.
 *
 * `checkTracing` verifies the result directly: at every undecided predicate the witness sets of
 * the out-edges are disjoint and no witness-free path leads from it to a blocking point; every
 * decided predicate has exactly its two out-edges for regeneration to choose from.
 */
import type { Cfg } from './cfg.js';
import type { SliceResult } from './slice.js';
import { heuristicWeights, inEdges, outEdges, type PGraph } from './weight.js';

export interface PlacementInput extends PGraph {
  /** Vertices that are blocking points (calls, value records, recorded indirect jumps). */
  blockingVertices: Set<number>;
  /** Edges that carry value records. */
  blockingEdges: Set<number>;
  /** Edges chosen by a recorded value (out-edges of a recorded indirect jump). */
  valueEdges: Set<number>;
  /** Edge weights (default: the Ball–Larus heuristic). */
  weights?: number[];
  /** Vertices whose two-way choice regeneration evaluates (decided predicates: no witness needed). */
  decided?: ReadonlySet<number>;
}

export interface Placement {
  witnessed: Set<number>;
  /** Witness value per witnessed edge: distinct where a predicate's table must tell edges apart (numbering). */
  witness: Map<number, number>;
  /** Bytes per witness: 1 when the function has at most 256 witnessed edges, else 2. */
  bytes: 1 | 2;
  blocking: Set<number>;
  weights: number[];
}

/**
 * The tracing problem of a sliced function: its blocks and edges, the blocking points (calls,
 * recorded indirect jumps, blocks and edges that record values), the out-edges of recorded
 * indirect jumps as value-chosen edges, and the predicates regeneration decides (`decided`: block
 * ids).
 */
export function placementInput(
  cfg: Cfg, slice: Pick<SliceResult, 'bodyRecords' | 'edgeRecords'>, decided: Iterable<number>, reading: Iterable<number> = [],
): PlacementInput {
  const blockingVertices = new Set<number>();
  const valueEdges = new Set<number>();
  for (const b of cfg.blocks) {
    if (b.term === 'call' || b.term === 'icall' || b.term === 'ijump') blockingVertices.add(b.id);
    if (slice.bodyRecords[b.id]!.size > 0) blockingVertices.add(b.id);
    if (b.term === 'ijump') for (const e of b.succ) valueEdges.add(e.id);
  }
  const blockingEdges = new Set<number>();
  for (const [e, l] of slice.edgeRecords) if (l.length > 0) blockingEdges.add(e);
  // Edges where regeneration reads values the code writes later (a known loop's stopping
  // values, tracer/known.ts): blocking as a record is.
  for (const e of reading) blockingEdges.add(e);
  const entries = cfg.blocks.filter((b) => b.entry).map((b) => b.id);
  return {
    n: cfg.blocks.length, exit: cfg.exit, entries, edges: cfg.edges.map((e) => ({ from: e.from, to: e.to })),
    blockingVertices, blockingEdges, valueEdges, decided: new Set(decided),
  };
}

/** Vertices with two or more distinct out-edges that witnesses must disambiguate (not decided ones). */
export function predicates(g: PlacementInput): boolean[] {
  const out = outEdges(g);
  return out.map((list, v) => !g.decided?.has(v) && list.filter((e) => !g.valueEdges.has(e)).length > 1);
}

/** blockers(v): the out-edges of the nearest predicates on every path into v. */
export function blockersOfVertex(g: PGraph, isPred: boolean[], inn: readonly (readonly number[])[], v: number, out: Set<number>): void {
  const seen = new Set<number>([v]);
  const work = [v];
  while (work.length > 0) {
    const w = work.pop()!;
    for (const ei of inn[w]!) {
      const u = g.edges[ei]!.from;
      if (isPred[u]) out.add(ei);
      else if (!seen.has(u)) {
        seen.add(u);
        work.push(u);
      }
    }
  }
}

class UnionFind {
  private readonly p: Int32Array;
  constructor(n: number) {
    this.p = new Int32Array(n).map((_, i) => i);
  }
  find(x: number): number {
    while (this.p[x] !== x) {
      this.p[x] = this.p[this.p[x]!]!;
      x = this.p[x]!;
    }
    return x;
  }
  union(a: number, b: number): boolean {
    const x = this.find(a);
    const y = this.find(b);
    if (x === y) return false;
    this.p[x] = y;
    return true;
  }
}

export function placeWitnesses(g: PlacementInput): Placement {
  const { witnessed, sets, weights, blocking } = placeSet(g);
  const witness = numbering(sets, witnessed, weights);
  return { witnessed, witness, bytes: witnessBytes(witness), blocking, weights };
}

/**
 * The witnessed edges of placeWitnesses and the bytes of a witness, without the witness values
 * when they are not needed to know the bytes: numbering gives each edge the smallest value none of
 * its already numbered neighbours has, so with at most 256 witnessed edges every value is below
 * 256 (tracer/pred_cost.ts prices placements this way, once per candidate predicate).
 */
export function placeWitnessSet(g: PlacementInput): { witnessed: Set<number>; bytes: 1 | 2 } {
  const { witnessed, sets, weights } = placeSet(g);
  return { witnessed, bytes: witnessed.size <= 256 ? 1 : witnessBytes(numbering(sets, witnessed, weights)) };
}

/** Steps 1-4 of placeWitnesses: the witnessed edges and every undecided predicate's witness sets under them. */
function placeSet(g: PlacementInput): { witnessed: Set<number>; sets: Map<number, PredSets>; weights: number[]; blocking: Set<number> } {
  const weights = g.weights ?? heuristicWeights(g);
  const isPred = predicates(g);
  const inn = inEdges(g);
  const witnessed = new Set<number>();
  // 1. Blocking witnesses.
  const blocking = new Set<number>();
  for (const v of g.blockingVertices) blockersOfVertex(g, isPred, inn, v, blocking);
  blockersOfVertex(g, isPred, inn, g.exit, blocking);
  for (const ei of g.blockingEdges) {
    const u = g.edges[ei]!.from;
    if (isPred[u]) blocking.add(ei);
    else blockersOfVertex(g, isPred, inn, u, blocking);
  }
  for (const ei of blocking) if (!g.valueEdges.has(ei)) witnessed.add(ei);
  // 2. Maximum spanning tree seeded with EXIT -> entries (and the targets of value-chosen edges).
  const uf = new UnionFind(g.n);
  for (const v of g.entries) uf.union(g.exit, v);
  for (const ei of g.valueEdges) uf.union(g.exit, g.edges[ei]!.to);
  // Heaviest first; ties keep edge order (deterministic).
  const order = heaviestFirst(weights, g.edges.length).filter((i) => !witnessed.has(i) && !g.valueEdges.has(i));
  for (const ei of order) {
    const e = g.edges[ei]!;
    if (!uf.union(e.from, e.to)) witnessed.add(ei);
  }
  // 3. A witness no predicate can see (no witness-free path from a predicate reaches its edge)
  // decides nothing: dropping it leaves every predicate's witness sets as they were (e.g. the
  // edge into EXIT of a function without branches, a tree chord out of a non-predicate).
  const walks = new Walks(g, witnessed);
  const sets = new Map<number, PredSets>();
  const referenced = new Set<number>();
  for (let p = 0; p < g.n; p++) {
    if (!isPred[p]) continue;
    const ps = walks.witnessSets(p);
    sets.set(p, ps);
    for (const set of ps.sets) for (const w of set) referenced.add(w);
  }
  for (const ei of [...witnessed]) {
    if (referenced.has(ei)) continue;
    witnessed.delete(ei);
    walks.setWitnessed(ei, false);
  }
  // 4. Witnesses no predicate needs (dropRedundant). The witness sets are still those of step 3:
  // no walk reached the edge of a witness it dropped (it would be in a set).
  dropRedundant(walks, sets, witnessed, weights);
  return { witnessed, sets, weights, blocking };
}

/** Every edge index, heaviest first, ties in edge order; kept per weights array (the pricing's placements share one). */
const byWeight = new WeakMap<readonly number[], readonly number[]>();

function heaviestFirst(weights: readonly number[], m: number): readonly number[] {
  let order = byWeight.get(weights);
  if (!order || order.length !== m) {
    order = Array.from({ length: m }, (_, i) => i).sort((a, b) => weights[b]! - weights[a]! || a - b);
    byWeight.set(weights, order);
  }
  return order;
}

/**
 * Witness values. Regeneration reads a witness at a predicate and looks its value up in that
 * predicate's table (checkTracing), so two witnessed edges need different values only when they
 * lie in different witness sets of one predicate; edges that never meet that way may share one.
 * `sets`: every undecided predicate's witness sets under `witnessed` (kept by dropRedundant).
 * The values colour that conflict graph greedily, heaviest edges first, each edge taking the
 * smallest value none of its already numbered neighbours has: value 0 costs one instruction less
 * (it is stored from the zero register), so as many of the heavy witnesses as possible get it,
 * and the values stay small (a byte in every function of the shipped programs).
 */
function numbering(sets: Map<number, PredSets>, witnessed: Set<number>, weights: number[]): Map<number, number> {
  const conflicts = new Map<number, Set<number>>();
  const meet = (a: number, b: number): void => {
    let s = conflicts.get(a);
    if (!s) conflicts.set(a, (s = new Set()));
    s.add(b);
  };
  for (const ps of sets.values()) {
    const ws = ps.sets;
    for (let i = 0; i < ws.length; i++) {
      for (let j = i + 1; j < ws.length; j++) {
        for (const a of ws[i]!) {
          for (const b of ws[j]!) {
            meet(a, b);
            meet(b, a);
          }
        }
      }
    }
  }
  const order = [...witnessed].sort((a, b) => weights[b]! - weights[a]! || a - b);
  const witness = new Map<number, number>();
  for (const e of order) {
    const taken = new Set<number>();
    for (const f of conflicts.get(e) ?? []) {
      const v = witness.get(f);
      if (v !== undefined) taken.add(v);
    }
    let v = 0;
    while (taken.has(v)) v++;
    witness.set(e, v);
  }
  return witness;
}

/** Bytes of a function's witnesses: one when every value fits. */
function witnessBytes(witness: Map<number, number>): 1 | 2 {
  let max = 0;
  for (const v of witness.values()) max = Math.max(max, v);
  return max < 256 ? 1 : 2;
}

export interface TracingCheck {
  /** Predicate vertices whose out-edges' witness sets intersect. */
  ambiguous: number[];
  /** Predicates with a witness-free path to a blocking point (EXIT, call, value record). */
  unblocked: number[];
  /** Per predicate: witness value -> out-edge (the regeneration table). */
  tables: Map<number, Map<number, number>>;
  /** Witnessed edges that belong to some predicate's witness sets. */
  referenced: Set<number>;
  /** Decided vertices that do not have exactly two out-edges regeneration chooses between. */
  undecidable: number[];
}

/** The witness sets of predicate p's out-edges (value-chosen edges left out), and whether any is open. */
interface PredSets {
  edges: number[];
  sets: Set<number>[];
  /** A witness-free path reaches a blocking point (the blocking property fails). */
  open: boolean;
}

/**
 * The witness-free walks of one placement problem, for witnessSets: the graph's out-edges, and
 * its blocking vertices, blocking edges, value-chosen edges and witnessed edges as flag arrays.
 * `wit` must hold exactly the witnessed set the walks are asked about (setWitnessed).
 */
class Walks {
  readonly out: readonly (readonly number[])[];
  private readonly to: Int32Array;
  private readonly blockingV: Uint8Array;
  private readonly blockingE: Uint8Array;
  private readonly valueE: Uint8Array;
  private readonly wit: Uint8Array;
  /** seen[v] === stamp: v visited by the current walk. */
  private readonly seen: Uint32Array;
  private stamp = 0;
  private readonly stack: Int32Array;

  constructor(readonly g: PlacementInput, witnessed: Iterable<number>) {
    this.out = outEdges(g);
    const m = g.edges.length;
    this.to = Int32Array.from(g.edges, (e) => e.to);
    this.blockingV = new Uint8Array(g.n);
    for (const v of blockingPoints(g)) this.blockingV[v] = 1;
    this.blockingE = new Uint8Array(m);
    for (const e of g.blockingEdges) this.blockingE[e] = 1;
    this.valueE = new Uint8Array(m);
    for (const e of g.valueEdges) this.valueE[e] = 1;
    this.wit = new Uint8Array(m);
    for (const e of witnessed) this.wit[e] = 1;
    this.seen = new Uint32Array(g.n);
    this.stack = new Int32Array(m + 1);
  }

  setWitnessed(e: number, on: boolean): void {
    this.wit[e] = on ? 1 : 0;
  }

  /**
   * Witness sets (ball-larus-1994 section 4.1): for edge p -> q, its own witness if witnessed,
   * else the first witnessed edge on every witness-free path from q. A path reaching a blocking
   * point without a witness violates the blocking property.
   */
  witnessSets(p: number): PredSets {
    const r: PredSets = { edges: [], sets: [], open: false };
    for (const ei of this.out[p]!) {
      if (this.valueE[ei]) continue;
      const set = new Set<number>();
      if (this.wit[ei]) set.add(ei);
      else if (this.walk(ei, -1, set)) r.open = true;
      r.edges.push(ei);
      r.sets.push(set);
    }
    return r;
  }

  /**
   * The witnessed edges first met on every witness-free path from edge e's target, with e itself
   * taken as not witnessed, and whether such a path (or e) reaches a blocking point or a
   * value-chosen edge. Removing e's witness changes a witness set that holds e into that set
   * without e, joined with these (dropRedundant): the vertices a walk reached before are still
   * reached, and the new ones are exactly those reached through e.
   */
  through(e: number): { set: Set<number>; open: boolean } {
    const set = new Set<number>();
    return { set, open: this.walk(e, e, set) };
  }

  /**
   * Adds to `set` the witnessed edges (other than `skip`) first met on the witness-free paths from
   * edge e's target; true when e or such a path reaches a blocking point or a value-chosen edge.
   */
  private walk(e: number, skip: number, set: Set<number>): boolean {
    const { out, to, wit, valueE, blockingE, blockingV, seen, stack } = this;
    let open = blockingE[e] === 1;
    const stamp = ++this.stamp;
    let sp = 0;
    stack[sp++] = to[e]!;
    while (sp > 0) {
      const v = stack[--sp]!;
      if (seen[v] === stamp) continue;
      seen[v] = stamp;
      if (blockingV[v]) open = true;
      for (const fi of out[v]!) {
        if (wit[fi] && fi !== skip) set.add(fi);
        else if (valueE[fi]) open = true;
        else {
          if (blockingE[fi]) open = true;
          stack[sp++] = to[fi]!;
        }
      }
    }
    return open;
  }
}

/** Set.prototype.add, called by forEach with the set to grow as receiver. */
const setAdd = Set.prototype.add as (this: Set<number>, x: number) => void;

function blockingPoints(g: PlacementInput): Set<number> {
  const blockingV = new Set(g.blockingVertices);
  blockingV.add(g.exit);
  return blockingV;
}

/**
 * The check of a placement: every undecided predicate's witness sets, their disjointness (as
 * witness values: the regeneration table) and the blocking property; every decided vertex's two
 * out-edges.
 */
export function checkTracing(g: PlacementInput, witnessed: Set<number>, witness: Map<number, number>): TracingCheck {
  const walks = new Walks(g, witnessed);
  const out = walks.out;
  const isPred = predicates(g);
  const ambiguous: number[] = [];
  const unblocked: number[] = [];
  const tables = new Map<number, Map<number, number>>();
  const referenced = new Set<number>();
  for (let p = 0; p < g.n; p++) {
    if (!isPred[p]) continue;
    const table = new Map<number, number>();
    let bad = false;
    const ps = walks.witnessSets(p);
    ps.sets.forEach((set, k) => {
      const ei = ps.edges[k]!;
      for (const w of set) {
        referenced.add(w);
        const val = witness.get(w)!;
        if (table.has(val) && table.get(val) !== ei) bad = true;
        table.set(val, ei);
      }
    });
    if (bad) ambiguous.push(p);
    if (ps.open) unblocked.push(p);
    tables.set(p, table);
  }
  const undecidable: number[] = [];
  for (const v of g.decided ?? []) if (out[v]!.length !== 2 || out[v]!.some((e) => g.valueEdges.has(e))) undecidable.push(v);
  return { ambiguous, unblocked, tables, referenced, undecidable };
}

/**
 * Step 4 of placeWitnesses: drops witnesses, heaviest first, as long as every predicate whose
 * witness sets contain the witness (the only ones its removal changes: the others' witness-free
 * paths never reach its edge) keeps disjoint, non-empty sets and the blocking property. The
 * spanning tree leaves a chord on every cycle; a cycle through a decided predicate needs none
 * when no undecided predicate's choice depends on it. `sets`: every undecided predicate's witness
 * sets (by vertex, ascending) under `witnessed`, which `walks` holds too; both are kept up to date.
 */
function dropRedundant(walks: Walks, sets: Map<number, PredSets>, witnessed: Set<number>, weights: number[]): void {
  // refBy: per witness, the predicates whose sets hold it (which order does not matter: a drop
  // needs every one of them to stay ok). Loops over sets are forEach with builtin callbacks where
  // they can be: this runs mostly unoptimised (bin/emu.js), where for-of allocates per element.
  const refBy = new Map<number, Set<number>>();
  const refer = (w: number, p: number): void => {
    let s = refBy.get(w);
    if (!s) refBy.set(w, (s = new Set()));
    s.add(p);
  };
  sets.forEach((ps, p) => {
    for (let i = 0; i < ps.sets.length; i++) ps.sets[i]!.forEach((w) => refer(w, p));
  });
  // Non-empty, pairwise disjoint sets, not open (tested in place: most predicates have two).
  const ok = (ps: PredSets): boolean => {
    if (ps.open) return false;
    const ss = ps.sets;
    for (let i = 0; i < ss.length; i++) {
      const set = ss[i]!;
      if (set.size === 0) return false;
      for (let j = 0; j < i; j++) {
        const other = ss[j]!;
        for (const w of set) if (other.has(w)) return false;
      }
    }
    return true;
  };
  const order = [...witnessed].sort((a, b) => weights[b]! - weights[a]! || a - b);
  for (let o = 0; o < order.length; o++) {
    const w = order[o]!;
    const by = refBy.get(w);
    const preds = by ? [...by] : [];
    // Every set that holds w becomes itself without w, joined with what lies beyond w (one walk
    // for all of them: Walks.through); the other sets stay as they are.
    const beyond = preds.length > 0 ? walks.through(w) : undefined;
    const next: PredSets[] = [];
    for (let k = 0; k < preds.length; k++) {
      const old = sets.get(preds[k]!)!;
      const ps: PredSets = { edges: old.edges, sets: [], open: old.open };
      for (let i = 0; i < old.sets.length; i++) {
        const set = old.sets[i]!;
        if (!set.has(w)) {
          ps.sets.push(set);
          continue;
        }
        const n = new Set(set);
        n.delete(w);
        beyond!.set.forEach(setAdd, n);
        ps.sets.push(n);
        if (beyond!.open) ps.open = true;
      }
      if (!ok(ps)) break;
      next.push(ps);
    }
    if (next.length < preds.length) continue;
    witnessed.delete(w);
    walks.setWitnessed(w, false);
    // The new sets hold what the old ones held, w excepted, and what lies beyond w.
    for (let k = 0; k < preds.length; k++) {
      const p = preds[k]!;
      sets.set(p, next[k]!);
      beyond!.set.forEach((x) => refer(x, p));
    }
    refBy.delete(w);
  }
}
