/**
 * The Ball–Larus heuristic weighting (ball-larus-1994 section 5): a depth-first search finds the
 * back edges; natural loops give the loop entries and their exit edges; one topological
 * traversal of the back-edge-free graph assigns
 *   (1) a vertex the sum of its incoming non-back edges (an entry also receives the weight 1 of
 *       its virtual EXIT -> entry edge, fixed at 1 and never a back edge),
 *   (2) each exit edge of the loop headed by a loop entry v of weight W the weight W / N,
 *   (3) each other outgoing edge of v (W * LOOP_MULTIPLIER if v heads a loop, less the weight
 *       already given to v's loop-exit edges) an equal share.
 * An edge receives its weight from the first rule that applies to it.
 */

export const LOOP_MULTIPLIER = 10;

/** The graph the placement algorithms work on: vertices 0..n-1, EXIT among them. */
export interface PGraph {
  n: number;
  exit: number;
  /** Vertices with a virtual EXIT -> v edge (the root first). */
  entries: number[];
  edges: { from: number; to: number }[];
}

/**
 * A graph's edges as flat arrays: the edges' ends, and the out- and in-edges by vertex (CSR:
 * vertex v's lie at [start[v], start[v + 1]), each in edge order). Kept per edge array: the
 * loops (tracer/frequency.ts findLoops), the heuristic weights and the placements of one
 * function (tracer/placement.ts) share its edges. Read only.
 */
export interface GraphArrays {
  readonly n: number;
  readonly m: number;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly outStart: Int32Array;
  readonly outList: Int32Array;
  readonly inStart: Int32Array;
  readonly inList: Int32Array;
}

const arrays = new WeakMap<PGraph['edges'], GraphArrays>();

export function graphArrays(g: Pick<PGraph, 'n' | 'edges'>): GraphArrays {
  const { n, edges } = g;
  const m = edges.length;
  const known = arrays.get(edges);
  if (known !== undefined && known.n === n && known.m === m) return known;
  const from = new Int32Array(m);
  const to = new Int32Array(m);
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  for (let i = 0; i < m; i++) {
    const e = edges[i]!;
    from[i] = e.from;
    to[i] = e.to;
    outStart[e.from + 1]++;
    inStart[e.to + 1]++;
  }
  for (let v = 0; v < n; v++) {
    outStart[v + 1] += outStart[v]!;
    inStart[v + 1] += inStart[v]!;
  }
  const outList = new Int32Array(m);
  const inList = new Int32Array(m);
  const outFill = outStart.slice(0, n);
  const inFill = inStart.slice(0, n);
  for (let i = 0; i < m; i++) {
    outList[outFill[from[i]!]!++] = i;
    inList[inFill[to[i]!]!++] = i;
  }
  const ga = { n, m, from, to, outStart, outList, inStart, inList };
  arrays.set(edges, ga);
  return ga;
}

/** Out- and in-edge lists by vertex (each in edge order), kept per edge array. Read only. */
const lists = new WeakMap<GraphArrays, { out: readonly (readonly number[])[]; inn: readonly (readonly number[])[] }>();

function listsOf(g: PGraph): { out: readonly (readonly number[])[]; inn: readonly (readonly number[])[] } {
  const ga = graphArrays(g);
  let l = lists.get(ga);
  if (!l) {
    const split = (start: Int32Array, list: Int32Array): number[][] => Array.from({ length: g.n }, (_, v) => Array.from(list.subarray(start[v]!, start[v + 1]!)));
    lists.set(ga, (l = { out: split(ga.outStart, ga.outList), inn: split(ga.inStart, ga.inList) }));
  }
  return l;
}

export function outEdges(g: PGraph): readonly (readonly number[])[] {
  return listsOf(g).out;
}

export function inEdges(g: PGraph): readonly (readonly number[])[] {
  return listsOf(g).inn;
}

/** Back edges of a depth-first search from the entries (iterative, in edge order). */
export function backEdges(g: PGraph): Set<number> {
  const { to, outStart, outList } = graphArrays(g);
  const state = new Uint8Array(g.n); // 0 new, 1 on stack, 2 done
  const back = new Set<number>();
  // The stack: vertex and the position of its next out-edge in outList.
  const sv = new Int32Array(g.n);
  const sk = new Int32Array(g.n);
  for (let r = 0; r < g.entries.length; r++) {
    const root = g.entries[r]!;
    if (state[root] !== 0) continue;
    let sp = 0;
    sv[sp] = root;
    sk[sp++] = outStart[root]!;
    state[root] = 1;
    while (sp > 0) {
      const v = sv[sp - 1]!;
      if (sk[sp - 1]! < outStart[v + 1]!) {
        const ei = outList[sk[sp - 1]!++]!;
        const w = to[ei]!;
        if (state[w] === 1) back.add(ei);
        else if (state[w] === 0) {
          state[w] = 1;
          sv[sp] = w;
          sk[sp++] = outStart[w]!;
        }
      } else {
        state[v] = 2;
        sp--;
      }
    }
  }
  return back;
}

/**
 * Natural loops per loop entry, in the order of the back edges given: the entry y plus every
 * vertex that reaches a back edge's source without passing y (the union over y's back edges).
 */
export function naturalLoops(g: PGraph, back: Iterable<number>): Map<number, Set<number>> {
  const { from, to, inStart, inList } = graphArrays(g);
  const loops = new Map<number, Set<number>>();
  for (const ei of back) {
    const x = from[ei]!;
    const y = to[ei]!;
    let loop = loops.get(y);
    if (!loop) loops.set(y, (loop = new Set([y])));
    const work = [x];
    while (work.length > 0) {
      const w = work.pop()!;
      if (loop.has(w)) continue;
      loop.add(w);
      for (let j = inStart[w]!; j < inStart[w + 1]!; j++) work.push(from[inList[j]!]!);
    }
  }
  return loops;
}

/** Back edges and natural loops of a graph, as backEdges and naturalLoops give them. */
export interface GraphLoops {
  /** 1 for a back edge (indexed like the graph's edges). */
  readonly isBack: Uint8Array;
  /** Per loop entry, its natural loop (a set: the weights do not depend on its order or on the entries' order). */
  readonly loops: ReadonlyMap<number, ReadonlySet<number>>;
}

/**
 * The heuristic weight of every edge (indexed like g.edges). `known`: g's back edges and natural
 * loops when the caller has them already (tracer/frequency.ts findLoops of the same graph).
 */
export function heuristicWeights(g: PGraph, known?: GraphLoops): number[] {
  const { to, outStart, outList, inStart, inList } = graphArrays(g);
  const n = g.n;
  const m = g.edges.length;
  let isBack = known?.isBack;
  let loops = known?.loops;
  if (!isBack || !loops) {
    const back = backEdges(g);
    isBack = new Uint8Array(m);
    back.forEach(setFlag, isBack);
    loops = naturalLoops(g, back);
  }
  // Per loop entry: its loop's exit edges (exitEdges[exitFrom[y] ..][0 .. exits[y]); exits[y] is
  // -1 for a vertex that heads no loop), and a flag per exit edge of any loop.
  const exits = new Int32Array(n).fill(-1);
  const exitFrom = new Int32Array(n);
  const exitEdges: number[] = [];
  const isLoopExit = new Uint8Array(m);
  // Each loop's exit edges share one value (W / exits, given at its entry), so neither the order
  // of the loops nor that of a loop's vertices changes a weight.
  for (const [y, loop] of loops) {
    exitFrom[y] = exitEdges.length;
    for (const v of loop) {
      for (let j = outStart[v]!; j < outStart[v + 1]!; j++) {
        const ei = outList[j]!;
        if (loop.has(to[ei]!)) continue;
        isLoopExit[ei] = 1;
        exitEdges.push(ei);
      }
    }
    exits[y] = exitEdges.length - exitFrom[y]!;
  }

  const weight: number[] = new Array(m).fill(NaN);
  // Topological order of the back-edge-free graph (Kahn): the smallest ready vertex first at the
  // start, then the last made ready.
  const indeg = new Int32Array(n);
  for (let i = 0; i < m; i++) if (!isBack[i]) indeg[to[i]!]++;
  const entryWeight = new Uint8Array(n);
  for (let i = 0; i < g.entries.length; i++) entryWeight[g.entries[i]!] = 1;
  const ready = new Int32Array(n);
  let rp = 0;
  for (let v = n - 1; v >= 0; v--) if (indeg[v] === 0) ready[rp++] = v;
  while (rp > 0) {
    const v = ready[--rp]!;
    let W = entryWeight[v]!;
    for (let j = inStart[v]!; j < inStart[v + 1]!; j++) {
      const ei = inList[j]!;
      if (!isBack[ei] && !Number.isNaN(weight[ei]!)) W += weight[ei]!;
    }
    const o0 = outStart[v]!;
    const o1 = outStart[v + 1]!;
    const nexit = exits[v]!;
    for (let k = exitFrom[v]!; k < exitFrom[v]! + nexit; k++) {
      const ei = exitEdges[k]!;
      if (Number.isNaN(weight[ei]!)) weight[ei] = W / nexit;
    }
    const Wv = nexit >= 0 ? W * LOOP_MULTIPLIER : W;
    let WE = 0;
    let nrest = 0;
    for (let j = o0; j < o1; j++) {
      const ei = outList[j]!;
      if (isLoopExit[ei]) {
        if (!Number.isNaN(weight[ei]!)) WE += weight[ei]!;
      } else nrest++;
    }
    for (let j = o0; j < o1; j++) {
      const ei = outList[j]!;
      if (!isLoopExit[ei] && Number.isNaN(weight[ei]!)) weight[ei] = Math.max(Wv - WE, 0) / nrest;
    }
    for (let j = o0; j < o1; j++) {
      const ei = outList[j]!;
      if (isBack[ei]) continue;
      const w = to[ei]!;
      if (--indeg[w] === 0) ready[rp++] = w;
    }
  }
  // Edges the traversal never reached (unreachable code, exits of loops whose entry was not
  // reached first) get weight 0: they are the cheapest to instrument.
  for (let i = 0; i < m; i++) if (Number.isNaN(weight[i]!)) weight[i] = 0;
  return weight;
}

function setFlag(this: Uint8Array, i: number): void {
  this[i] = 1;
}
