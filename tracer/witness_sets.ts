/**
 * The witness sets of a placement (tracer/placement.ts) and its step 4: the witness-free walks
 * from a predicate's out-edges over the flat arrays of a PlacementFrame, and the dropping,
 * heaviest first, of the witnesses every predicate that sees them can do without.
 */

/**
 * The parts of a placement problem that do not depend on which predicates are decided, as flat
 * arrays: the edges' ends, the out- and in-edges by vertex (CSR: vertex v's lie at
 * [start[v], start[v + 1])), the blocking points, blocking edges and value-chosen edges as flags
 * and as lists in their sets' order, the weights and every edge heaviest first (ties in edge
 * order). The pricing (tracer/pred_cost.ts) places one function once per candidate predicate:
 * it makes the frame once, from the input every candidate's differs from only in `decided`
 * (tracer/placement.ts placementFrame).
 */
export interface PlacementFrame {
  readonly n: number;
  readonly m: number;
  readonly exit: number;
  readonly entries: readonly number[];
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly outStart: Int32Array;
  readonly outList: Int32Array;
  readonly inStart: Int32Array;
  readonly inList: Int32Array;
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
  readonly wit: Uint8Array;
  readonly found: Int32Array;
  nFound = 0;
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
  }

  /**
   * Witness sets (ball-larus-1994 section 4.1): for edge p -> q, its own witness if witnessed,
   * else the first witnessed edge on every witness-free path from q. A path reaching a blocking
   * point without a witness violates the blocking property. `refBy` (by edge), when given, gets p
   * for every witnessed edge in p's sets (once: p is the largest predicate there so far when the
   * predicates are asked in ascending order).
   */
  witnessSets(p: number, refBy?: (number[] | undefined)[]): PredSets {
    const { outStart, outList, valueE } = this.f;
    const r: PredSets = { edges: [], sets: [], open: false };
    for (let j = outStart[p]!; j < outStart[p + 1]!; j++) {
      const ei = outList[j]!;
      if (valueE[ei]) continue;
      const set = new Set<number>();
      if (this.wit[ei]) {
        set.add(ei);
        if (refBy) referLast(refBy, ei, p);
      } else {
        if (this.walk(ei, -1)) r.open = true;
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
    const { wit, seen, stack, found, foundAt } = this;
    let open = blockingE[e] === 1;
    const stamp = ++this.stamp;
    let nFound = 0;
    let sp = 0;
    stack[sp++] = to[e]!;
    while (sp > 0) {
      const v = stack[--sp]!;
      if (seen[v] === stamp) continue;
      seen[v] = stamp;
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
    return open;
  }
}

/**
 * Adds predicate p to the predicates whose sets hold witness w (refBy, by edge) when p is not the
 * last one there: once, when no predicate larger than p is there (witnessSets asked in ascending
 * order).
 */
function referLast(refBy: (number[] | undefined)[], w: number, p: number): void {
  const by = refBy[w];
  if (by === undefined) refBy[w] = [p];
  else if (by[by.length - 1] !== p) by.push(p);
}

/** Adds predicate p to the predicates whose sets hold witness w (refBy, by edge), once. */
function refer(refBy: (number[] | undefined)[], w: number, p: number): void {
  const by = refBy[w];
  if (by === undefined) refBy[w] = [p];
  else if (by[by.length - 1] !== p && !by.includes(p)) by.push(p);
}

/** Non-empty, pairwise disjoint sets, not open. */
function ok(ps: PredSets): boolean {
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
 * predicate that holds w becomes open: w stays, without looking at the predicates. A predicate
 * that was ok holds w in exactly one set S (its sets are disjoint), and it stays ok exactly when
 * S without w joined with B is not empty and B meets none of its other sets (S without w met none
 * of them before): tested on B's list, and only a drop changes a set, in place. A predicate that
 * was not ok (step 3 found it so: a later drop only keeps predicates that are ok) is tested on
 * its new sets, made in full.
 *
 * `start`: the position in the frame's heaviest-first order to go on from (`sets`, `refBy` and
 * `walks.wit` being the state reached there). `sole` (by edge), when given: every predicate is
 * tested, and a witness that stays because of exactly one predicate gets that predicate there
 * (placeDecidingEach: with that predicate decided, the drop is made).
 */
export function dropRedundant(walks: Walks, sets: (PredSets | undefined)[], refBy: (number[] | undefined)[], start = 0, sole?: Int32Array): void {
  const { m, order } = walks.f;
  const wit = walks.wit;
  const okNow = new Uint8Array(sets.length);
  for (let p = 0; p < sets.length; p++) if (sets[p] && ok(sets[p]!)) okNow[p] = 1;
  const found = walks.found;
  // New sets of the predicates that were not ok, made while testing a drop, by position in `by`.
  const made: (PredSets | undefined)[] = [];
  for (let o = start; o < m; o++) {
    const w = order[o]!;
    if (!wit[w]) continue;
    const by = refBy[w];
    if (by === undefined) {
      wit[w] = 0;
      continue;
    }
    if (walks.walk(w, w)) {
      if (sole && by.length === 1) sole[w] = by[0]!;
      continue;
    }
    const nb = walks.nFound;
    // The predicates that keep w (all of them tested when `sole` is asked for), and the last.
    let keeps = 0;
    let keeper = -1;
    made.length = 0;
    for (let k = 0; k < by.length && (keeps === 0 || sole); k++) {
      const p = by[k]!;
      const ps = sets[p]!;
      const ss = ps.sets;
      let keep = false;
      if (okNow[p]) {
        let i = 0;
        while (!ss[i]!.has(w)) i++;
        if (nb === 0 && ss[i]!.size === 1) keep = true;
        for (let j = 0; j < ss.length && !keep; j++) {
          if (j === i) continue;
          const other = ss[j]!;
          for (let t = 0; t < nb; t++) {
            if (other.has(found[t]!)) {
              keep = true;
              break;
            }
          }
        }
      } else {
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
        if (ok(next)) made[k] = next;
        else keep = true;
      }
      if (keep) {
        keeps++;
        keeper = p;
      }
    }
    if (keeps > 0) {
      if (sole && keeps === 1) sole[w] = keeper;
      continue;
    }
    wit[w] = 0;
    for (let k = 0; k < by.length; k++) {
      const p = by[k]!;
      const next = made[k];
      if (next) {
        sets[p] = next;
        okNow[p] = 1;
      } else {
        const ss = sets[p]!.sets;
        let i = 0;
        while (!ss[i]!.has(w)) i++;
        const s = ss[i]!;
        s.delete(w);
        for (let t = 0; t < nb; t++) s.add(found[t]!);
      }
      for (let t = 0; t < nb; t++) refer(refBy, found[t]!, p);
    }
    refBy[w] = undefined;
  }
}
