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
import { findLoops } from './frequency.js';
import type { SliceResult } from './slice.js';
import { graphArrays, heuristicWeights, type PGraph } from './weight.js';
import { dropRedundant, Walks, type PlacementFrame, type PredSets } from './witness_sets.js';

export type { PlacementFrame } from './witness_sets.js';

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
  const gr = graphOf(cfg);
  return {
    n: cfg.blocks.length, exit: cfg.exit, entries: gr.entries, edges: gr.edges, blockingVertices, blockingEdges, valueEdges, decided: new Set(decided),
    // Made when first read: a placement without undecided predicates reads none.
    get weights(): number[] {
      return (gr.weights ??= heuristicWeights({ n: cfg.blocks.length, exit: cfg.exit, entries: gr.entries, edges: gr.edges }, findLoops(cfg)));
    },
  };
}

/**
 * The graph of a function's placements and its heuristic weights, kept per Cfg (a Cfg is not
 * changed once built): the pricing's placements and the final one share them, and with them the
 * heaviest-first order (kept per weights array). The edges are the Cfg's own (read only, as
 * tracer/frequency.ts findLoops reads them), so the loops, the weights and the placements share
 * their flat arrays (weight.ts graphArrays). Read only.
 */
const graphs = new WeakMap<Cfg, { entries: number[]; edges: PGraph['edges']; weights?: number[] }>();

function graphOf(cfg: Cfg): { entries: number[]; edges: PGraph['edges']; weights?: number[] } {
  let gr = graphs.get(cfg);
  if (!gr) {
    const entries = cfg.blocks.filter((b) => b.entry).map((b) => b.id);
    // findLoops works on this same graph (frequency.ts pgraph) and keeps its loops per Cfg: the
    // weights (placementInput) take them from there.
    gr = { entries, edges: cfg.edges };
    graphs.set(cfg, gr);
  }
  return gr;
}

/** Vertices with two or more distinct out-edges that witnesses must disambiguate (not decided ones). */
export function predicates(g: PlacementInput): boolean[] {
  return Array.from(predicateFlags(placementFrame(g, false), g.decided), (x) => x === 1);
}

/**
 * The frame of g; `weighted` false: without weights and order (empty), for walks only
 * (checkTracing, and placeWitnesses until it knows g has undecided predicates: withWeights).
 */
export function placementFrame(g: PlacementInput, weighted = true): PlacementFrame {
  const n = g.n;
  const m = g.edges.length;
  const { from, to, outStart, outList, inStart, inList } = graphArrays(g);
  const blockingVList = Int32Array.from(g.blockingVertices);
  const blockingEList = Int32Array.from(g.blockingEdges);
  const valueEList = Int32Array.from(g.valueEdges);
  const blockingV = new Uint8Array(n);
  for (let i = 0; i < blockingVList.length; i++) blockingV[blockingVList[i]!] = 1;
  blockingV[g.exit] = 1;
  const blockingE = new Uint8Array(m);
  for (let i = 0; i < blockingEList.length; i++) blockingE[blockingEList[i]!] = 1;
  const valueE = new Uint8Array(m);
  for (let i = 0; i < valueEList.length; i++) valueE[valueEList[i]!] = 1;
  const ways = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    let k = 0;
    for (let j = outStart[v]!; j < outStart[v + 1]!; j++) if (!valueE[outList[j]!]) k++;
    if (k > 1) ways[v] = 1;
  }
  const f: PlacementFrame = {
    n, m, exit: g.exit, entries: g.entries, from, to, outStart, outList, inStart, inList,
    blockingVList, blockingEList, valueEList, blockingV, blockingE, valueE, ways, weights: [], order: new Int32Array(0),
  };
  return weighted ? withWeights(f, g) : f;
}

/** The frame f (made without weights) with g's weights and heaviest-first order. */
function withWeights(f: PlacementFrame, g: PlacementInput): PlacementFrame {
  const weights = g.weights ?? heuristicWeights(g);
  return { ...f, weights, order: heaviestFirst(weights, f.m) };
}

/** 1 for the predicates of the tracing problem: two or more ways, not decided. */
export function predicateFlags(f: PlacementFrame, decided: ReadonlySet<number> | undefined): Uint8Array {
  const isPred = f.ways.slice();
  if (decided) decided.forEach(clearFlag, isPred);
  return isPred;
}

function clearFlag(this: Uint8Array, v: number): void {
  if (v >= 0 && v < this.length) this[v] = 0;
}

/**
 * blockers(v): the out-edges of the nearest predicates on every path into v, added to the list
 * `bl` (`has`: its membership flags) in the order a depth-first walk up the in-edges meets them.
 * `seen`/`stamp`: a visited array and a stamp no other walk uses; `stack`: room for n vertices.
 * `hits`, when given, gets every predicate out-edge the walk meets, in that order, whether it was
 * in `bl` already or not.
 */
function blockersOf(
  f: PlacementFrame, isPred: Uint8Array, v: number, seen: Uint32Array, stamp: number, stack: Int32Array, bl: Int32Array, has: Uint8Array, len: number,
  hits: number[] | undefined,
): number {
  const { inStart, inList, from } = f;
  seen[v] = stamp;
  let sp = 0;
  stack[sp++] = v;
  while (sp > 0) {
    const w = stack[--sp]!;
    for (let j = inStart[w]!; j < inStart[w + 1]!; j++) {
      const ei = inList[j]!;
      const u = from[ei]!;
      if (isPred[u]) {
        if (hits !== undefined) hits.push(ei);
        if (!has[ei]) {
          has[ei] = 1;
          bl[len++] = ei;
        }
      } else if (seen[u] !== stamp) {
        seen[u] = stamp;
        stack[sp++] = u;
      }
    }
  }
  return len;
}

/** Union-find root of x with path halving (`p`: parents). */
function root(p: Int32Array, x: number): number {
  while (p[x] !== x) {
    p[x] = p[p[x]!]!;
    x = p[x]!;
  }
  return x;
}

/** Joins the trees of a and b; false when they were one already. */
function union(p: Int32Array, a: number, b: number): boolean {
  const x = root(p, a);
  const y = root(p, b);
  if (x === y) return false;
  p[x] = y;
  return true;
}

/** The frame (without weights) placeWitnesses made of an input, for checkTracing of the same input (an input is not changed once placed). */
const framed = new WeakMap<PlacementInput, PlacementFrame>();

export function placeWitnesses(g: PlacementInput): Placement {
  const f0 = placementFrame(g, false);
  framed.set(g, f0);
  const isPred = predicateFlags(f0, g.decided);
  // Without undecided predicates nothing is witnessed: step 1's blocking edges are predicates'
  // out-edges, and no predicate sees a chord (step 3 drops them all).
  if (isPred.indexOf(1) === -1) {
    return { witnessed: new Set(), witness: new Map(), bytes: 1, blocking: new Set(), get weights(): number[] { return g.weights ?? heuristicWeights(g); } };
  }
  const f = withWeights(f0, g);
  const r = placeSet(f, isPred);
  const witnessed = new Set<number>();
  for (let i = 0; i < r.witnessed.length; i++) witnessed.add(r.witnessed[i]!);
  const blocking = new Set<number>();
  for (let i = 0; i < r.blocking.length; i++) blocking.add(r.blocking[i]!);
  const witness = numbering(f, r.sets, r.walks);
  return { witnessed, witness, bytes: witnessBytes(witness), blocking, weights: f.weights };
}

/**
 * The witnessed edges of placeWitnesses (in the order its set holds them) and the bytes of a
 * witness, without the witness values when they are not needed to know the bytes: numbering
 * gives each edge the smallest value none of its already numbered neighbours has, so with at most
 * 256 witnessed edges every value is below 256 (tracer/pred_cost.ts prices placements this way,
 * once per candidate predicate). `frame`: placementFrame of g, or of an input g differs from only
 * in `decided`.
 */
export function placeWitnessSet(g: PlacementInput, frame: PlacementFrame = placementFrame(g)): WitnessSet {
  return witnessSet(frame, placeSet(frame, predicateFlags(frame, g.decided)));
}

export interface PlacedSet {
  witnessed: number[];
  sets: (PredSets | undefined)[];
  walks: Walks;
}

/** Room for blockingAndChords' own arrays, reused from one call to the next (placeDecidingEach's candidates). */
export class ChordScratch {
  readonly bl: Int32Array;
  readonly inBl: Uint8Array;
  readonly seen: Uint32Array;
  readonly stack: Int32Array;
  readonly uf: Int32Array;
  stamp = 0;

  constructor(f: PlacementFrame) {
    this.bl = new Int32Array(f.m);
    this.inBl = new Uint8Array(f.m);
    this.seen = new Uint32Array(f.n);
    this.stack = new Int32Array(f.n);
    this.uf = new Int32Array(f.n);
  }
}

/**
 * What step 1 met, item by item (its walks from the blocking vertices in their order, from EXIT,
 * then the blocking edges in their order): every predicate out-edge item k met is at
 * `hits[start[k] .. start[k + 1])`, in the order it met them, whether an earlier item had taken
 * it or not (a blocking edge out of a predicate is its own item's only one).
 */
export interface StepOneRecord {
  hits: number[];
  start: number[];
}

/**
 * How blockingAndChords may take steps 1 and 2 from another placement of the same frame whose
 * predicates are these but for some whose out-edges that placement's step 1 met (tracer/place_each.ts):
 *   - `replay`: the other's step 1; item k is walked again only when `walk[k] === stamp`, the
 *     others take the edges they met there (an item that met no out-edge of a predicate the two
 *     tell apart walks the same vertices: its walk never reached those predicates);
 *   - `resume`: step 2 starts at heaviest-first position `at`, with the union-find `uf` (n
 *     entries) and the chords `chords[0 .. nChords)` (in order) the other's step 2 had before
 *     it: every edge before `at` is taken or left alike (witnessed by step 1 or value-chosen
 *     alike), so the tree is the same up to there.
 * `snapshots` (of the placement made): the union-find before every position that is a multiple
 * of `every` (`uf`, n entries each) and the number of chords before it (`chords`).
 */
export interface StepsPlan {
  rec?: StepOneRecord;
  replay?: { rec: StepOneRecord; walk: Int32Array; stamp: number };
  resume?: { at: number; uf: Int32Array; chords: Int32Array; nChords: number };
  snapshots?: { every: number; uf: Int32Array; chords: Int32Array };
}

/**
 * Steps 1 and 2 of placeWitnesses on the flags `wit` (all clear): step 1's blocking edges in the
 * order it finds them (`bl[0 .. blen)`, flagged in `inBl`), and the witnessed edges in the order
 * they are first witnessed (`ins[0 .. ilen)`: the blocking witnesses, `ins[0 .. iblen)`, then the
 * chords in the spanning tree's order), each flagged in `wit`. With `scratch`, bl, inBl and ins
 * are its arrays (valid until the next call with it). `plan`: see StepsPlan.
 */
export function blockingAndChords(
  f: PlacementFrame, isPred: Uint8Array, wit: Uint8Array, scratch: ChordScratch = new ChordScratch(f), ins: Int32Array = new Int32Array(f.m), plan?: StepsPlan,
): { bl: Int32Array; blen: number; inBl: Uint8Array; ins: Int32Array; iblen: number; ilen: number } {
  const { bl, blen, inBl, iblen } = blockingWitnesses(f, isPred, wit, scratch, ins, plan);
  return { bl, blen, inBl, ins, iblen, ilen: treeChords(f, wit, scratch, ins, iblen, plan) };
}

/** Step 1 of blockingAndChords (its bl, blen, inBl and ins[0 .. iblen)). */
export function blockingWitnesses(
  f: PlacementFrame, isPred: Uint8Array, wit: Uint8Array, scratch: ChordScratch, ins: Int32Array, plan?: StepsPlan,
): { bl: Int32Array; blen: number; inBl: Uint8Array; iblen: number } {
  const { from, valueE } = f;
  const { bl, inBl, seen, stack } = scratch;
  inBl.fill(0);
  // 1. Blocking witnesses.
  const rec = plan?.rec;
  const replay = plan?.replay;
  const nv = f.blockingVList.length;
  const items = nv + 1 + f.blockingEList.length;
  let blen = 0;
  for (let k = 0; k < items; k++) {
    if (replay !== undefined && replay.walk[k] !== replay.stamp) {
      const { hits, start } = replay.rec;
      for (let j = start[k]!; j < start[k + 1]!; j++) {
        const ei = hits[j]!;
        if (!inBl[ei]) {
          inBl[ei] = 1;
          bl[blen++] = ei;
        }
      }
      continue;
    }
    let v = k < nv ? f.blockingVList[k]! : f.exit;
    if (k > nv) {
      const ei = f.blockingEList[k - nv - 1]!;
      v = from[ei]!;
      if (isPred[v]) {
        if (rec !== undefined) rec.hits.push(ei);
        if (!inBl[ei]) {
          inBl[ei] = 1;
          bl[blen++] = ei;
        }
      } else blen = blockersOf(f, isPred, v, seen, ++scratch.stamp, stack, bl, inBl, blen, rec?.hits);
    } else blen = blockersOf(f, isPred, v, seen, ++scratch.stamp, stack, bl, inBl, blen, rec?.hits);
    if (rec !== undefined) rec.start[k + 1] = rec.hits.length;
  }
  let ilen = 0;
  for (let i = 0; i < blen; i++) {
    const ei = bl[i]!;
    if (valueE[ei]) continue;
    wit[ei] = 1;
    ins[ilen++] = ei;
  }
  return { bl, blen, inBl, iblen: ilen };
}

/** Step 2 of blockingAndChords after its step 1 (`ins[0 .. iblen)`): the new ilen. */
export function treeChords(f: PlacementFrame, wit: Uint8Array, scratch: ChordScratch, ins: Int32Array, iblen: number, plan?: StepsPlan): number {
  const { n, m, from, to, valueE, valueEList, order } = f;
  const uf = scratch.uf;
  let ilen = iblen;
  // 2. Maximum spanning tree seeded with EXIT -> entries (and the targets of value-chosen edges).
  let at = 0;
  const resume = plan?.resume;
  if (resume !== undefined) {
    at = resume.at;
    uf.set(resume.uf);
    for (let i = 0; i < resume.nChords; i++) {
      wit[resume.chords[i]!] = 1;
      ins[ilen++] = resume.chords[i]!;
    }
  } else {
    for (let v = 0; v < n; v++) uf[v] = v;
    for (let i = 0; i < f.entries.length; i++) union(uf, f.exit, f.entries[i]!);
    for (let i = 0; i < valueEList.length; i++) union(uf, f.exit, to[valueEList[i]!]!);
  }
  const snaps = plan?.snapshots;
  // Heaviest first; ties keep edge order (deterministic). Only chords become witnessed, each
  // edge is met once: an edge witnessed when met was witnessed by step 1. The union-find (root
  // and union above, path halving) is written out here: this loop runs per edge for the base
  // placement and for every candidate the pricing places again.
  for (let i = at; i < m; i++) {
    if (snaps !== undefined && i % snaps.every === 0) {
      snaps.uf.set(uf, (i / snaps.every) * n);
      snaps.chords[i / snaps.every] = ilen - iblen;
    }
    const ei = order[i]!;
    if (wit[ei] || valueE[ei]) continue;
    let x = from[ei]!;
    while (uf[x] !== x) {
      const up = uf[uf[x]!]!;
      uf[x] = up;
      x = up;
    }
    let y = to[ei]!;
    while (uf[y] !== y) {
      const up = uf[uf[y]!]!;
      uf[y] = up;
      y = up;
    }
    if (x === y) {
      wit[ei] = 1;
      ins[ilen++] = ei;
    } else uf[x] = y;
  }
  return ilen;
}

/**
 * Steps 1-4 of placeWitnesses: the witnessed edges (blocking witnesses in the order step 1 finds
 * them, then the chords in the spanning tree's order, less those steps 3 and 4 drop), every
 * undecided predicate's witness sets under them (by vertex), the blocking edges (step 1's order)
 * and the walks (holding the witnessed flags).
 */
export function placeSet(f: PlacementFrame, isPred: Uint8Array): PlacedSet & { blocking: number[] } {
  const walks = new Walks(f);
  const wit = walks.wit;
  const { bl, blen, ins, ilen } = blockingAndChords(f, isPred, wit);
  // 3. A witness no predicate can see (no witness-free path from a predicate reaches its edge)
  // decides nothing: dropping it leaves every predicate's witness sets as they were (e.g. the
  // edge into EXIT of a function without branches, a tree chord out of a non-predicate).
  const sets: (PredSets | undefined)[] = new Array(f.n);
  const refBy: (number[] | undefined)[] = new Array(f.m);
  for (let p = 0; p < f.n; p++) if (isPred[p]) sets[p] = walks.witnessSets(p, refBy);
  for (let i = 0; i < ilen; i++) {
    const ei = ins[i]!;
    if (refBy[ei] === undefined) wit[ei] = 0;
  }
  // 4. Witnesses no predicate needs (dropRedundant). The witness sets are still those of step 3:
  // no walk reached the edge of a witness it dropped (it would be in a set).
  dropRedundant(walks, sets, refBy);
  return { witnessed: listed(ins, ilen, wit), sets, blocking: Array.from(bl.subarray(0, blen)), walks };
}

/** The edges of ins[0 .. ilen) that `wit` flags, in that order. */
export function listed(ins: Int32Array, ilen: number, wit: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < ilen; i++) if (wit[ins[i]!]) out.push(ins[i]!);
  return out;
}

/** Witnessed edges and bytes per witness of a placement, as placeWitnessSet gives them. */
export interface WitnessSet {
  witnessed: number[];
  bytes: 1 | 2;
}

export function witnessSet(f: PlacementFrame, r: PlacedSet): WitnessSet {
  return { witnessed: r.witnessed, bytes: r.witnessed.length <= 256 ? 1 : witnessBytes(numbering(f, r.sets, r.walks)) };
}

/** Every edge index, heaviest first, ties in edge order; kept per weights array (the pricing's placements share one). */
const byWeight = new WeakMap<readonly number[], Int32Array>();

function heaviestFirst(weights: readonly number[], m: number): Int32Array {
  let order = byWeight.get(weights);
  if (!order || order.length !== m) {
    order = Int32Array.from(Array.from({ length: m }, (_, i) => i).sort((a, b) => weights[b]! - weights[a]! || a - b));
    byWeight.set(weights, order);
  }
  return order;
}

/**
 * Witness values. Regeneration reads a witness at a predicate and looks its value up in that
 * predicate's table (checkTracing), so two witnessed edges need different values only when they
 * lie in different witness sets of one predicate; edges that never meet that way may share one.
 * `sets`: every undecided predicate's witness sets under the witnessed edges (`walks.wit`, kept
 * by dropRedundant). The values colour that conflict graph greedily, heaviest edges first, each
 * edge taking the smallest value none of its already numbered neighbours has: value 0 costs one
 * instruction less (it is stored from the zero register), so as many of the heavy witnesses as
 * possible get it, and the values stay small (a byte in every function of the shipped programs).
 */
function numbering(f: PlacementFrame, sets: readonly (PredSets | undefined)[], walks: Walks): Map<number, number> {
  // By edge, the edges it must differ from (an edge may be listed more than once: it is a value
  // taken either way).
  const conflicts: (number[] | undefined)[] = new Array(f.m);
  for (let p = 0; p < sets.length; p++) {
    const ps = sets[p];
    if (ps === undefined) continue;
    const ws = ps.sets.map((s) => Array.from(s));
    for (let i = 0; i < ws.length; i++) {
      const wi = ws[i]!;
      for (let j = i + 1; j < ws.length; j++) {
        const wj = ws[j]!;
        for (let x = 0; x < wi.length; x++) {
          const a = wi[x]!;
          for (let y = 0; y < wj.length; y++) {
            const b = wj[y]!;
            (conflicts[a] ??= []).push(b);
            (conflicts[b] ??= []).push(a);
          }
        }
      }
    }
  }
  const witness = new Map<number, number>();
  // valueOf: by edge, its value once numbered (-1 before); takenAt: by value, the last edge that
  // found it taken (an edge's value is below the number of its neighbours plus one).
  const valueOf = new Int32Array(f.m).fill(-1);
  const takenAt = new Int32Array(f.m + 1).fill(-1);
  for (let i = 0; i < f.m; i++) {
    const e = f.order[i]!;
    if (!walks.wit[e]) continue;
    const cs = conflicts[e];
    if (cs !== undefined) {
      for (let k = 0; k < cs.length; k++) {
        const v = valueOf[cs[k]!]!;
        if (v !== -1 && v <= f.m) takenAt[v] = e;
      }
    }
    let v = 0;
    while (v <= f.m && takenAt[v] === e) v++;
    valueOf[e] = v;
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

/**
 * The check of a placement: every undecided predicate's witness sets, their disjointness (as
 * witness values: the regeneration table) and the blocking property; every decided vertex's two
 * out-edges.
 */
export function checkTracing(g: PlacementInput, witnessed: Set<number>, witness: Map<number, number>): TracingCheck {
  const known = framed.get(g);
  const f = known !== undefined && known.n === g.n && known.m === g.edges.length ? known : placementFrame(g, false);
  const isPred = predicateFlags(f, g.decided);
  const walks = new Walks(f);
  for (const e of witnessed) walks.wit[e] = 1;
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
  for (const v of g.decided ?? []) if (f.outStart[v + 1]! - f.outStart[v]! !== 2 || f.valueE[f.outList[f.outStart[v]!]!] || f.valueE[f.outList[f.outStart[v]! + 1]!]) undecidable.push(v);
  return { ambiguous, unblocked, tables, referenced, undecidable };
}
