/**
 * The tracer benchmarks' external programs (bench/tracer_subjects.ts, issue 22): a public program
 * from a source directory and a torture test of the corpus sample are built, traced, and their
 * regeneration verified against ground truth through bench/tracer.ts `measure` and
 * bench/tracer_bytes.ts `breakdown`; the figures agree with each other; bad directories are
 * one-line errors naming the directory. user-printf reads the clock (gcc_tmpnam seeds its name
 * with gettimeofday), so its instrumented run departs from the untraced one: regeneration is
 * verified against the instrumented run's own ground truth and the departure is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measure } from '../../bench/tracer.js';
import { breakdown } from '../../bench/tracer_bytes.js';
import { corpusSubjects, externalSubject, type Subject } from '../../bench/tracer_subjects.js';
import { buildTorture, extractTorture, plan, tortureTests } from '../../images/corpus.js';
import { gccSourceAvailable, toolsAvailable } from '../support/tools.js';

const have = toolsAvailable();
const scratch = mkdtempSync(join(tmpdir(), 'emu-subjects-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('external directories: errors', () => {
  it('a missing directory and one without C sources are named', () => {
    expect(() => externalSubject(join(scratch, 'nope'), 'mipsel', 1)).toThrow(/--external .*nope: no such directory/);
    mkdirSync(join(scratch, 'empty'));
    expect(() => externalSubject(join(scratch, 'empty'), 'mipsel', 1)).toThrow(/no \.c files at its top level/);
  });
});

describe.skipIf(!have)('external programs in the tracer benchmarks', () => {
  it('a source directory: built, traced, verified; measure and breakdown agree', () => {
    const dir = join(scratch, 'sieve');
    mkdirSync(dir);
    writeFileSync(join(dir, 'sieve.c'), [
      '#include <stdio.h>',
      '#include <string.h>',
      'static char flags[4096];',
      'int main(void) {',
      '  int n = 0;',
      '  memset(flags, 1, sizeof flags);',
      '  for (int i = 2; i < 4096; i++) if (flags[i]) { n++; for (int j = i + i; j < 4096; j += i) flags[j] = 0; }',
      '  printf("%d primes\\n", n);',
      '  return 0;',
      '}',
    ].join('\n'));
    const s = externalSubject(dir, 'mipsel', 1);
    const m = measure(s, false);
    expect(m.group).toBe('external');
    expect(m.refs).toBeGreaterThan(4096);
    expect(m.dilation).toBeGreaterThan(1);
    const b = breakdown(s);
    expect(b.refs).toBe(m.refs);
    expect(b.insns).toBe(m.insns);
    expect(Object.values(b.bytes).reduce((x, y) => x + y, 0)).toBe(m.traceBytes);
  }, 120_000);

  it.skipIf(!gccSourceAvailable())('a torture test of the sample (sparc): built on demand, traced, verified', async () => {
    const { subjects } = await corpusSubjects('sparc', 1000);
    expect(subjects.length).toBeGreaterThan(0);
    const m = measure(subjects[0]!, false);
    expect(m.group).toBe('corpus');
    expect(m.traceBytes).toBe(m.witnessBytes + m.valueBytes);
  }, 300_000);

  for (const target of ['mipsel', 'mips'] as const) {
    it.skipIf(!gccSourceAvailable())(`${target} user-printf: regeneration equals its run's ground truth, the run departs from the untraced one`, async () => {
      const test = tortureTests(await extractTorture()).find((t) => t.name === 'user-printf')!;
      const config = { target, libc: 'emu' as const, opt: 'O2' };
      const p = plan(test, config);
      const b = await buildTorture(test, config, p.flags, p.ldflags ?? []);
      if (!b.ok) throw new Error(`user-printf ${target} does not build`);
      const s: Subject = { name: test.name, test: 'O2', target, group: 'corpus', exe: b.exe.bsd, args: [] };
      const m = measure(s, false);
      // The random name's digits come from the time: `fill` loads a table entry indexed by it.
      expect(m.differs).toMatch(/in fill\.constprop\.0\+0x[0-9a-f]+\): instrumented L 0x[0-9a-f]+ 1, untraced L/);
    }, 300_000);
  }
});
