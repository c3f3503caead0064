/**
 * Every shipped single-process program, instrumented, on all three targets: the same output and
 * exit status as the original on the emulator, and regeneration from the recorded bytes equal to
 * the ground truth event for event — against the original run, and against the instrumented run
 * mapped back through the schema. (Multi-process programs are issue 7's.)
 *
 * EMU_TRACER_PROGRAMS=li,cc1 and EMU_TARGETS=sparc select a subset; arith64 (2.5 G instructions)
 * runs only with EMU_LONG=1. `npm test` runs the cases QUICK names (test/tracer/programs.test.ts),
 * `npm run test:full` the rest (test/tracer/programs.full.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { TARGET_NAMES, type TargetName } from '../../../format/target.js';
import { toolsAvailable } from '../../support/tools.js';
import { checkSplitNames, inPart, type Part } from '../../support/part.js';
import { regenAgainst, traced } from './trace.js';

/** Program and the test (of its program.json) traced: the lighter one where several exist. */
const PROGRAMS: [string, string | undefined][] = [
  ['hello', undefined], ['echo', undefined], ['cat', 'stdin'], ['wc', 'stdin'], ['textgen', 'small'],
  ['egrep', 'anchors'], ['compress', 'bits13'], ['sgefa', 'n100x3'], ['li', 'queens6'], ['cc1', 'assembly'],
  ['pdp', undefined], ['jmptest', 'default'], ['ttest-asm', undefined], ['ttest-sig', undefined],
  ...(process.env['EMU_LONG'] ? [['arith64', undefined] as [string, undefined]] : []),
];
/**
 * `npm test`'s part (programs.test.ts): the short programs on every target, li (the interpreter's
 * recursion), sgefa (floating point) and cc1 (the largest program) on mipsel. The rest (compress,
 * pdp and jmptest everywhere; li, sgefa and cc1 on mips and sparc) is programs.full.test.ts.
 */
const SHORT = ['hello', 'echo', 'cat', 'wc', 'textgen', 'egrep', 'ttest-asm', 'ttest-sig'];
const QUICK = new Set([
  ...TARGET_NAMES.flatMap((t) => SHORT.map((n) => `${t} ${n}`)),
  'mipsel li', 'mipsel sgefa', 'mipsel cc1',
]);
const pick = process.env['EMU_TRACER_PROGRAMS']?.split(',');
const targets = (process.env['EMU_TARGETS']?.split(',') ?? TARGET_NAMES) as TargetName[];
const have = toolsAvailable();

export function programsSuite(part: Part): void {
  describe.skipIf(!have)('instrumented single-process programs', () => {
    checkSplitNames('test/tracer/support/programs.ts', QUICK, TARGET_NAMES.flatMap((t) => PROGRAMS.map(([n]) => `${t} ${n}`)));
    for (const target of targets) {
      for (const [name, test] of PROGRAMS) {
        if (pick && !pick.includes(name)) continue;
        if (!inPart(part, QUICK.has(`${target} ${name}`))) continue;
        it(`${target} ${name}${test ? ` ${test}` : ''}: same output; regeneration equals both ground truths`, { timeout: 600_000 }, async () => {
          const t = await traced(target, name, test);
          expect(t.run.haltReason).toBe('init exited');
          expect(t.run.stdout.toString('latin1')).toBe(t.orig.stdout.toString('latin1'));
          expect(t.run.status).toBe(t.orig.status);
          const a = regenAgainst(t, 'original');
          expect(a.events).toBeGreaterThan(t.orig.insns);
          const b = regenAgainst(t, 'mapped');
          expect(b.events).toBe(a.events);
          expect(a.bytes).toBe(t.run.trace.bytes().length);
        });
      }
    }
  });
}
