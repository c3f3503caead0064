/**
 * `emu replay` as a user runs it (the built CLI, bin/emu.js; needs `npm run build`, as `npm test`
 * does first) on real multi-process ground truth of the demo image on both architectures
 * (a short command: a pipeline in the background and a client/server pair, with a small
 * quantum so they interleave):
 *   - the timeline loads as Chrome trace-event JSON (schema-validated with ajv), its run intervals
 *     never overlap and cover the run from the first switch to the end of the run, and agree with
 *     the kernel's own statistics (switch-ins per process, cycles charged, references);
 *   - the din output of the same run parses as Dinero din and its counts equal the simulator's
 *     input counts; replayed through the oracle simulator it gives the same misses as the binary
 *     ground truth replayed with one address space;
 *   - a sweep agrees with single-cache runs, and its misses never grow with the size (LRU with
 *     bit-selection indexing has the inclusion property at fixed associativity);
 *   - bad geometries, bad inputs and damaged files: a clear message and a non-zero status.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../../images/build.js';
import { toolsAvailable } from '../../support/tools.js';
import { BUILT, checkTimeline, COMMAND, demoImage, emu, QUANTUM, readDin } from './support/cli.js';
import { RefReplay } from './support/refsim.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Stats {
  machine: { cpuHz: number; cycles: number; instructions: number };
  processes: { pid: number; command: string; switches: number; cycles: number; instructions: number }[];
}
interface ReplayJson {
  events: number;
  refs: { I: number; L: number; S: number };
  cache: {
    total: { refs: { I: number; L: number; S: number }; lineAccesses: { I: number; L: number; S: number }; misses: { I: number; L: number; S: number } };
    processes: { pid: number; program: string; refs: { I: number; L: number; S: number } }[];
    caches: { accesses: number; misses: number }[];
  };
}

describe.skipIf(!toolsAvailable() || !BUILT)('emu replay (CLI) on ground truth', () => {
  const runs = new Map<string, { truth: string; din: string; stats: string }>();
  beforeAll(async () => {
    for (const target of ['mipsel', 'sparc'] as const) {
      const img = await demoImage(dir, target);
      const truth = join(dir, `${target}.bin`);
      const din = join(dir, `${target}.din`);
      const stats = join(dir, `${target}.json`);
      const a = emu(['run', img, '--quantum', QUANTUM, '--truth', truth, '--stats', stats, '--', COMMAND]);
      expect(a.stderr).toBe('');
      expect(a.status).toBe(0);
      const b = emu(['run', img, '--quantum', QUANTUM, '--truth', din, '--truth-format', 'din', '--', COMMAND]);
      expect(b.status).toBe(0);
      runs.set(target, { truth, din, stats });
    }
  }, 600_000);

  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: the timeline is valid Chrome trace-event JSON covering the run, consistent with --stats`, () => {
      const { truth, stats } = runs.get(target)!;
      const tl = join(dir, `${target}.timeline.json`);
      const r = emu(['replay', truth, '--timeline', tl, '--stats', stats, '--json']);
      expect(r.status).toBe(0);
      const st = JSON.parse(readFileSync(stats, 'utf8')) as Stats;
      const rep = JSON.parse(r.stdout) as ReplayJson;
      const { doc, x } = checkTimeline(tl, st.machine.cpuHz, st.machine.cycles);
      expect(x[0]!.args.cycle).toBeGreaterThan(0);
      expect(doc.otherData['endEstimated']).toBe(false);
      // Per process: one interval per switch-in the kernel counted; at least the cycles the kernel
      // charged it (it can run only while it holds the CPU); exactly the references the cache saw.
      const names = new Map(doc.traceEvents.filter((e) => e.name === 'thread_name').map((e) => [e.pid, e.args.name]));
      for (const p of st.processes) {
        const mine = x.filter((e) => e.pid === p.pid);
        expect(mine.length, `pid ${p.pid}`).toBe(p.switches);
        expect(mine.reduce((n, e) => n + e.args.cycles, 0)).toBeGreaterThanOrEqual(p.cycles);
        const row = rep.cache.processes.find((q) => q.pid === p.pid)!;
        expect(mine.reduce((n, e) => n + e.args.events, 0)).toBe(row.refs.I + row.refs.L + row.refs.S);
        expect(row.refs.I).toBe(p.instructions);
        expect(names.get(p.pid)).toBe(p.command);
        expect(mine.filter((e) => e.args.exit !== undefined)).toHaveLength(1);
      }
      expect(new Set(x.map((e) => e.pid)).size).toBe(st.processes.length);
    });

    it(`${target}: din parses as Dinero din; its counts are the simulator's input counts`, () => {
      const { truth, din } = runs.get(target)!;
      const r = emu(['replay', truth, '--cache', '8K:32:2', '--no-pid-tags', '--json']);
      expect(r.status).toBe(0);
      const rep = JSON.parse(r.stdout) as ReplayJson;
      const { lines, counts } = readDin(din);
      // The oracle sees the din stream as Dinero would: one address space, no pids, no sizes
      // (an aligned access of at most 8 bytes never leaves a 32-byte line; checked below).
      const oracle = new RefReplay(8192, 32, 2, false, false);
      const kindOf = [1, 2, 0]; // din label -> I/L/S numbering: 0 read, 1 write, 2 fetch
      for (const l of lines) oracle.ref(0, kindOf[Number(l[0])]!, parseInt(l.slice(2), 16), 1);
      expect(counts).toEqual(rep.refs);
      expect(rep.events).toBe(lines.length);
      expect(rep.cache.total.lineAccesses).toEqual(rep.cache.total.refs);
      expect(oracle.icache.misses).toBe(rep.cache.caches[0]!.misses);
      expect(oracle.icache.accesses).toBe(rep.cache.caches[0]!.accesses);
    });
  }

  it('a sweep agrees with single-cache runs; misses never grow with the size', () => {
    const { truth } = runs.get('mipsel')!;
    const r = emu(['replay', truth, '--sweep', '1K..16K', '--assoc', '1,2,full', '--cache', '64K:16:1,split', '--json']);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout) as { sweep: { sizes: number[]; assocs: (number | string)[]; misses: (number | null)[][]; missRatio: (number | null)[][] } };
    const s = j.sweep;
    expect(s.sizes).toEqual([1024, 2048, 4096, 8192, 16384]);
    for (let a = 0; a < s.assocs.length; a++) {
      for (let i = 1; i < s.sizes.length; i++) expect(s.misses[i]![a]!).toBeLessThanOrEqual(s.misses[i - 1]![a]!);
    }
    for (const [i, a, g] of [[0, 0, '1K:16:1'], [2, 1, '4K:16:2'], [4, 2, '16K:16:full']] as const) {
      const one = JSON.parse(emu(['replay', truth, '--cache', `${g},split`, '--json']).stdout) as ReplayJson;
      expect(s.misses[i]![a]).toBe(one.cache.caches[0]!.misses + one.cache.caches[1]!.misses);
    }
    const t = emu(['replay', truth, '--sweep', '1K..4K', '--assoc', '1,full']);
    expect(t.stdout).toMatch(/^\s*size\s+1-way\s+full$/m);
    expect(t.stdout).toMatch(/^\s+4K\s+\d+\.\d{3}%\s+\d+\.\d{3}%$/m);
  });

  it('tables: per process and total; the same numbers on every run', () => {
    const { truth } = runs.get('sparc')!;
    const a = emu(['replay', truth, '--per-process', '--cache', '16K:32:4,split']);
    const b = emu(['replay', truth, '--per-process', '--cache', '16K:32:4,split']);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^cache 16K:32:4 split I\/D/m);
    expect(a.stdout).toMatch(/^pid\s+program\s+fetches\s+loads\s+stores\s+I-miss\s+I-ratio\s+D-miss\s+D-ratio\s+ratio\s+write-backs\s+lost\s+stolen$/m);
    for (const p of ['server', 'client', 'textgen', 'egrep', 'wc']) expect(a.stdout).toMatch(new RegExp(`^\\s*\\d+\\s+${p}\\s+\\d+`, 'm'));
    expect(a.stdout).toMatch(/^all\s+\d+ processes/m);
    expect(a.stdout).toMatch(/^I-cache: \d+ line accesses/m);
    expect(a.stderr).toMatch(/references replayed in/);
  });

  it('without --stats the timeline end is estimated and says so', () => {
    const { truth } = runs.get('mipsel')!;
    const tl = join(dir, 'est.json');
    const r = emu(['replay', truth, '--timeline', tl]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/the end of the run is unknown; the timeline's last interval is estimated/);
    expect((JSON.parse(readFileSync(tl, 'utf8')) as { otherData: { endEstimated: boolean } }).otherData.endEstimated).toBe(true);
  });

  it('errors: bad geometry, not a trace, damaged file', () => {
    const { truth } = runs.get('mipsel')!;
    const g = emu(['replay', truth, '--cache', '64K:24:4']);
    expect(g.status).not.toBe(0);
    expect(g.stderr).toMatch(/cache geometry '64K:24:4': the line size 24 is not a power of two/);
    const s = emu(['replay', truth, '--sweep', '4K..1K']);
    expect(s.status).not.toBe(0);
    expect(s.stderr).toMatch(/the range is empty/);
    const n = emu(['replay', join(ROOT_DIR, 'package.json')]);
    expect(n.status).not.toBe(0);
    expect(n.stderr).toMatch(/package\.json: not a ground-truth file .* nor a trace bundle/);
    const bytes = readFileSync(truth);
    const cut = join(dir, 'cut.bin');
    writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
    const c = emu(['replay', cut]);
    expect(c.status).not.toBe(0);
    expect(c.stderr).toMatch(new RegExp(`${cut}: byte \\d+ \\(event \\d+\\): truncated`));
  });
});
