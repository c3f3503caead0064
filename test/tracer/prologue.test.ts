/**
 * The process prologue (tracer/rewrite.ts): one trbufmap system call and a branch on its result.
 *   - traced, the START marker comes at the call: the instructions before it are the prologue's
 *     up to and including the call (schema `prologue.count - afterStart`), and the program's output
 *     equals the original's;
 *   - on a kernel without the trace buffer the call fails (ENXIO) and the failure path reports on
 *     descriptor 2 and exits with status 127 before the program runs.
 */
import { describe, expect, it } from 'vitest';
import { runExecutable } from '../../bin/harness.js';
import { instrument } from '../../tracer/instrument.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf, testOf, traced } from './support/trace.js';

const have = toolsAvailable();

describe.skipIf(!have)('the prologue', () => {
  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: traced from the trbufmap call; the program runs as the original`, { timeout: 300_000 }, async () => {
      const t = await traced(target, 'ttest-asm');
      const pro = t.inst.schema.prologue;
      const start = t.run.trace.markers[0]!;
      expect(start.kind).toBe('start');
      expect(start.icount).toBe(pro.count - pro.afterStart);
      expect(t.run.stdout.equals(t.orig.stdout)).toBe(true);
      expect(t.run.exitCode).toBe(t.orig.exitCode);
    });

    it(`${target}: without the trace buffer it reports on descriptor 2 and exits with status 127`, { timeout: 300_000 }, async () => {
      const { path, exe } = await exeOf(target, 'ttest-asm');
      const { args, stdin } = testOf('ttest-asm');
      const inst = instrument(exe, path);
      const orig = runExecutable({ data: exe, name: 'ttest-asm' }, { args, stdin });
      expect(orig.stdout.length).toBeGreaterThan(0);
      const run = runExecutable({ data: inst.elf, name: 'ttest-asm' }, { args, stdin });
      expect(run.exitCode).toBe(127);
      expect(run.stdout.length).toBe(0);
      expect(run.stderr.toString('latin1')).toMatch(/^emu: cannot trace: .*trbufmap/);
    });
  }
});
