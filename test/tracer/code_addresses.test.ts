/**
 * Code addresses as values (issue 20): the program keeps the original value of every code address
 * it holds — function pointers, label values and their differences — and transfers through them
 * are translated (tracer/sequences.ts lookupSeq). ttest-code stores, compares, hashes and prints
 * them, jumps through label values and label differences (gcc.c-torture pr70460, 920501-5), runs
 * a computed-goto interpreter, and leaves two functions by __builtin_longjmp (pr64242). Traced,
 * it prints what it prints untraced — with `addr`, the raw addresses, which are the symbol table's —
 * and regeneration equals both ground truths.
 */
import { describe, expect, it } from 'vitest';
import { parseElf } from '../../format/elf.js';
import { TARGET_NAMES } from '../../format/target.js';
import { instrument } from '../../tracer/instrument.js';
import { runExecutable } from '../../bin/harness.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf, regenAgainst, type Traced } from './support/trace.js';

const have = toolsAvailable();

async function tracedWith(target: (typeof TARGET_NAMES)[number], args: string[]): Promise<Traced> {
  const { path, exe } = await exeOf(target, 'ttest-code');
  const inst = instrument(exe, path);
  const orig = runExecutable({ data: exe, name: 'ttest-code' }, { args, truth: 'bin', trace: true });
  const run = runExecutable({ data: inst.elf, name: 'ttest-code' }, { args, truth: 'bin', trace: true });
  return { exe, path, inst, orig, run, args };
}

describe.skipIf(!have)('code addresses keep their values', () => {
  for (const target of TARGET_NAMES) {
    it(`${target} ttest-code addr: the same addresses as untraced, the symbol table's; regeneration equals both ground truths`, { timeout: 300_000 }, async () => {
      const t = await tracedWith(target, ['addr']);
      const out = t.run.stdout.toString('latin1');
      expect(t.run.haltReason).toBe('init exited');
      expect(t.run.status).toBe(0);
      expect(out).toBe(t.orig.stdout.toString('latin1'));
      const sym = (n: string): string => `0x${parseElf(t.exe, t.path).symbols.find((s) => s.name === n)!.value.toString(16)}`;
      expect(out).toContain(`twice ${sym('twice')} inc ${sym('inc')} neg ${sym('neg')}`);
      expect(out).toContain('differences 3 1');
      expect(out).toContain('interp 3628800');
      expect(out).toContain('builtin longjmp 6');
      // The label arithmetic of `differences` makes it conservative; `labels` forms &&l0 in code
      // and jumps through a register, which is enough (its jump could read a stored &&l0 + off);
      // nothing else is.
      expect(t.inst.schema.functions.filter((f) => f.conservative).map((f) => f.name).sort()).toEqual(['differences', 'labels']);
      const a = regenAgainst(t, 'original');
      expect(a.events).toBeGreaterThan(t.orig.insns);
      expect(regenAgainst(t, 'mapped').events).toBe(a.events);
      expect(a.bytes).toBe(t.run.trace.bytes().length);
    });
  }
});
