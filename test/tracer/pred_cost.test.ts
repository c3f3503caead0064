/**
 * The price of a predicate's witnesses (tracer/pred_cost.ts decisionSavings): what the placement
 * stops writing when the predicate is decided as well, on two hand-made graphs whose placements
 * (tracer/placement.ts, Ball–Larus weights) are worked out in the comments.
 */
import { describe, expect, it } from 'vitest';
import { decisionSavings, witnessBytes } from '../../tracer/pred_cost.js';
import type { PlacementInput } from '../../tracer/placement.js';

function graph(n: number, exit: number, edges: [number, number][], decided: number[] = []): PlacementInput {
  return {
    n, exit, entries: [0], edges: edges.map(([from, to]) => ({ from, to })),
    blockingVertices: new Set(), blockingEdges: new Set(), valueEdges: new Set(), decided: new Set(decided),
  };
}

describe('decisionSavings', () => {
  it('a diamond followed by another predicate saves the chord the spanning tree witnesses', () => {
    // 0 -> 1 | 2 (e0, e1); 1 -> 3, 2 -> 3 (e2, e3); 3 -> 5 | 6 (e4, e5); 5, 6 -> EXIT 7.
    // EXIT's blockers are 3's out-edges (e4, e5); the tree over the rest leaves the chord e3
    // (equal weights, edge order), which 0 needs to tell its two ways apart.
    const g = graph(8, 7, [[0, 1], [0, 2], [1, 3], [2, 3], [3, 5], [3, 6], [5, 7], [6, 7]]);
    const freq = [0.7, 0.3, 0.7, 0.3, 0.5, 0.5, 0.5, 0.5];
    expect(witnessBytes(g, freq)).toBeCloseTo(0.3 + 0.5 + 0.5);
    const saved = decisionSavings(g, [0, 3], freq);
    expect(saved.get(0)).toBeCloseTo(0.3);
    // Deciding 3 instead moves EXIT's blockers up to 0's out-edges (e0 + e1 = 1.0, what e4 + e5
    // cost), and the chord e3 is then seen by no predicate: 0.3 saved as well.
    expect(saved.get(3)).toBeCloseTo(0.3);
  });

  it('a predicate whose blocking witnesses would move to the edge into it saves nothing until that one is decided', () => {
    // q = 0 -> 1 | 4 (e0, e1); p = 1 -> 2 | 3 (e2, e3); 2, 3, 4 -> EXIT 5. EXIT's blockers are
    // e1, e2, e3 (1.0 per run). Deciding p makes e0 a blocker instead (0.6 + 0.4: nothing saved);
    // deciding q leaves e2, e3 (0.6: q's own e1 saved); with q decided, deciding p saves e2 + e3.
    const edges: [number, number][] = [[0, 1], [0, 4], [1, 2], [1, 3], [2, 5], [3, 5], [4, 5]];
    const freq = [0.6, 0.4, 0.3, 0.3, 0.3, 0.3, 0.4];
    const none = decisionSavings(graph(6, 5, edges), [0, 1], freq);
    expect([...none.keys()]).toEqual([0]);
    expect(none.get(0)).toBeCloseTo(0.4);
    const afterQ = decisionSavings(graph(6, 5, edges, [0]), [1], freq);
    expect(afterQ.get(1)).toBeCloseTo(0.6);
  });
});
