/**
 * The cache simulator (regen/cachesim.ts, regen/cachesim_replay.ts):
 *   - geometry parsing, and clear errors for bad geometries;
 *   - small cases worked out by hand in the manner of Dinero's documentation (each expectation
 *     is derived in the comment next to it);
 *   - random multi-process streams against the naive oracle of support/refsim.ts, over
 *     direct-mapped, set-associative (including a non-power-of-two way count), fully associative,
 *     unified and split caches, with and without address-space tags: every per-process counter
 *     and every per-cache counter must agree.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Prng } from '../../../format/prng.js';
import { Cache, GeometryError, makeCache, parseCacheSpec, fmtGeometry, WIDE_ASSOC, type CacheSpec } from '../../../regen/cachesim.js';
import { WideCache } from '../../../regen/cachesim_wide.js';
import { CacheReplay } from '../../../regen/cachesim_replay.js';
import { REF_I_RUN } from '../../../regen/replay/consumer.js';
import { RefReplay } from './support/refsim.js';

const I = 0;
const L = 1;
const S = 2;

describe('geometry', () => {
  it('parses SIZE:LINE:ASSOC with K/M suffixes, full and split', () => {
    expect(parseCacheSpec('64K:32:4')).toEqual({ size: 65536, line: 32, assoc: 4, split: false });
    expect(parseCacheSpec('1M:64:8,split')).toEqual({ size: 1 << 20, line: 64, assoc: 8, split: true });
    expect(parseCacheSpec('8k:16:full')).toEqual({ size: 8192, line: 16, assoc: 512, split: false });
    expect(parseCacheSpec('96K:32:3')).toEqual({ size: 96 * 1024, line: 32, assoc: 3, split: false });
    expect(fmtGeometry(parseCacheSpec('8K:16:full'))).toBe('8K:16:full');
    expect(fmtGeometry(parseCacheSpec('64K:32:4'))).toBe('64K:32:4');
  });

  const bad: [string, RegExp][] = [
    ['64K:32', /expected SIZE:LINE:ASSOC/],
    ['64Q:32:4', /the size '64Q' is not a number of bytes/],
    ['64K:33:4', /the line size 33 is not a power of two/],
    ['64K:0:4', /the line size 0 is not a power of two/],
    ['64:128:1', /the line size 128 is larger than the cache/],
    ['64K:32:0', /associativity must be a positive integer/],
    ['64K:32:two', /the associativity 'two' is not a positive integer/],
    ['64K:32:3', /2048 lines cannot be divided into sets of 3 ways/],
    ['96K:32:4', /768 sets .* is not a power of two/],
    ['1000:8:1', /125 sets .* is not a power of two/],
    ['64K:32:4,splitt', /unknown option 'splitt'/],
  ];
  for (const [spec, msg] of bad) {
    it(`rejects ${spec}`, () => {
      expect(() => parseCacheSpec(spec)).toThrow(GeometryError);
      expect(() => parseCacheSpec(spec)).toThrow(msg);
      expect(() => parseCacheSpec(spec)).toThrow(`cache geometry '${spec}'`);
    });
  }
});

/** Replays (pid, kind, addr, size) tuples; returns the summary. */
function run(spec: string, refs: [number, number, number, number][], pidTags = true): ReturnType<CacheReplay['summary']> {
  const c = new CacheReplay(parseCacheSpec(spec), pidTags);
  for (const [pid, kind, addr, size] of refs) c.ref(pid, kind, addr, size);
  return c.summary();
}

describe('hand-computed cases', () => {
  it('direct-mapped: conflict misses and a dirty eviction', () => {
    // 64 bytes, 16-byte lines, 1 way: 4 sets, set = (addr >> 4) & 3.
    //   R 0x00  set 0 miss (cold)
    //   R 0x04  set 0 hit (same line)
    //   R 0x40  set 0 miss, evicts line 0x00 (clean)
    //   R 0x00  set 0 miss, evicts line 0x40 (clean)
    //   W 0x10  set 1 miss (write-allocate), line dirty
    //   R 0x50  set 1 miss, evicts dirty line 0x10: one write-back
    const s = run('64:16:1', [[1, L, 0x00, 4], [1, L, 0x04, 4], [1, L, 0x40, 4], [1, L, 0x00, 4], [1, S, 0x10, 4], [1, L, 0x50, 4]]);
    expect(s.total.refs).toEqual([0, 5, 1]);
    expect(s.total.misses).toEqual([0, 4, 1]);
    expect(s.total.writebacks).toBe(1);
    expect(s.caches[0]).toMatchObject({ accesses: 6, misses: 5, evictions: 3, writebacks: 1, dirtyAtEnd: 0 });
  });

  it('2-way LRU evicts the least recently used, not the first filled', () => {
    // 64 bytes, 16-byte lines, 2 ways: 2 sets; lines A=0x00, B=0x20, C=0x40 all map to set 0.
    //   A miss, B miss, A hit (A becomes most recent), C miss evicting B (LRU; FIFO would evict A),
    //   A hit, B miss evicting C. Four misses, two hits.
    const s = run('64:16:2', [[1, L, 0x00, 4], [1, L, 0x20, 4], [1, L, 0x00, 4], [1, L, 0x40, 4], [1, L, 0x00, 4], [1, L, 0x20, 4]]);
    expect(s.total.misses).toEqual([0, 4, 0]);
    expect(s.total.lines).toEqual([0, 6, 0]);
  });

  it('a reference across a line boundary accesses both lines', () => {
    // 16-byte lines: a 4-byte load at 0x0e covers 0x0e..0x11, lines 0 and 1 (two misses); an
    // 8-byte store at 0x08 covers line 0 only (a hit); a 2-byte load at 0xffffffff wraps to lines
    // 0x0fffffff and 0 (one miss, one hit).
    const s = run('1K:16:2', [[1, L, 0x0e, 4], [1, S, 0x08, 8], [1, L, 0xffffffff, 2]]);
    expect(s.total.refs).toEqual([0, 2, 1]);
    expect(s.total.lines).toEqual([0, 4, 1]);
    expect(s.total.misses).toEqual([0, 3, 0]);
    expect(s.caches[0]!.dirtyAtEnd).toBe(1);
  });

  it('split caches keep fetches and data apart', () => {
    // One-line caches: a fetch and a load of the same line each miss once in their own cache;
    // a unified one-line cache sees the load hit.
    const refs: [number, number, number, number][] = [[1, I, 0x100, 4], [1, L, 0x100, 4], [1, I, 0x104, 4]];
    expect(run('16:16:1,split', refs).total.misses).toEqual([1, 1, 0]);
    expect(run('16:16:1', refs).total.misses).toEqual([1, 0, 0]);
  });

  it('processes: tagged address spaces, interference counted', () => {
    // One 16-byte line. pid 1 loads 0x100, pid 2 loads 0x100: with tags, two lines of two address
    // spaces (pid 2's miss evicts pid 1's line: pid 2 stole one, pid 1 lost one); pid 1 again:
    // miss, stealing back. Without tags: one line, one miss, two hits.
    const refs: [number, number, number, number][] = [[1, L, 0x100, 4], [2, L, 0x100, 4], [1, L, 0x104, 4]];
    const t = run('16:16:1', refs, true);
    expect(t.processes.map((p) => [p.pid, p.misses[L], p.stolen, p.lost])).toEqual([[1, 2, 1, 1], [2, 1, 1, 1]]);
    const u = run('16:16:1', refs, false);
    expect(u.total.misses[L]).toBe(1);
    expect(u.total.stolen).toBe(0);
  });

  it('a pid used again after its exit is a new address space and a new row', () => {
    const c = new CacheReplay(parseCacheSpec('1K:16:4'));
    c.exec(5, '/bin/a');
    c.ref(5, L, 0x200, 4);
    c.exit(5, 0);
    c.exec(5, '/bin/b');
    c.ref(5, L, 0x200, 4);
    const s = c.summary();
    expect(s.processes.map((p) => [p.pid, p.program, p.misses[L]])).toEqual([[5, '/bin/a', 1], [5, '/bin/b', 1]]);
  });
});

interface Ev {
  t: 'ref' | 'fork' | 'exec' | 'exit';
  pid: number;
  kind?: number;
  addr?: number;
  size?: number;
  child?: number;
  path?: string;
}

/**
 * A stream with the shapes of real ones: runs of sequential fetches, jumps, data references to
 * a few hot regions (so there are hits, conflicts and dirty evictions), odd sizes at odd
 * addresses (line crossings, wrap at 2^32), switches between processes, fork, exec, exit and
 * pid reuse.
 */
function stream(seed: number, n: number): Ev[] {
  const r = new Prng(seed);
  const out: Ev[] = [];
  const live = [1, 2, 3];
  const pc = new Map<number, number>();
  let pid = 1;
  let nextPid = 4;
  const hot = [0x10000000, 0x7fffe000, 0x00400000, 0xfffffff0, 0x10008000];
  for (let i = 0; i < n; i++) {
    const x = r.u32() % 1000;
    if (x < 500) {
      let a = pc.get(pid) ?? 0x400000 + 0x1000 * (pid % 3);
      const k = 1 + (r.u32() % 20);
      for (let j = 0; j < k; j++, a = (a + 4) >>> 0) out.push({ t: 'ref', pid, kind: I, addr: a, size: 4 });
      pc.set(pid, r.u32() % 8 === 0 ? (0x400000 + ((r.u32() % 0x4000) & ~3)) >>> 0 : a);
    } else if (x < 940) {
      const base = hot[r.u32() % hot.length]!;
      const sizes = [1, 2, 4, 4, 4, 8, 3, 16];
      const size = sizes[r.u32() % sizes.length]!;
      const addr = (base + (r.u32() % 0x3000)) >>> 0;
      out.push({ t: 'ref', pid, kind: r.u32() % 3 === 0 ? S : L, addr: size >= 4 && r.u32() % 4 !== 0 ? (addr & ~(size - 1)) >>> 0 : addr, size });
    } else if (x < 980) {
      pid = live[r.u32() % live.length]!;
    } else if (x < 988) {
      const child = r.u32() % 4 === 0 && !live.includes(2) ? 2 : nextPid++;
      if (!live.includes(child)) {
        out.push({ t: 'fork', pid, child });
        live.push(child);
      }
    } else if (x < 994) {
      out.push({ t: 'exec', pid, path: `/bin/p${r.u32() % 5}` });
    } else if (live.length > 1) {
      out.push({ t: 'exit', pid });
      live.splice(live.indexOf(pid), 1);
      pid = live[r.u32() % live.length]!;
    }
  }
  return out;
}

function feed(evs: Ev[], c: { ref(p: number, k: number, a: number, s: number): void; fork(a: number, b: number): void; exec(p: number, s: string): void; exit(p: number, s: number): void }): void {
  for (const e of evs) {
    if (e.t === 'ref') c.ref(e.pid, e.kind!, e.addr!, e.size!);
    else if (e.t === 'fork') c.fork(e.pid, e.child!);
    else if (e.t === 'exec') c.exec(e.pid, e.path!);
    else c.exit(e.pid, 0);
  }
}

function compare(spec: CacheSpec, pidTags: boolean, evs: Ev[]): void {
  const real = new CacheReplay(spec, pidTags);
  const ref = new RefReplay(spec.size, spec.line, spec.assoc, spec.split, pidTags);
  feed(evs, real);
  feed(evs, ref);
  const s = real.summary();
  expect(s.processes.map((p) => ({ ...p, refs: [...p.refs], lines: [...p.lines], misses: [...p.misses] }))).toEqual(ref.rows.filter((r) => r.refs[0]! + r.refs[1]! + r.refs[2]! > 0).sort((a, b) => a.pid - b.pid));
  const caches = spec.split ? [ref.icache, ref.dcache] : [ref.icache];
  expect(s.caches.map((c) => [c.accesses, c.misses, c.evictions, c.writebacks, c.dirtyAtEnd]))
    .toEqual(caches.map((c) => [c.accesses, c.misses, c.evictions, c.writebacks, c.dirtyLines()]));
  // The stream must exercise what it is meant to: misses, hits, evictions and crossings.
  const t = s.total;
  expect(t.misses[0] + t.misses[1] + t.misses[2]).toBeGreaterThan(0);
  expect(t.lines[1]).toBeGreaterThan(t.refs[1]);
}

describe('random multi-process streams against the naive oracle', () => {
  // Both implementations: up to WIDE_ASSOC ways the recency-ordered sets, above it the hashed lists.
  const geometries = ['256:16:1', '1K:16:2', '2K:32:4', '1536:32:3', '512:16:full', '4K:64:8', '64:8:2', '16K:32:4', '2K:16:16', '8K:16:32', '16K:16:full', '24K:16:24'];
  for (const g of geometries) {
    for (const split of [false, true]) {
      for (const pidTags of [true, false]) {
        it(`${g}${split ? ',split' : ''}${pidTags ? '' : ' (one address space)'}`, () => {
          const spec = { ...parseCacheSpec(g), split };
          compare(spec, pidTags, stream(g.length * 7 + (split ? 1 : 0) + (pidTags ? 2 : 0), 20000));
        });
      }
    }
  }

  it('any small geometry (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }), fc.integer({ min: 0, max: 4 }), fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 17, max: 40 })), fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 1e6 }),
        (lineLog, setLog, assoc, split, pidTags, seed) => {
          const line = 1 << lineLog;
          const spec: CacheSpec = { size: line * assoc * (1 << setLog), line, assoc, split };
          compare(spec, pidTags, stream(seed, 3000));
        },
      ),
      { numRuns: 60 },
    );
  });
});

/**
 * The stream as a source's batches deliver it (RefConsumer.refBatch): each process's refs in
 * batches of up to 64 entries, sequential fetches folded into REF_I_RUN entries of up to 255.
 */
function feedBatches(evs: Ev[], c: CacheReplay): void {
  const kind = new Uint8Array(64);
  const addr = new Uint32Array(64);
  const size = new Uint8Array(64);
  let n = 0;
  let pid = -1;
  const flush = (): void => {
    if (n > 0) c.refBatch(pid, n, kind, addr, size);
    n = 0;
  };
  for (const e of evs) {
    if (e.t !== 'ref') {
      flush();
      if (e.t === 'fork') c.fork(e.pid, e.child!);
      else if (e.t === 'exec') c.exec(e.pid, e.path!);
      else c.exit(e.pid, 0);
      continue;
    }
    if (e.pid !== pid) flush();
    pid = e.pid;
    const last = n - 1;
    if (e.kind === I && last >= 0 && kind[last] === REF_I_RUN && size[last]! < 255 && ((addr[last]! + 4 * size[last]!) >>> 0) === e.addr) {
      size[last]!++;
      continue;
    }
    if (n === kind.length) flush();
    kind[n] = e.kind === I ? REF_I_RUN : e.kind!;
    addr[n] = e.addr!;
    size[n] = e.kind === I ? 1 : e.size!;
    n++;
  }
  flush();
}

describe('batches with runs of fetches (refBatch) against the naive oracle', () => {
  // Lines of 1 and 2 bytes: every fetch crosses; 4 and more: a run accesses each line once.
  for (const g of ['32:1:1', '64:2:2', '256:4:2', '1K:16:2', '2K:32:4,split', '8K:16:32', '512:16:full']) {
    it(g, () => {
      const spec = parseCacheSpec(g);
      for (const pidTags of [true, false]) {
        const evs = stream(g.length * 13 + (pidTags ? 1 : 0), 20000);
        // A run that wraps at 2^32.
        evs.push({ t: 'ref', pid: 1, kind: I, addr: 0xfffffff8, size: 4 }, { t: 'ref', pid: 1, kind: I, addr: 0xfffffffc, size: 4 }, { t: 'ref', pid: 1, kind: I, addr: 0, size: 4 });
        const real = new CacheReplay(spec, pidTags);
        const one = new CacheReplay(spec, pidTags);
        const ref = new RefReplay(spec.size, spec.line, spec.assoc, spec.split, pidTags);
        feedBatches(evs, real);
        feed(evs, one);
        feed(evs, ref);
        const rows = (x: CacheReplay): unknown => x.summary().processes.map((p) => ({ ...p, refs: [...p.refs], lines: [...p.lines], misses: [...p.misses] }));
        expect(rows(real)).toEqual(ref.rows.filter((r) => r.refs[0]! + r.refs[1]! + r.refs[2]! > 0).sort((a, b) => a.pid - b.pid));
        expect(real.summary()).toEqual(one.summary());
      }
    });
  }
});

describe('Cache and WideCache', () => {
  for (const g of [{ size: 256, line: 16, assoc: 4 }, { size: 1024, line: 16, assoc: 32 }, { size: 512, line: 16, assoc: 32 }]) {
    it(`${fmtGeometry(g)}: never more valid lines than it has; every way of a set filled before evicting`, () => {
      const c = makeCache(g);
      expect(c).toBeInstanceOf(g.assoc > WIDE_ASSOC ? WideCache : Cache);
      const lines = g.size / g.line;
      for (let i = 0; i < lines; i++) expect(c.access(i, i, false, 0)).toBe(false);
      expect(c.evictions).toBe(0);
      expect(c.validLines()).toBe(lines);
      for (let i = 0; i < lines; i++) expect(c.access(i, i, false, 0)).toBe(true);
      expect(c.access(lines, lines, true, 0)).toBe(false);
      expect(c.evictions).toBe(1);
      expect(c.validLines()).toBe(lines);
      expect(c.dirtyLines()).toBe(1);
    });
  }

  it('the hashed lines survive heavy churn (keys beyond 2^32, removals inside probe runs)', () => {
    const g = { size: 64 * 16, line: 16, assoc: 64 };
    const wide = new WideCache(g);
    const ref = new RefReplay(g.size, g.line, g.assoc, false, true);
    const r = new Prng(99);
    for (let i = 0; i < 200000; i++) {
      const space = r.u32() % 7;
      const line = r.u32() % 150;
      const w = r.u32() % 4 === 0;
      const hit = wide.access(space * 4294967296 + line, line, w, space);
      const v = ref.icache.access(`#${space}`, line, w, space);
      expect(hit).toBe(v === null);
    }
    expect(wide.validLines()).toBe(64);
    expect([wide.misses, wide.evictions, wide.writebacks, wide.dirtyLines()]).toEqual([ref.icache.misses, ref.icache.evictions, ref.icache.writebacks, ref.icache.dirtyLines()]);
  });
});
