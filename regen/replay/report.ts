/**
 * Replay results for people (tables) and for scripts (JSON). Tables: one row per process
 * instance (with --per-process) and the total: references by kind, misses of the instruction
 * and data sides, miss ratios (misses / line accesses), write-backs, and the interference
 * columns (lines lost to other processes, misses that evicted another process's line).
 */
import { fmtGeometry } from '../cachesim.js';
import { type CacheSummary, missRatio, type RefCounts } from '../cachesim_replay.js';

const pct = (v: number): string => `${(100 * v).toFixed(3)}%`;

function cells(c: RefCounts): string[] {
  const iM = c.misses[0];
  const dM = c.misses[1] + c.misses[2];
  return [
    String(c.refs[0]), String(c.refs[1]), String(c.refs[2]),
    String(iM), pct(missRatio(c, [0])), String(dM), pct(missRatio(c, [1, 2])), pct(missRatio(c)),
    String(c.writebacks), String(c.lost), String(c.stolen),
  ];
}

export function describeCache(s: CacheSummary): string {
  return `cache ${fmtGeometry(s.spec)} ${s.spec.split ? 'split I/D (each)' : 'unified'}, LRU, write-back, write-allocate, ` +
    (s.pidTags ? 'lines tagged by process' : 'one address space for all processes');
}

export function formatCacheTable(s: CacheSummary, perProcess: boolean): string {
  const head = ['pid', 'program', 'fetches', 'loads', 'stores', 'I-miss', 'I-ratio', 'D-miss', 'D-ratio', 'ratio', 'write-backs', 'lost', 'stolen'];
  const rows: string[][] = [];
  if (perProcess) for (const p of s.processes) rows.push([String(p.pid), p.program.slice(p.program.lastIndexOf('/') + 1), ...cells(p)]);
  rows.push(['all', `${s.processes.length} processes`, ...cells(s.total)]);
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]): string => r.map((c, i) => (i === 1 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd();
  const lines = [describeCache(s), fmt(head)];
  rows.forEach((r, i) => {
    if (perProcess && i === rows.length - 1) lines.push(w.map((n) => '-'.repeat(n)).join('  '));
    lines.push(fmt(r));
  });
  for (const c of s.caches) {
    lines.push(`${c.name === 'unified' ? 'cache' : `${c.name}-cache`}: ${c.accesses} line accesses, ${c.misses} misses (${pct(c.accesses ? c.misses / c.accesses : 0)}), ` +
      `${c.evictions} evictions, ${c.writebacks} write-backs, ${c.dirtyAtEnd} dirty lines at the end`);
  }
  return `${lines.join('\n')}\n`;
}

/** The summary as JSON-ready data (ratios included so scripts need not recompute them). */
export function cacheJson(s: CacheSummary): Record<string, unknown> {
  const obj = (c: RefCounts): Record<string, unknown> => ({
    refs: { I: c.refs[0], L: c.refs[1], S: c.refs[2] },
    lineAccesses: { I: c.lines[0], L: c.lines[1], S: c.lines[2] },
    misses: { I: c.misses[0], L: c.misses[1], S: c.misses[2] },
    missRatio: { I: missRatio(c, [0]), D: missRatio(c, [1, 2]), all: missRatio(c) },
    writebacks: c.writebacks, lost: c.lost, stolen: c.stolen,
  });
  return {
    geometry: { size: s.spec.size, line: s.spec.line, assoc: s.spec.assoc, split: s.spec.split, text: fmtGeometry(s.spec) },
    policy: { replacement: 'LRU', write: 'write-back', allocate: 'write-allocate', pidTags: s.pidTags },
    total: obj(s.total),
    processes: s.processes.map((p) => ({ pid: p.pid, program: p.program, ...obj(p) })),
    caches: s.caches,
  };
}
