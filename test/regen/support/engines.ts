/**
 * The table engine (regen/engine.ts) and the compiled schemas (regen/compile.ts) against the
 * reference interpreter: on programs with signals (ttest-sig), hand-written assembly (ttest-asm)
 * and longjmp and jump tables (jmptest), all equal the ground truth event for event. jmptest
 * (123 M events, about a minute per target) is the full suite's (regen.full.test.ts); the two
 * short programs, which cover the same constructs, are `npm test`'s (regen.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { toolsAvailable } from '../../support/tools.js';
import { inPart, type Part } from '../../support/part.js';
import { regenAgainst, traced } from '../../tracer/support/trace.js';

export function enginesSuite(part: Part): void {
  describe.skipIf(!toolsAvailable())('the table engine and the compiled schemas against the interpreter', () => {
    for (const target of ['mipsel', 'sparc'] as const) {
      for (const name of ['ttest-sig', 'ttest-asm', 'jmptest']) {
        if (!inPart(part, name !== 'jmptest')) continue;
        it(`${target} ${name}: the engines equal the ground truth`, { timeout: 900_000 }, async () => {
          const t = await traced(target, name, name === 'jmptest' ? 'default' : undefined);
          const a = regenAgainst(t, 'original', { interpret: true });
          const b = regenAgainst(t, 'original');
          expect(b.events).toBe(a.events);
          expect(b.icount).toBe(a.icount);
          // The compiled schemas on the short runs (jmptest makes 123 M events: the cost of a test).
          if (name !== 'jmptest') {
            const c = regenAgainst(t, 'original', { compiled: true });
            expect(c.events).toBe(a.events);
            expect(c.icount).toBe(a.icount);
          }
        });
      }
    }
  });
}
