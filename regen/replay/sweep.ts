/**
 * A cache-size sweep: one pass over the stream feeds a grid of caches (sizes x associativities,
 * one line size, unified or split) and gives the miss ratio of each — the 2-D table of the
 * classic trace-driven studies. The grid is an ndarray (rows: sizes, columns: associativities);
 * it is filled after the pass, never touched per event.
 */
import ndarray, { type NdArray } from 'ndarray';
import { checkGeometry, fmtBytes, GeometryError, parseBytes, type CacheSpec } from '../cachesim.js';
import { CacheReplay, missRatio } from '../cachesim_replay.js';
import type { RefConsumer } from './consumer.js';

export interface SweepGrid {
  sizes: number[];
  /** Ways per set; 0 stands for fully associative. */
  assocs: number[];
  line: number;
  split: boolean;
}

export interface SweepResult extends SweepGrid {
  /** Miss ratio per [size, assoc]; NaN where the geometry is impossible (fewer lines than ways). */
  ratio: NdArray<Float64Array>;
  /** Line accesses and misses per [size, assoc]. */
  lines: NdArray<Float64Array>;
  misses: NdArray<Float64Array>;
}

/** "4K..256K" (every power of two between) or "4K,16K,64K". */
export function parseSizes(s: string): number[] {
  const range = /^([^.,]+)\.\.([^.,]+)$/.exec(s);
  if (range) {
    const lo = parseBytes(range[1]!);
    const hi = parseBytes(range[2]!);
    if (Number.isNaN(lo) || Number.isNaN(hi)) throw new GeometryError(s, 'a size range is LOW..HIGH, e.g. 4K..256K');
    if ((lo & (lo - 1)) !== 0 || lo <= 0) throw new GeometryError(s, `the low end ${lo} of a size range must be a power of two`);
    if (hi < lo) throw new GeometryError(s, 'the range is empty');
    const out: number[] = [];
    for (let v = lo; v <= hi; v *= 2) out.push(v);
    return out;
  }
  return s.split(',').map((x) => {
    const v = parseBytes(x);
    if (Number.isNaN(v) || v <= 0) throw new GeometryError(s, `'${x}' is not a size (K and M suffixes allowed)`);
    return v;
  });
}

/** "1,2,4,8,full". */
export function parseAssocs(s: string): number[] {
  return s.split(',').map((x) => {
    if (x === 'full') return 0;
    if (!/^\d+$/.test(x) || Number(x) < 1) throw new GeometryError(s, `'${x}' is not a positive number of ways or "full"`);
    return Number(x);
  });
}

/** The caches of a sweep, fed by one stream. */
export class Sweep implements RefConsumer {
  private readonly cells: (CacheReplay | null)[] = [];
  private readonly live: CacheReplay[] = [];

  constructor(readonly grid: SweepGrid, pidTags: boolean) {
    for (const size of grid.sizes) {
      for (const a of grid.assocs) {
        const assoc = a === 0 ? size / grid.line : a;
        const spec: CacheSpec = { size, line: grid.line, assoc, split: grid.split };
        let ok = true;
        try {
          checkGeometry(spec);
        } catch (e) {
          if (!(e instanceof GeometryError)) throw e;
          // Fewer lines than ways: the cell stays empty; any other fault is the user's to fix.
          if (!(size >= grid.line && size / grid.line < assoc)) throw e;
          ok = false;
        }
        const c = ok ? new CacheReplay(spec, pidTags) : null;
        this.cells.push(c);
        if (c) this.live.push(c);
      }
    }
  }

  ref(pid: number, kind: number, addr: number, size: number): void {
    const l = this.live;
    for (let i = 0; i < l.length; i++) l[i]!.ref(pid, kind, addr, size);
  }

  refBatch(pid: number, n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
    const l = this.live;
    for (let i = 0; i < l.length; i++) l[i]!.refBatch(pid, n, kind, addr, size);
  }

  fork(parent: number, child: number): void {
    for (const c of this.live) c.fork(parent, child);
  }
  exec(pid: number, path: string): void {
    for (const c of this.live) c.exec(pid, path);
  }
  exit(pid: number, _status?: number): void {
    for (const c of this.live) c.exit(pid);
  }
  switchTo(): void {}
  end(): void {}

  /** A cache of the grid (every one saw the whole stream), or undefined when none is possible. */
  first(): CacheReplay | undefined {
    return this.live[0];
  }

  result(): SweepResult {
    const nS = this.grid.sizes.length;
    const nA = this.grid.assocs.length;
    const ratio = ndarray(new Float64Array(nS * nA).fill(NaN), [nS, nA]);
    const lines = ndarray(new Float64Array(nS * nA).fill(NaN), [nS, nA]);
    const misses = ndarray(new Float64Array(nS * nA).fill(NaN), [nS, nA]);
    for (let i = 0; i < nS; i++) {
      for (let j = 0; j < nA; j++) {
        const c = this.cells[i * nA + j];
        if (!c) continue;
        const t = c.summary().total;
        ratio.set(i, j, missRatio(t));
        lines.set(i, j, t.lines[0] + t.lines[1] + t.lines[2]);
        misses.set(i, j, t.misses[0] + t.misses[1] + t.misses[2]);
      }
    }
    return { ...this.grid, ratio, lines, misses };
  }
}

/** The miss-ratio table: a row per size, a column per associativity, in percent. */
export function formatSweep(r: SweepResult): string {
  const head = ['size', ...r.assocs.map((a) => (a === 0 ? 'full' : `${a}-way`))];
  const rows = r.sizes.map((s, i) => [fmtBytes(s), ...r.assocs.map((_, j) => {
    const v = r.ratio.get(i, j);
    return Number.isNaN(v) ? '-' : `${(100 * v).toFixed(3)}%`;
  })]);
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (row: string[]): string => row.map((c, i) => c.padStart(w[i]!)).join('  ');
  return [`miss ratio, ${r.line}-byte lines, ${r.split ? 'split I/D (each of the size)' : 'unified'}, LRU`, fmt(head), ...rows.map(fmt)].join('\n') + '\n';
}

/** The sweep as plain JSON (nested arrays: [size][assoc]). */
export function sweepJson(r: SweepResult): Record<string, unknown> {
  const grid = (a: NdArray<Float64Array>): (number | null)[][] =>
    r.sizes.map((_, i) => r.assocs.map((__, j) => (Number.isNaN(a.get(i, j)) ? null : a.get(i, j))));
  return {
    line: r.line, split: r.split, sizes: r.sizes, assocs: r.assocs.map((a) => (a === 0 ? 'full' : a)),
    missRatio: grid(r.ratio), lineAccesses: grid(r.lines), misses: grid(r.misses),
  };
}
