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
 * Out- and in-edge lists by vertex, kept per edge array: the placements of one function (the
 * pricing places it once per candidate predicate, tracer/pred_cost.ts) share its edges. Read only.
 */
const adjacency = new WeakMap<PGraph['edges'], { n: number; m: number; out: readonly (readonly number[])[]; inn: readonly (readonly number[])[] }>();

function adjacencyOf(g: PGraph): { out: readonly (readonly number[])[]; inn: readonly (readonly number[])[] } {
  let a = adjacency.get(g.edges);
  if (!a || a.n !== g.n || a.m !== g.edges.length) {
    const out: number[][] = Array.from({ length: g.n }, () => []);
    const inn: number[][] = Array.from({ length: g.n }, () => []);
    g.edges.forEach((e, i) => {
      out[e.from]!.push(i);
      inn[e.to]!.push(i);
    });
    adjacency.set(g.edges, (a = { n: g.n, m: g.edges.length, out, inn }));
  }
  return a;
}

export function outEdges(g: PGraph): readonly (readonly number[])[] {
  return adjacencyOf(g).out;
}

export function inEdges(g: PGraph): readonly (readonly number[])[] {
  return adjacencyOf(g).inn;
}

/** Back edges of a depth-first search from the entries (iterative, in edge order). */
export function backEdges(g: PGraph): Set<number> {
  const out = outEdges(g);
  const state = new Uint8Array(g.n); // 0 new, 1 on stack, 2 done
  const back = new Set<number>();
  for (const root of g.entries) {
    if (state[root] !== 0) continue;
    const stack: { v: number; k: number }[] = [{ v: root, k: 0 }];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const list = out[top.v]!;
      if (top.k < list.length) {
        const ei = list[top.k++]!;
        const w = g.edges[ei]!.to;
        if (state[w] === 1) back.add(ei);
        else if (state[w] === 0) {
          state[w] = 1;
          stack.push({ v: w, k: 0 });
        }
      } else {
        state[top.v] = 2;
        stack.pop();
      }
    }
  }
  return back;
}

/**
 * Natural loops per loop entry, in the order of the back edges given: the entry y plus every
 * vertex that reaches a back edge's source without passing y (the union over y's back edges).
 */
export function naturalLoops(g: PGraph, back: Iterable<number>, inn: readonly (readonly number[])[] = inEdges(g)): Map<number, Set<number>> {
  const loops = new Map<number, Set<number>>();
  for (const ei of back) {
    const { from: x, to: y } = g.edges[ei]!;
    let loop = loops.get(y);
    if (!loop) loops.set(y, (loop = new Set([y])));
    const work = [x];
    while (work.length > 0) {
      const w = work.pop()!;
      if (loop.has(w)) continue;
      loop.add(w);
      for (const pi of inn[w]!) work.push(g.edges[pi]!.from);
    }
  }
  return loops;
}

/** The heuristic weight of every edge (indexed like g.edges). */
export function heuristicWeights(g: PGraph): number[] {
  const out = outEdges(g);
  const inn = inEdges(g);
  const back = backEdges(g);
  const loops = naturalLoops(g, back, inn);
  const loopExits = new Map<number, number[]>();
  for (const [y, loop] of loops) {
    const ex: number[] = [];
    for (const v of loop) for (const ei of out[v]!) if (!loop.has(g.edges[ei]!.to)) ex.push(ei);
    loopExits.set(y, ex);
  }
  const isLoopExit = new Set<number>();
  for (const ex of loopExits.values()) for (const ei of ex) isLoopExit.add(ei);

  const weight: number[] = new Array(g.edges.length).fill(NaN);
  // Topological order of the back-edge-free graph (Kahn).
  const indeg = new Array(g.n).fill(0);
  g.edges.forEach((e, i) => {
    if (!back.has(i)) indeg[e.to]++;
  });
  const entryWeight = new Array(g.n).fill(0);
  for (const v of g.entries) entryWeight[v] = 1;
  const ready: number[] = [];
  for (let v = 0; v < g.n; v++) if (indeg[v] === 0) ready.push(v);
  ready.reverse();
  while (ready.length > 0) {
    const v = ready.pop()!;
    let W = entryWeight[v]!;
    for (const ei of inn[v]!) if (!back.has(ei) && !Number.isNaN(weight[ei]!)) W += weight[ei]!;
    const loop = loopExits.get(v);
    if (loop) {
      for (const ei of loop) if (Number.isNaN(weight[ei]!)) weight[ei] = W / loop.length;
    }
    const Wv = loop ? W * LOOP_MULTIPLIER : W;
    let WE = 0;
    const rest: number[] = [];
    for (const ei of out[v]!) {
      if (isLoopExit.has(ei)) {
        if (!Number.isNaN(weight[ei]!)) WE += weight[ei]!;
      } else rest.push(ei);
    }
    for (const ei of rest) if (Number.isNaN(weight[ei]!)) weight[ei] = Math.max(Wv - WE, 0) / rest.length;
    for (const ei of out[v]!) {
      if (back.has(ei)) continue;
      const w = g.edges[ei]!.to;
      if (--indeg[w] === 0) ready.push(w);
    }
  }
  // Edges the traversal never reached (unreachable code, exits of loops whose entry was not
  // reached first) get weight 0: they are the cheapest to instrument.
  return weight.map((w) => (Number.isNaN(w) ? 0 : w));
}
