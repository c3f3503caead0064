/**
 * The witness sets of a placement (tracer/placement.ts) and its step 4: the witness-free walks
 * from a predicate's out-edges over the flat arrays of a PlacementFrame, and the dropping,
 * heaviest first, of the witnesses every predicate that sees them can do without.
 */

import type { GraphArrays } from './weight.js';

/**
 * The parts of a placement problem that do not depend on which predicates are decided, as flat
 * arrays: the graph's (tracer/weight.ts GraphArrays: the edges' ends, the out- and in-edges by
 * vertex), the blocking points, blocking edges and value-chosen edges as flags
 * and as lists in their sets' order, the weights and every edge heaviest first (ties in edge
 * order). The pricing (tracer/pred_cost.ts) places one function once per candidate predicate:
 * it makes the frame once, from the input every candidate's differs from only in `decided`
 * (tracer/placement.ts placementFrame).
 */
export interface PlacementFrame extends GraphArrays {
  readonly exit: number;
  readonly entries: readonly number[];
  /** Blocking vertices in their set's order (EXIT not among them unless the input says so). */
  readonly blockingVList: Int32Array;
  /** Blocking edges in their set's order. */
  readonly blockingEList: Int32Array;
  /** Value-chosen edges in their set's order. */
  readonly valueEList: Int32Array;
  /** 1 for blocking points: the blocking vertices and EXIT. */
  readonly blockingV: Uint8Array;
  readonly blockingE: Uint8Array;
  readonly valueE: Uint8Array;
  /** 1 for vertices with two or more out-edges that are not value-chosen (a predicate unless decided). */
  readonly ways: Uint8Array;
  readonly weights: number[];
  /** Every edge index, heaviest first, ties in edge order. */
  readonly order: Int32Array;
}

/** The witness sets of predicate p's out-edges (value-chosen edges left out), and whether any is open. */
export interface PredSets {
  edges: number[];
  sets: Set<number>[];
  /** A witness-free path reaches a blocking point (the blocking property fails). */
  open: boolean;
}

/**
 * The witness-free walks of one placement problem, for witnessSets: the frame's flag arrays and
 * the witnessed edges as flags (`wit`, which must hold exactly the witnessed set the walks are
 * asked about). A walk leaves the witnessed edges it meets first in `found[0 .. nFound)`, each
 * once, in the order it meets them.
 */
export class Walks {
  /** The witnessed flags the walks read (tracer/place_each.ts points it at each candidate's in turn). */
  wit: Uint8Array;
  readonly found: Int32Array;
  nFound = 0;
  /** The vertices the last walk visited, `trail[0 .. nTrail)`, in visiting order. */
  readonly trail: Int32Array;
  nTrail = 0;
  /** foundAt[e] === stamp: e is in found (the current walk's). */
  private readonly foundAt: Uint32Array;
  /** seen[v] === stamp: v visited by the current walk. */
  private readonly seen: Uint32Array;
  private stamp = 0;
  private readonly stack: Int32Array;

  constructor(readonly f: PlacementFrame) {
    this.wit = new Uint8Array(f.m);
    this.found = new Int32Array(f.m);
    this.foundAt = new Uint32Array(f.m);
    this.seen = new Uint32Array(f.n);
    this.stack = new Int32Array(f.m + 1);
    this.trail = new Int32Array(f.n);
  }

  /** Whether the last walk visited vertex v (read the flags of v's out-edges). */
  reached(v: number): boolean {
    return this.seen[v] === this.stamp;
  }

  /**
   * Witness sets (ball-larus-1994 section 4.1): for edge p -> q, its own witness if witnessed,
   * else the first witnessed edge on every witness-free path from q. A path reaching a blocking
   * point without a witness violates the blocking property. `refBy` (by edge), when given, gets p
   * for every witnessed edge in p's sets (once: p is the largest predicate there so far when the
   * predicates are asked in ascending order). `readers` (by vertex), when given, gets p for every
   * vertex whose out-edges' flags the sets were read from: p and every vertex a walk visited (once,
   * likewise): p's sets are the same under any witnessed flags that agree on those out-edges.
   */
  witnessSets(p: number, refBy?: (number[] | undefined)[], readers?: (number[] | undefined)[]): PredSets {
    const { outStart, outList, valueE } = this.f;
    const r: PredSets = { edges: [], sets: [], open: false };
    if (readers) referLast(readers, p, p);
    for (let j = outStart[p]!; j < outStart[p + 1]!; j++) {
      const ei = outList[j]!;
      if (valueE[ei]) continue;
      const set = new Set<number>();
      if (this.wit[ei]) {
        set.add(ei);
        if (refBy) referLast(refBy, ei, p);
      } else {
        if (this.walk(ei, -1)) r.open = true;
        if (readers) for (let k = 0; k < this.nTrail; k++) referLast(readers, this.trail[k]!, p);
        for (let k = 0; k < this.nFound; k++) {
          const w = this.found[k]!;
          set.add(w);
          if (refBy) referLast(refBy, w, p);
        }
      }
      r.edges.push(ei);
      r.sets.push(set);
    }
    return r;
  }

  /**
   * Leaves in `found` the witnessed edges (other than `skip`) first met on the witness-free paths
   * from edge e's target; true when e or such a path reaches a blocking point or a value-chosen
   * edge. With skip = e: e taken as not witnessed. Removing e's witness changes a witness set that
   * holds e into that set without e, joined with these (dropRedundant): the vertices a walk
   * reached before are still reached, and the new ones are exactly those reached through e.
   */
  walk(e: number, skip: number): boolean {
    const { outStart, outList, to, valueE, blockingE, blockingV } = this.f;
    const { wit, seen, stack, found, foundAt, trail } = this;
    let open = blockingE[e] === 1;
    const stamp = ++this.stamp;
    let nFound = 0;
    let nTrail = 0;
    let sp = 0;
    stack[sp++] = to[e]!;
    while (sp > 0) {
      const v = stack[--sp]!;
      if (seen[v] === stamp) continue;
      seen[v] = stamp;
      trail[nTrail++] = v;
      if (blockingV[v]) open = true;
      for (let j = outStart[v]!; j < outStart[v + 1]!; j++) {
        const fi = outList[j]!;
        if (wit[fi] && fi !== skip) {
          if (foundAt[fi] !== stamp) {
            foundAt[fi] = stamp;
            found[nFound++] = fi;
          }
        } else if (valueE[fi]) open = true;
        else {
          if (blockingE[fi]) open = true;
          stack[sp++] = to[fi]!;
        }
      }
    }
    this.nFound = nFound;
    this.nTrail = nTrail;
    return open;
  }
}

/**
 * Adds predicate p to the predicates whose sets hold witness w (refBy, by edge) when p is not the
 * last one there: once, when no predicate larger than p is there (witnessSets asked in ascending
 * order).
 */
export function referLast(refBy: (number[] | undefined)[], w: number, p: number): void {
  const by = refBy[w];
  if (by === undefined) refBy[w] = [p];
  else if (by[by.length - 1] !== p) by.push(p);
}

/** Adds predicate p to the predicates whose sets hold witness w (refBy, by edge), once. */
export function refer(refBy: (number[] | undefined)[], w: number, p: number): void {
  const by = refBy[w];
  if (by === undefined) refBy[w] = [p];
  else if (by[by.length - 1] !== p && !by.includes(p)) by.push(p);
}

/** Non-empty, pairwise disjoint sets, not open. */
export function ok(ps: PredSets): boolean {
  if (ps.open) return false;
  const ss = ps.sets;
  for (let i = 0; i < ss.length; i++) {
    if (ss[i]!.size === 0) return false;
    for (let j = 0; j < i; j++) if (meets(ss[i]!, ss[j]!)) return false;
  }
  return true;
}

/** The set `meets` probes (a module variable: Set.prototype.forEach's callback allocates nothing). */
let probe: Set<number> = new Set();
let met = false;

function probeOne(x: number): void {
  if (probe.has(x)) met = true;
}

function meets(a: Set<number>, b: Set<number>): boolean {
  probe = b;
  met = false;
  a.forEach(probeOne);
  probe = new Set();
  return met;
}

/**
 * Step 4 of placeWitnesses: drops witnesses, heaviest first, as long as every predicate whose
 * witness sets contain the witness (the only ones its removal changes: the others' witness-free
 * paths never reach its edge) keeps disjoint, non-empty sets and the blocking property. The
 * spanning tree leaves a chord on every cycle; a cycle through a decided predicate needs none
 * when no undecided predicate's choice depends on it. `sets`: every undecided predicate's witness
 * sets (by vertex) under the witnessed edges `walks.wit`; `refBy`: per witnessed edge, the
 * predicates whose sets hold it (in no particular order: a drop needs every one of them to stay
 * ok). All three are kept up to date.
 *
 * Removing w turns each set that holds w into itself without w joined with B, what lies beyond w
 * (Walks.walk with skip = w), and leaves the other sets as they are. When B is open every
 * predicate that holds w becomes open: w stays, without looking at the predicates (canDrop tells
 * the rest).
 */
export function dropRedundant(walks: Walks, sets: (PredSets | undefined)[], refBy: (number[] | undefined)[]): void {
  const { m, order } = walks.f;
  const wit = walks.wit;
  const okNow = okFlags(sets);
  const found = walks.found;
  const pss: PredSets[] = [];
  const oks: number[] = [];
  for (let o = 0; o < m; o++) {
    const w = order[o]!;
    if (!wit[w]) continue;
    const by = refBy[w];
    if (by === undefined) {
      wit[w] = 0;
      continue;
    }
    if (walks.walk(w, w)) continue;
    const nb = walks.nFound;
    pss.length = 0;
    oks.length = 0;
    for (let k = 0; k < by.length; k++) {
      pss.push(sets[by[k]!]!);
      oks.push(okNow[by[k]!]!);
    }
    if (!canDrop(w, found, nb, pss, oks)) continue;
    wit[w] = 0;
    for (let k = 0; k < by.length; k++) {
      const p = by[k]!;
      dropFrom(sets[p]!, w, found, nb);
      okNow[p] = 1;
      for (let t = 0; t < nb; t++) refer(refBy, found[t]!, p);
    }
    refBy[w] = undefined;
  }
}

/** By vertex: 1 where the predicate's sets are ok (non-empty, pairwise disjoint, not open). */
export function okFlags(sets: readonly (PredSets | undefined)[]): Uint8Array {
  const okNow = new Uint8Array(sets.length);
  for (let p = 0; p < sets.length; p++) if (sets[p] && ok(sets[p]!)) okNow[p] = 1;
  return okNow;
}

/**
 * Whether removing witness w, whose walk beyond it is not open and first meets `found[0 .. nb)`
 * (B), leaves ok every predicate whose sets `pss` hold w (`oks`: 1 where that predicate is ok now);
 * stops at the first predicate the removal breaks (`breaks`).
 */
export function canDrop(w: number, found: Int32Array, nb: number, pss: readonly PredSets[], oks: readonly number[]): boolean {
  return firstBroken(w, found, nb, pss, oks) === -1;
}

/** The position in `pss` of the first predicate removing w breaks (canDrop), or -1 for none. */
export function firstBroken(w: number, found: Int32Array, nb: number, pss: readonly PredSets[], oks: readonly number[]): number {
  for (let k = 0; k < pss.length; k++) if (breaks(w, found, nb, pss[k]!, oks[k]!)) return k;
  return -1;
}

/**
 * Whether removing witness w (B = found[0 .. nb), as canDrop's) leaves predicate `ps`, which holds
 * w, not ok (`okNow`: 1 when it is ok now). A predicate that is ok holds w in exactly one set S (its
 * sets are disjoint), and it stays ok exactly when S without w joined with B is not empty and B
 * meets none of its other sets (S without w met none of them before): tested on B's list. A
 * predicate that is not ok (step 3 found it so: a drop only keeps predicates that are ok) is tested
 * on its new sets, made in full.
 */
export function breaks(w: number, found: Int32Array, nb: number, ps: PredSets, okNow: number): boolean {
  const ss = ps.sets;
  if (okNow) {
    let i = 0;
    while (!ss[i]!.has(w)) i++;
    if (nb === 0 && ss[i]!.size === 1) return true;
    for (let j = 0; j < ss.length; j++) {
      if (j === i) continue;
      const other = ss[j]!;
      for (let t = 0; t < nb; t++) if (other.has(found[t]!)) return true;
    }
    return false;
  }
  const next: PredSets = { edges: ps.edges, sets: [], open: ps.open };
  for (let i = 0; i < ss.length; i++) {
    if (!ss[i]!.has(w)) {
      next.sets.push(ss[i]!);
      continue;
    }
    const s = new Set(ss[i]!);
    s.delete(w);
    for (let t = 0; t < nb; t++) s.add(found[t]!);
    next.sets.push(s);
  }
  return !ok(next);
}

/** The drop of witness w from a predicate's sets, in place: every set that holds w loses it and gains found[0 .. nb). */
export function dropFrom(ps: PredSets, w: number, found: Int32Array, nb: number): void {
  const ss = ps.sets;
  for (let i = 0; i < ss.length; i++) {
    const s = ss[i]!;
    if (!s.delete(w)) continue;
    for (let t = 0; t < nb; t++) s.add(found[t]!);
  }
}
