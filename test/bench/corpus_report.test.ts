/**
 * The corpus report's tracing table (bench/corpus_report.ts): per configuration, the tests that
 * pass on emu, instrumented, their functions and those in conservative mode, regen == truth, and
 * every tracing failure with its reason. Records built by hand, as the stages write them.
 */
import { describe, expect, it } from 'vitest';
import { summarize, toMarkdown } from '../../bench/corpus_report.js';
import type { CorpusRecord, StageResult } from '../../bench/corpus_stages.js';

const ok = (data: Record<string, unknown> = {}): StageResult => ({ key: 'k', status: 'pass', data: { stdoutHash: 'h', ...data } });

function rec(program: string, stages: Record<string, StageResult>): CorpusRecord {
  return { program, config: { target: 'sparc', libc: 'newlib', opt: 'O2' }, plan: { flags: ['-O2'] }, stages: { build: { key: 'k', status: 'ok' }, qemu: ok(), ...stages } };
}

const run = (hash: string, exitCode = 0) => ({ exitCode, status: exitCode << 8, message: '', insns: 100, stdoutHash: hash, stdoutBytes: 1 });
/** Trace-stage data as bench/corpus_trace.ts returns it. */
const traced = (functions: number, conservative: string[], over: Record<string, unknown> = {}): StageResult =>
  ({ key: 'k', status: 'pass', data: { functions, conservative, original: run('x'), traced: run('x'), verifyOriginal: '', verifyMapped: '', ...over } });

describe('corpus report, trace stage', () => {
  const divergence = 'first divergence at event 272 (last instruction 0x400324 in foo+0x4): expected I 0x400324 4, regenerated I 0x400220 4';
  const records = [
    rec('a', { emu: ok(), trace: traced(80, ['foo: jump to an address computed at 0x400230']) }),
    rec('b', { emu: ok(), trace: traced(70, [], { verifyOriginal: divergence }) }),
    rec('c', { emu: ok(), trace: traced(60, [], { verifyMapped: divergence }) }),
    rec('d', { emu: ok(), trace: { key: 'k', status: 'fail', data: { instrumentError: 'd: not a static executable' } } }),
    rec('f', { emu: ok(), trace: traced(50, [], { traced: run('y') }) }),
    rec('e', { emu: { key: 'k', status: 'fail', reason: 'exit status 1' } }),
  ];

  it('counts instrumented programs, functions, conservative ones and regen == truth of the tests that pass on emu', () => {
    const s = summarize(records);
    expect(s.configs[0]!.trace).toEqual({ eligible: 5, run: 5, instrumented: 4, functions: 260, conservativeFunctions: 1, conservativePrograms: 1, regenEqual: 2, departs: 1 });
    expect(s.traceTotals).toEqual(s.configs[0]!.trace);
    expect(s.traceFails.map((f) => [f.program, f.error])).toEqual([
      ['c', `regen against the traced run's ground truth: ${divergence}`],
      ['d', 'instrument: d: not a static executable'],
      ['f', "traced run: standard output differs from the untraced run's (1 bytes, untraced 1)"],
    ]);
    expect(s.traceDeparts.map((f) => [f.program, f.error])).toEqual([['b', `regen against the untraced run's ground truth: ${divergence}`]]);
  });

  it('prints the table and every failure with its first divergence', () => {
    const md = toMarkdown(summarize(records));
    expect(md).toContain('| sparc-newlib-O2 | 5 | 5 | 4 | 260 | 1 (1) | 2 | 1 |');
    expect(md).toContain('### emu passes, tracing fails (3)');
    expect(md).toContain(`- \`c\` sparc-newlib-O2: regen against the traced run's ground truth: ${divergence} (emu passes)`);
    expect(md).toContain('### traced, regeneration departs from the untraced run (1)');
  });
});
