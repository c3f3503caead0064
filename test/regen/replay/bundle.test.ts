/**
 * `emu replay BUNDLE` on trace bundles of the demo image (emu run --trace --truth, a short
 * multi-process command, both architectures):
 *   - the oracle: replaying the regeneration and replaying the bundle's ground truth (restricted
 *     to traced images and mapped back) give identical cache statistics, per process and per
 *     cache, for unified and split caches, with and without address-space tags;
 *   - `emu regen BUNDLE --format din` parses as Dinero din and its counts equal the simulator's
 *     input counts, per label; fed to the oracle simulator it gives the regenerated replay's
 *     misses;
 *   - the timeline of the regeneration (traced processes only) and of the ground truth (every
 *     process) are valid trace-event JSON tiling the run up to the manifest's end cycle; the
 *     regeneration's intervals carry exactly the references the cache saw per process;
 *   - a damaged bundle is refused with the file named and a non-zero status.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsAvailable } from '../../support/tools.js';
import { BUILT, checkTimeline, COMMAND, demoImage, emu, QUANTUM, readDin } from './support/cli.js';
import { RefReplay } from './support/refsim.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-replay-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Counts { I: number; L: number; S: number }
interface ReplayJson {
  source: string;
  events: number;
  refs: Counts;
  cache: {
    total: { refs: Counts; lineAccesses: Counts; misses: Counts };
    processes: { pid: number; program: string; refs: Counts; misses: Counts }[];
    caches: { accesses: number; misses: number }[];
  };
}
interface Manifest { cpuHz: number; run: { cycles: number } }

function replayJson(args: string[]): ReplayJson {
  const r = emu(['replay', ...args, '--json']);
  expect(r.stderr).not.toMatch(/emu:/);
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as ReplayJson;
}

describe.skipIf(!toolsAvailable() || !BUILT)('emu replay on trace bundles', () => {
  const bundles = new Map<string, string>();
  beforeAll(async () => {
    for (const target of ['mipsel', 'sparc'] as const) {
      const img = await demoImage(dir, target);
      const out = join(dir, `${target}.trace`);
      const r = emu(['run', img, '--trace', '--out', out, '--truth', '--quantum', QUANTUM, '--', COMMAND]);
      expect(r.status).toBe(0);
      bundles.set(target, out);
    }
  }, 600_000);

  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: regeneration and ground truth give identical cache statistics`, () => {
      const b = bundles.get(target)!;
      for (const args of [['--cache', '16K:32:2'], ['--cache', '4K:16:1,split'], ['--cache', '2K:32:full', '--no-pid-tags']]) {
        const regen = replayJson([b, ...args]);
        const truth = replayJson([b, '--truth', ...args]);
        expect(regen.source).toBe('regen');
        expect(truth.source).toBe('truth');
        expect(regen.events).toBeGreaterThan(100_000);
        expect(truth.cache).toEqual(regen.cache);
        expect(truth.refs).toEqual(regen.refs);
        // The demo's traced programs, each a row.
        expect(regen.cache.processes.map((p) => p.program.slice(p.program.lastIndexOf('/') + 1)).sort())
          .toEqual(['client', 'cs', 'egrep', 'server', 'textgen']);
      }
    });

    it(`${target}: emu regen --format din parses as din; its counts are the simulator's input counts`, () => {
      const b = bundles.get(target)!;
      const dinFile = join(dir, `${target}.din`);
      const r = emu(['regen', b, '--format', 'din', '-o', dinFile]);
      expect(r.status).toBe(0);
      const { lines, counts } = readDin(dinFile);
      const rep = replayJson([b, '--cache', '8K:32:2', '--no-pid-tags']);
      expect(counts).toEqual(rep.refs);
      expect(lines.length).toBe(rep.events);
      expect(rep.cache.total.lineAccesses).toEqual(rep.cache.total.refs);
      const oracle = new RefReplay(8192, 32, 2, false, false);
      const kindOf = [1, 2, 0];
      for (const l of lines) oracle.ref(0, kindOf[Number(l[0])]!, parseInt(l.slice(2), 16), 1);
      expect(oracle.icache.misses).toBe(rep.cache.caches[0]!.misses);
    });

    it(`${target}: timelines of the regeneration and of the ground truth`, () => {
      const b = bundles.get(target)!;
      const m = JSON.parse(readFileSync(join(b, 'manifest.json'), 'utf8')) as Manifest;
      const tl = join(dir, `${target}.regen.json`);
      const rep = replayJson([b, '--timeline', tl]);
      const { x } = checkTimeline(tl, m.cpuHz, m.run.cycles);
      // Traced processes only, and the references of each add up to what the cache saw.
      expect(new Set(x.map((e) => e.pid))).toEqual(new Set(rep.cache.processes.map((p) => p.pid)));
      for (const p of rep.cache.processes) {
        expect(x.filter((e) => e.pid === p.pid).reduce((n, e) => n + e.args.events, 0)).toBe(p.refs.I + p.refs.L + p.refs.S);
      }
      const tt = join(dir, `${target}.truth.json`);
      replayJson([b, '--truth', '--timeline', tt]);
      const t = checkTimeline(tt, m.cpuHz, m.run.cycles);
      // The ground truth shows every process: the traced ones, the consumer and the shells.
      const names = t.doc.traceEvents.filter((e) => e.name === 'thread_name').map((e) => e.args.name);
      for (const n of ['init', 'bdump', 'sh', 'textgen', 'egrep', 'wc', 'server', 'client']) expect(names).toContain(n);
      expect(new Set(t.x.map((e) => e.pid)).size).toBeGreaterThan(new Set(x.map((e) => e.pid)).size);
      // Both end at the same cycle; the truth's start at the first switch of the machine.
      expect(t.x[0]!.args.cycle).toBeLessThan(x[0]!.args.cycle);
    });
  }

  it('a damaged bundle: the file named, a non-zero status', () => {
    const b = join(dir, 'damaged.trace');
    cpSync(bundles.get('mipsel')!, b, { recursive: true });
    const trace = new Uint8Array(readFileSync(join(b, 'trace')));
    trace[trace.length >> 1] ^= 0x5a;
    writeFileSync(join(b, 'trace'), trace);
    const r = emu(['replay', b]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(join(b, 'trace'));
    const t = emu(['replay', bundles.get('sparc')!, '--truth', '--cache', '1K:3:1']);
    expect(t.status).not.toBe(0);
    expect(t.stderr).toMatch(/cache geometry '1K:3:1'/);
  });
});
