/**
 * Structured JavaScript control flow from a control-flow graph, for the region translators of
 * both CPUs (cpu/mips/region.ts, cpu/sparc/region.ts): a region of guest code — basic blocks
 * joined by their static branches — becomes one JS function body in which every branch between
 * two blocks of the region is a plain JS jump (if/else, `break` out of a labelled block,
 * `continue` of a labelled loop), not a return to a dispatch loop. V8 compiles those to direct
 * machine branches; a transition through the dispatch loop costs an indirect call.
 *
 * The construction is the dominator-tree one of N. Ramsey, "Beyond Relooper" (ICFP 2022):
 * nodes in reverse postorder; a node with a back edge into it opens a labelled `for (;;)` loop
 * (back edges are `continue L<v>`); a node with two or more forward predecessors ("merge node")
 * is placed after a labelled block `B<v>: { ... }` that its immediate dominator opens, and
 * forward edges into it are `break B<v>`; any other successor is dominated by its only
 * predecessor and is emitted in place. Every path of a node's code must end in a transfer (a
 * branch to a successor, or an exit produced by the caller), so no loop body falls off its end.
 *
 * Irreducible graphs (a retreating edge into a node that does not dominate its source) cannot be
 * expressed this way: such edges are reported to the caller's `exit` instead, as if they left
 * the region, and the remaining graph is structured.
 */

export interface StructuredSource {
  /** Number of nodes; node 0 is the entry. */
  readonly n: number;
  /** Successors of node v inside the region (each at most once). */
  succs(v: number): readonly number[];
  /**
   * The code of node v. `branch(w)` returns the statement(s) transferring control to successor
   * w; the node code must end every path with such a transfer or with an exit of its own.
   */
  node(v: number, branch: (w: number) => string): string;
  /** Code leaving the region towards node w (an edge the structure cannot express). */
  exit(v: number, w: number): string;
}

/** The function body (statements) for the graph, entered at node 0. */
export function structure(src: StructuredSource): string {
  const n = src.n;
  const dropped = new Set<number>(); // v * n + w: edges turned into exits
  const succ = (v: number): number[] => src.succs(v).filter((w) => !dropped.has(v * n + w));
  for (;;) {
    const a = analyse(n, succ);
    let bad = false;
    for (let v = 0; v < n; v++) {
      if (a.rpo[v]! < 0) continue;
      for (const w of succ(v)) {
        if (a.rpo[w]! <= a.rpo[v]! && !dominates(a.idom, w, v)) {
          dropped.add(v * n + w);
          bad = true;
        }
      }
    }
    if (!bad) return emit(src, a, succ, dropped);
  }
}

interface Analysis {
  /** Reverse-postorder number of each node (-1: unreachable). */
  rpo: Int32Array;
  /** Nodes in reverse postorder. */
  order: number[];
  /** Immediate dominator (the entry's is itself; -1: unreachable). */
  idom: Int32Array;
}

function analyse(n: number, succ: (v: number) => number[]): Analysis {
  const rpo = new Int32Array(n).fill(-1);
  const post: number[] = [];
  const seen = new Uint8Array(n);
  // Iterative depth-first search (regions are small, but their chains can be long).
  const stack: [number, number][] = [[0, 0]];
  seen[0] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const ss = succ(top[0]);
    if (top[1] < ss.length) {
      const w = ss[top[1]++]!;
      if (!seen[w]) {
        seen[w] = 1;
        stack.push([w, 0]);
      }
    } else {
      post.push(top[0]);
      stack.pop();
    }
  }
  const order = post.reverse();
  order.forEach((v, i) => {
    rpo[v] = i;
  });
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (const v of order) for (const w of succ(v)) preds[w]!.push(v);
  // Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm".
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rpo[a]! > rpo[b]!) a = idom[a]!;
      while (rpo[b]! > rpo[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const v of order) {
      if (v === 0) continue;
      let d = -1;
      for (const p of preds[v]!) if (idom[p]! >= 0) d = d < 0 ? p : intersect(p, d);
      if (d !== idom[v]) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  return { rpo, order, idom };
}

function dominates(idom: Int32Array, a: number, b: number): boolean {
  for (let v = b; ; v = idom[v]!) {
    if (v === a) return true;
    if (v === 0 || v < 0) return false;
  }
}

function emit(src: StructuredSource, a: Analysis, succ: (v: number) => number[], dropped: Set<number>): string {
  const { rpo, order, idom } = a;
  const n = src.n;
  const loopHeader = new Uint8Array(n);
  const fwdIn = new Int32Array(n);
  for (const v of order) {
    for (const w of succ(v)) {
      if (rpo[w]! <= rpo[v]!) loopHeader[w] = 1;
      else fwdIn[w]!++;
    }
  }
  const children: number[][] = Array.from({ length: n }, () => []);
  for (const v of order) if (v !== 0) children[idom[v]!]!.push(v);
  const tree = (v: number): string => {
    // Merge children, the one placed last (highest RPO number) first.
    const merges = children[v]!.filter((c) => fwdIn[c]! >= 2).sort((x, y) => rpo[y]! - rpo[x]!);
    const body = within(v, merges);
    return loopHeader[v] ? `L${v}: for (;;) {\n${body}\n}` : body;
  };
  const within = (v: number, merges: number[]): string => {
    if (merges.length === 0) {
      return src.node(v, (w) => {
        if (dropped.has(v * n + w)) return src.exit(v, w);
        if (rpo[w]! <= rpo[v]!) return `continue L${w};`;
        if (fwdIn[w]! >= 2) return `break B${w};`;
        return tree(w);
      });
    }
    const [y, ...rest] = merges;
    return `B${y}: {\n${within(v, rest)}\n}\n${tree(y!)}`;
  };
  return tree(0);
}
