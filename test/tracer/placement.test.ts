/**
 * Witness placement on random control-flow graphs (fast-check), ball-larus-1994 section 4:
 *   - the placement solves the tracing problem: at every undecided predicate the witness sets of
 *     the out-edges are disjoint, and no witness-free path leads from it to a call vertex, a
 *     value-recording vertex or edge, or EXIT (the blocking property);
 *   - regeneration (Figure 15 with a stack of procedures) rebuilds a random execution — random
 *     walks through several procedures calling each other — from its witness string alone, the
 *     decided predicates (some two-way vertices, as tracer/decide.ts marks the branches whose
 *     condition regeneration evaluates) answered by an oracle that knows the execution's choice.
 * Also the heuristic weighting on a known shape (a loop with a conditional).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTracing, placeWitnesses, placeWitnessSet, predicates, type PlacementInput } from '../../tracer/placement.js';
import { placeDecidingEach } from '../../tracer/place_each.js';
import { heuristicWeights, LOOP_MULTIPLIER, outEdges } from '../../tracer/weight.js';

interface Proc {
  g: PlacementInput;
  /** Vertex -> callee procedure (call vertices). */
  calls: Map<number, number>;
}

/**
 * A random procedure: vertices 0..n-1 (0 the root), EXIT = n. Every vertex gets 1..3 successors
 * among all vertices and EXIT; vertex i always has an edge to i+1 (or EXIT), so everything is
 * reachable from the root and reaches EXIT. Some vertices are calls (one successor), some record
 * values, some edges record values, some two-way vertices are decided predicates.
 */
const procArb = (nprocs: number): fc.Arbitrary<Omit<Proc, 'calls'> & { callees: number[] }> =>
  fc.integer({ min: 1, max: 12 }).chain((n) =>
    fc.record({
      succ: fc.array(fc.array(fc.integer({ min: 0, max: n }), { minLength: 0, maxLength: 2 }), { minLength: n, maxLength: n }),
      kind: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }),
      callees: fc.array(fc.integer({ min: 0, max: nprocs - 1 }), { minLength: n, maxLength: n }),
      valueEdge: fc.array(fc.boolean(), { minLength: 3 * n, maxLength: 3 * n }),
    }).map(({ succ, kind, callees, valueEdge }) => {
      const exit = n;
      const edges: { from: number; to: number }[] = [];
      const blockingVertices = new Set<number>();
      for (let v = 0; v < n; v++) {
        const isCall = kind[v]! <= 1;
        const targets = new Set<number>([v + 1 <= n ? v + 1 : exit]);
        if (!isCall) for (const t of succ[v]!) targets.add(t);
        for (const t of targets) edges.push({ from: v, to: t });
        if (isCall || kind[v] === 2) blockingVertices.add(v);
      }
      const blockingEdges = new Set<number>();
      edges.forEach((_, i) => {
        if (valueEdge[i % valueEdge.length] && i % 5 === 0) blockingEdges.add(i);
      });
      const nout = new Array<number>(n).fill(0);
      for (const e of edges) if (e.from < n) nout[e.from]!++;
      const decided = new Set<number>();
      for (let v = 0; v < n; v++) if ((kind[v] === 3 || kind[v] === 4 || kind[v] === 5) && nout[v] === 2) decided.add(v);
      const g: PlacementInput = { n: n + 1, exit, entries: [0], edges, blockingVertices, blockingEdges, valueEdges: new Set(), decided };
      return { g, callees: kind.map((k, v) => (k <= 1 ? callees[v]! : -1)) };
    }),
  );

function proc(p: Omit<Proc, 'calls'> & { callees: number[] }): Proc {
  const calls = new Map<number, number>();
  p.callees.forEach((c, v) => {
    if (c >= 0) calls.set(v, c);
  });
  return { g: p.g, calls };
}

describe('witness placement', () => {
  it('solves the tracing problem and has the blocking property on random CFGs', () => {
    fc.assert(
      fc.property(procArb(1), (p) => {
        const { g } = p;
        const pl = placeWitnesses(g);
        const check = checkTracing(g, pl.witnessed, pl.witness);
        expect(check.ambiguous).toEqual([]);
        expect(check.unblocked).toEqual([]);
        expect(check.undecidable).toEqual([]);
        // Decided predicates get no witness table; every undecided one does.
        const isPred = predicates(g);
        for (const v of g.decided!) expect(check.tables.has(v)).toBe(false);
        isPred.forEach((p, v) => expect(check.tables.has(v)).toBe(p));
        // Witness values fit the chosen width; edges share a value only where no predicate's
        // table tells them apart (ambiguous is empty above); the heaviest witness gets value 0.
        const vals = [...pl.witness.values()];
        expect(Math.max(-1, ...vals)).toBeLessThan(pl.bytes === 1 ? 256 : 65536);
        const heaviest = [...pl.witnessed].sort((a, b) => pl.weights[b]! - pl.weights[a]! || a - b)[0];
        if (heaviest !== undefined) expect(pl.witness.get(heaviest)).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  it('places with one more predicate decided as the whole placement does (placeDecidingEach)', () => {
    // The oracle is placeWitnessSet of the input with the predicate decided as well; the pricing
    // derives most of those placements from the one without it.
    fc.assert(
      fc.property(procArb(1), (p) => {
        const { g } = p;
        const preds = predicates(g).flatMap((x, v) => (x ? [v] : []));
        const { base, each } = placeDecidingEach(g, preds);
        expect(base).toEqual(placeWitnessSet(g));
        preds.forEach((v, k) => {
          expect(each[k] ?? base).toEqual(placeWitnessSet({ ...g, decided: new Set([...g.decided!, v]) }));
        });
      }),
      { numRuns: 400 },
    );
  });

  it('witnesses no predicate tells apart share values (two diamonds split by a call)', () => {
    // 0 -> 1 | 2 -> 3 (a call: a blocking point) -> 4 -> 5 | 6 -> EXIT (7). Each diamond needs a
    // witness on both arms (before the call, before EXIT) and no predicate's witness-free paths
    // reach both diamonds, so the second diamond reuses the first one's values 0 and 1.
    const edges = [
      { from: 0, to: 1 }, { from: 0, to: 2 }, { from: 1, to: 3 }, { from: 2, to: 3 }, { from: 3, to: 4 },
      { from: 4, to: 5 }, { from: 4, to: 6 }, { from: 5, to: 7 }, { from: 6, to: 7 },
    ];
    const g: PlacementInput = { n: 8, exit: 7, entries: [0], edges, blockingVertices: new Set([3]), blockingEdges: new Set(), valueEdges: new Set() };
    const pl = placeWitnesses(g);
    const check = checkTracing(g, pl.witnessed, pl.witness);
    expect(check.ambiguous).toEqual([]);
    expect(check.unblocked).toEqual([]);
    expect([...pl.witnessed].map((e) => pl.witness.get(e)).sort()).toEqual([0, 0, 1, 1]);
    for (const p of [0, 4]) expect([...check.tables.get(p)!.keys()].sort()).toEqual([0, 1]);
  });

  it('regenerating a random execution from its witness string returns that execution', () => {
    const nprocs = 3;
    fc.assert(
      fc.property(
        fc.tuple(procArb(nprocs), procArb(nprocs), procArb(nprocs)),
        fc.array(fc.nat(), { minLength: 400, maxLength: 400 }),
        (ps, choices) => {
          const procs = ps.map(proc);
          const placed = procs.map((p) => {
            const pl = placeWitnesses(p.g);
            return { pl, check: checkTracing(p.g, pl.witnessed, pl.witness) };
          });
          // Execute: a random walk to EXIT, entering callees at call vertices (depth-bounded; a
          // call vertex at the bound is left without its call, as a non-call vertex would be).
          let ci = 0;
          const pick = (k: number): number => choices[ci++ % choices.length]! % k;
          const path: [number, number][] = [];
          const chosen: number[] = [];
          const witnesses: number[] = [];
          let budget = 5000;
          const run = (pi: number, depth: number): void => {
            const { g } = procs[pi]!;
            const out = outEdges(g);
            let v = g.entries[0]!;
            while (v !== g.exit && budget-- > 0) {
              const step = path.length;
              path.push([pi, v]);
              const callee = procs[pi]!.calls.get(v);
              if (callee !== undefined && depth < 4) run(callee, depth + 1);
              const list = out[v]!;
              const e = list[pick(list.length)]!;
              chosen[step] = e; // the callee's steps come between
              if (placed[pi]!.pl.witness.has(e)) witnesses.push(placed[pi]!.pl.witness.get(e)!);
              v = g.edges[e]!.to;
            }
          };
          run(0, 0);
          // A walk that cycled without end (the choices repeat) is no execution: discard it.
          fc.pre(budget > 0);
          // Regenerate from the witnesses alone.
          const out: [number, number][] = [];
          let wi = 0;
          let pending = -1;
          let steps = path.length;
          const regen = (pi: number, depth: number): void => {
            const { g } = procs[pi]!;
            const outs = outEdges(g);
            const isPred = predicates(g);
            let v = g.entries[0]!;
            while (v !== g.exit && steps > 0) {
              const step = out.length;
              out.push([pi, v]);
              steps--;
              const callee = procs[pi]!.calls.get(v);
              if (callee !== undefined && depth < 4) {
                expect(pending).toBe(-1); // the blocking property: nothing read ahead across a call
                regen(callee, depth + 1);
              }
              if (steps === 0) return;
              let e: number;
              if (g.decided!.has(v)) {
                // The oracle: regeneration evaluates the condition, which yields the choice the
                // execution made (the recorded step's edge, which must leave this vertex).
                e = chosen[step]!;
                expect(g.edges[e]!.from).toBe(v);
              } else if (isPred[v]) {
                if (pending < 0) pending = witnesses[wi++]!;
                e = placed[pi]!.check.tables.get(v)!.get(pending)!;
                expect(e).toBeDefined();
              } else e = outs[v]![0]!;
              const w = placed[pi]!.pl.witness.get(e);
              if (w !== undefined) {
                if (pending < 0) pending = witnesses[wi++]!;
                expect(pending).toBe(w);
                pending = -1;
              }
              v = g.edges[e]!.to;
            }
          };
          regen(0, 0);
          expect(out).toEqual(path);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('heuristic weighting', () => {
  it('weights a loop with a conditional as ball-larus-1994 section 5 describes', () => {
    // 0 -> 1 (loop entry) -> 2 | 3 -> 4 -> 1 (back edge); 1 -> 5 (loop exit) -> EXIT 6
    const g = {
      n: 7, exit: 6, entries: [0],
      edges: [{ from: 0, to: 1 }, { from: 1, to: 2 }, { from: 1, to: 3 }, { from: 2, to: 4 }, { from: 3, to: 4 }, { from: 4, to: 1 }, { from: 1, to: 5 }, { from: 5, to: 6 }],
    };
    const w = heuristicWeights(g);
    expect(w[0]).toBe(1);
    expect(w[6]).toBe(1); // the loop exit gets the entry's weight
    expect(w[1]).toBe((LOOP_MULTIPLIER - 1) / 2); // the rest splits evenly between the branches
    expect(w[2]).toBe((LOOP_MULTIPLIER - 1) / 2);
    expect(w[3]! + w[4]!).toBe(LOOP_MULTIPLIER - 1);
    expect(w[7]).toBe(1);
  });
});
