/**
 * Predicates regeneration decides from what the callers pass and from condition codes set before
 * the branch's block (tracer/decide.ts predicateArguments, tracer/predicates.ts sparcForm), on two
 * GCC torture tests at -O2 (issue 22). pr46909-1 loops i = -10..9 calling a noinline `foo(i)`
 * whose branches test only its argument, and compares the result with `1 - 2*(i == 4)`: every
 * two-way predicate of `main` and `foo` depends only on the induction variable, the argument and
 * the returned value, so none needs a witness on any target. pr49281's `main` compares
 * `foo(43)`, ... with constants, where `foo` returns `(x << 2) | 4` of its argument: known once the
 * callers provide the argument. 20141107-1's `f(a, c)` tests `a` and returns `c` or `!c`; its
 * only other caller, `checkf`, is never called (inlined into `main`) and so constrains nothing.
 * 930628-1's `main` compares loop counters and stack addresses; gcc placed its inner test block
 * right after `call exit`, whose return edge (never taken: exit does not return) joined the loop
 * and brought the call's clobbers to every test (tracer/dataflow.ts DataflowOptions.noReturn).
 * pr77766's loops test an induction
 * variable and values loaded once before them; on the SPARC, gcc sets their condition codes in
 * the delay slot of the previous branch (`bne 100d8; cmp %o5, 0`) or counts down with `addcc`,
 * which the SPARC once witnessed per iteration where the MIPS compares in the branch: its trace
 * is now no longer than the MIPS one. Each program behaves as untraced and regenerates equal to
 * both ground truths. Sources come from Debian's gcc-12-source (skipped without it).
 */
import { describe, expect, it } from 'vitest';
import { TARGET_NAMES, type TargetName } from '../../format/target.js';
import { gccSourceAvailable } from '../support/tools.js';
import { buildTorture, tortureSources } from '../support/torture.js';
import { checkBehavesAndRegenerates, type Traced } from './support/trace.js';

const TESTS = ['pr46909-1', 'pr49281', '20141107-1', '930628-1', 'pr77766'];
/** Per test, the functions every two-way predicate of which regeneration decides. */
const DECIDED: [string, string[]][] = [['pr46909-1', ['main', 'foo']], ['pr49281', ['main']], ['20141107-1', ['main', 'f']], ['930628-1', ['main']]];
const have = gccSourceAvailable();

async function traceOf(target: TargetName, name: string): Promise<{ t: Traced; bytes: number }> {
  const src = tortureSources(TESTS).get(name)!;
  const path = await buildTorture(target, src, ['-O2']);
  const { t } = checkBehavesAndRegenerates(path, name, 100_000_000);
  return { t, bytes: t.run.trace.bytes().length };
}

describe.skipIf(!have)('predicates decided from arguments and earlier condition codes', () => {
  for (const target of TARGET_NAMES) for (const [test, funcs] of DECIDED) {
    it(`${target} ${test}: every predicate of ${funcs.join(' and ')} is decided; regeneration equals both ground truths`, { timeout: 300_000 }, async () => {
      const { t } = await traceOf(target, test);
      for (const name of funcs) {
        const f = t.inst.schema.functions.find((x) => x.name === name)!;
        expect(f, name).toBeDefined();
        const predicates = f.blocks.filter((b) => b.succ.length === 2 && b.succ.every((e) => ['taken', 'fall'].includes(f.edges[e]!.kind)));
        expect(predicates.length, name).toBeGreaterThan(0);
        for (const b of predicates) expect(b.dc, `${target} ${name} 0x${b.addr.toString(16)}`).toBeDefined();
      }
    });
  }
  it('pr77766: the SPARC trace is no longer than the MIPS one', { timeout: 300_000 }, async () => {
    const mips = await traceOf('mipsel', 'pr77766');
    const sparc = await traceOf('sparc', 'pr77766');
    expect(sparc.bytes).toBeLessThanOrEqual(mips.bytes);
  });
});
