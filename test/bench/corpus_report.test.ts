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

describe('corpus report, trace stage', () => {
  const divergence = 'regen against the original run\'s ground truth: first divergence at event 272 (last instruction 0x400324 in foo+0x4): expected I 0x400324 4, regenerated I 0x400220 4';
  const records = [
    rec('a', { emu: ok(), trace: { key: 'k', status: 'pass', data: { functions: 80, conservative: ['foo: jump to an address computed at 0x400230'] } } }),
    rec('b', { emu: ok(), trace: { key: 'k', status: 'pass', data: { functions: 70, conservative: [] } } }),
    rec('c', { emu: ok(), trace: { key: 'k', status: 'fail', reason: divergence, data: { functions: 60, conservative: [] } } }),
    rec('d', { emu: ok(), trace: { key: 'k', status: 'fail', reason: 'instrument: d: not a static executable', data: {} } }),
    rec('e', { emu: { key: 'k', status: 'fail', reason: 'exit status 1' } }),
  ];

  it('counts instrumented programs, functions, conservative ones and regen == truth of the tests that pass on emu', () => {
    const s = summarize(records);
    expect(s.configs[0]!.trace).toEqual({ eligible: 4, run: 4, instrumented: 3, functions: 210, conservativeFunctions: 1, conservativePrograms: 1, regenEqual: 2 });
    expect(s.traceTotals).toEqual(s.configs[0]!.trace);
    expect(s.traceFails.map((f) => [f.program, f.error])).toEqual([['c', divergence], ['d', 'instrument: d: not a static executable']]);
  });

  it('prints the table and every failure with its first divergence', () => {
    const md = toMarkdown(summarize(records));
    expect(md).toContain('| sparc-newlib-O2 | 4 | 4 | 3 | 210 | 1 (1) | 2 |');
    expect(md).toContain('### emu passes, tracing fails (2)');
    expect(md).toContain(`- \`c\` sparc-newlib-O2: ${divergence} (emu passes)`);
  });
});
