/**
 * The contract of the multi-tasking trace (issue 7): for every multi-process image on every
 * target, `emu run --trace` then regeneration equals the ground truth of the traced run event for
 * event, at instruction granularity, in four configurations —
 *   - the default 1 MiB buffer;
 *   - a one-page buffer (the guard page is hit again and again: trbuf_block, drain, unblock);
 *   - a quantum of 300 cycles with the seeded randomised deadlines (preemption inside
 *     instrumentation sequences: rollback);
 *   - bdump -p (the paper's bdump2, periodic draining);
 * and every trace byte is used exactly once (regeneration checks each process's byte count and
 * the total). The single-process workloads run in the default and one-page configurations.
 * Workloads are small versions (test/regen/support/bundle.ts SMALL) to keep CI time down; the workload's
 * output and exit status must be those of the same command run untraced.
 *
 * EMU_IMAGES=cs-mipsel,pmake-sparc selects a subset. `npm test` runs the representatives QUICK names
 * (matrix.test.ts), `npm run test:full` the rest (matrix.full.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { imageSpecs } from '../../../images/specs.js';
import { runMachine } from '../../../os/run.js';
import { toolsAvailable } from '../../support/tools.js';
import { checkSplitNames, inPart, type Part } from '../../support/part.js';
import { imageOf, SMALL, traceAndVerify, type TraceOptions } from './bundle.js';

const have = toolsAvailable();
const only = process.env['EMU_IMAGES']?.split(',').filter(Boolean);
const MULTI = ['demo', 'cs', 'pipeline', 'pmake', 'sigtest'];
const SINGLE = ['li', 'cc1', 'egrep', 'compress', 'sgefa', 'pdp', 'jmptest'];
/** Single-process workloads too long for more than one configuration in CI. */
const LONG = ['pdp', 'jmptest'];

/**
 * `npm test`'s part (matrix.test.ts): every configuration on every target with sigtest (signals
 * in several processes, a second each), every configuration on the README's demo (pipes, a
 * background job), and one more configuration per workload kind: pmake under preemption, cs and li
 * with the one-page buffer, egrep and sgefa with the default one. The rest is matrix.full.test.ts.
 */
const QUICK = new Set([
  ...['sigtest-mipsel', 'sigtest-mips', 'sigtest-sparc'].flatMap((i) => ['default buffer', 'one-page buffer', 'quantum 300 + seed', 'periodic draining'].map((c) => `${i}, ${c}`)),
  ...['default buffer', 'one-page buffer', 'quantum 300 + seed', 'periodic draining'].map((c) => `demo-mipsel, ${c}`),
  'pmake-sparc, quantum 300 + seed', 'cs-mips, one-page buffer', 'li-mipsel, one-page buffer',
  'egrep-sparc, default buffer', 'sgefa-mips, default buffer',
]);

const CONFIGS: [string, TraceOptions][] = [
  ['default buffer', {}],
  ['one-page buffer', { trbufSize: 4096 }],
  ['quantum 300 + seed', { quantum: 300, seed: 11 }],
  ['periodic draining', { periodic: true }],
];

async function untraced(name: string, command: string | undefined): Promise<{ stdout: string; exitCode: number }> {
  const img = await imageOf(name);
  const out: Buffer[] = [];
  const r = runMachine({
    image: { img, file: name }, ...(command !== undefined ? { command } : {}), log: pino({ level: 'silent' }),
    console: { write: (b) => void out.push(Buffer.from(b)), read: () => new Uint8Array(0) },
  });
  return { stdout: Buffer.concat(out).toString('latin1'), exitCode: r.exitCode };
}

export function matrixSuite(part: Part): void {
  describe.skipIf(!have)('emu run --trace, regenerated against the ground truth', () => {
    const cases: string[] = [];
    for (const spec of imageSpecs()) {
      const id = spec.name.slice(0, spec.name.lastIndexOf('-'));
      const multi = MULTI.includes(id);
      if (!multi && !SINGLE.includes(id)) continue;
      if (only && !only.includes(spec.name)) continue;
      const command = SMALL[id];
      const configs = multi ? CONFIGS : LONG.includes(id) ? CONFIGS.slice(0, 1) : CONFIGS.slice(0, 2);
      for (const [cname, opts] of configs) {
        cases.push(`${spec.name}, ${cname}`);
        if (!inPart(part, QUICK.has(`${spec.name}, ${cname}`))) continue;
        it(`${spec.name} (${command ?? '/etc/rc'}), ${cname}`, { timeout: 900_000 }, async () => {
          const v = await traceAndVerify(spec.name, { ...opts, ...(command !== undefined ? { command } : {}) });
          const m = v.bundle.manifest;
          const ref = await untraced(spec.name, command);
          expect(v.run.exitCode).toBe(ref.exitCode);
          // Concurrent jobs interleave their lines differently when the timing changes.
          const lines = (s: string): string[] => s.split('\n').sort();
          expect(multi ? lines(v.stdout) : v.stdout).toEqual(multi ? lines(ref.stdout) : ref.stdout);
          expect(v.events).toBeGreaterThan(0);
          expect(v.totals.bytes).toBe(m.streams.trace.bytes);
          expect(m.run.lostBytes).toBe(0);
          const traced = new Set(v.totals.processes.map((p) => p.program));
          expect(traced.size).toBeGreaterThan(0);
          for (const p of traced) expect(spec.traced.map((t) => `/bin/${t}`)).toContain(p);
          if (opts.trbufSize) {
            // Every drain but the last is (nearly) a full page: at least bytes / 4096 - 1 overflows.
            expect(m.run.overflows).toBeGreaterThanOrEqual(Math.floor(m.streams.trace.bytes / 4096) - 1);
          }
          if (opts.quantum) expect(m.run.rollbacks).toBeGreaterThan(0);
          if (multi) expect(v.totals.processes.length).toBeGreaterThan(1);
        });
      }
    }
    if (!only) checkSplitNames('test/regen/support/matrix.ts', QUICK, cases);
  });
}
