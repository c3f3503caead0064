/**
 * The CI sample of the torture corpus (bench/corpus.ts, docs/corpus.md): every 8th test of GCC's
 * gcc.c-torture/execute in name order, on mipsel, mips and sparc, with the project's libc and with
 * newlib, at -O0 and -O2. Every test that passes under qemu-user (Linux flavour) passes on emu
 * (BSD flavour) with the same output; every test that passes on emu is instrumented, runs traced
 * with the same output and exit status, and regenerates equal to ground truth (issue 20).
 * Records are kept under images/build/corpus, so a rerun only runs what changed (the emulator's
 * code is part of the emu stage's key; the tracer's and regeneration's of the trace stage's).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, runCorpus } from '../../bench/corpus.js';
import { summarize } from '../../bench/corpus_report.js';
import { verdict, type CorpusRecord } from '../../bench/corpus_stages.js';
import { configId } from '../../images/corpus.js';
import { LIBCS } from '../../images/runtime.js';
import { TARGET_NAMES } from '../../format/target.js';
import { corpusSourcesAvailable } from '../support/tools.js';

const have = corpusSourcesAvailable();
/** The sample rule (bench/corpus.ts sampleTests): every Nth test in name order. */
const EVERY = 8;
const OPTS = ['O0', 'O2'];
/**
 * Programs whose traced run may depart from the untraced one: user-printf's tmpnam (the project's
 * libc) seeds the name with gettimeofday, and the instrumented run reads a later time
 * (test/bench/tracer_subjects.full.test.ts shows where: fill's table load).
 */
const DEPARTS = ['user-printf'];

describe.skipIf(!have)(`torture corpus, every ${EVERY}th test`, () => {
  let records: CorpusRecord[] = [];
  beforeAll(async () => {
    records = await runCorpus({ targets: TARGET_NAMES, libcs: LIBCS, opts: OPTS, sample: EVERY, options: DEFAULT_OPTIONS });
  }, 3_600_000);

  it('covers every configuration, and the harness never failed', () => {
    const s = summarize(records);
    expect(s.configs.map((c) => c.config).sort()).toEqual(TARGET_NAMES.flatMap((t) => LIBCS.flatMap((l) => OPTS.map((o) => `${t}-${l}-${o}`))).sort());
    const errors = records.flatMap((r) => Object.entries(r.stages).filter(([, st]) => st.status === 'error').map(([n, st]) => `${r.program} ${configId(r.config)} ${n}: ${st.reason}`));
    expect(errors).toEqual([]);
    // Most of the suite builds and passes under the oracle; a collapse would mean a broken set-up.
    for (const c of s.configs) expect(c.qemuPass, c.config).toBeGreaterThan(0.9 * c.tests);
  });

  for (const t of TARGET_NAMES) {
    for (const l of LIBCS) {
      for (const o of OPTS) {
        it(`${t}-${l}-${o}: every test that passes under qemu-user passes on emu`, () => {
          const mine = records.filter((r) => configId(r.config) === `${t}-${l}-${o}`);
          expect(mine.length).toBeGreaterThan(0);
          const fails = mine.filter((r) => { const v = verdict(r); return v.qemuPass && !v.emuPass; }).map((r) => `${r.program}: ${verdict(r).emuError}`);
          expect(fails).toEqual([]);
        });
        it(`${t}-${l}-${o}: every test that passes on emu is instrumented, runs traced as untraced, and regenerates equal to ground truth`, () => {
          const mine = records.filter((r) => configId(r.config) === `${t}-${l}-${o}` && verdict(r).emuPass);
          expect(mine.length).toBeGreaterThan(0);
          const s = summarize(mine);
          expect(s.traceFails.map((f) => `${f.program}: ${f.error}`)).toEqual([]);
          expect(s.traceTotals.instrumented).toBe(mine.length);
          expect(s.traceTotals.regenEqual).toBe(mine.length);
          // Regeneration equals the untraced run's ground truth too, except where the program's
          // input differs between the runs (DEPARTS).
          expect(s.traceDeparts.map((f) => f.program).filter((p) => !DEPARTS.includes(p))).toEqual([]);
        });
      }
    }
  }
});
