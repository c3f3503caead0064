/**
 * The known-function experiment of mazieres-smith-1994 section 5 on the MIPS
 * (test/tracer/support/known.ts; the SPARC in known.full.test.ts): one 1 KiB call of each string
 * function of images/programs/ttest-bcopy, the trace bytes each call writes, the regeneration
 * verified against ground truth.
 */
import { describe, expect, it } from 'vitest';
import { toolsAvailable } from '../support/tools.js';
import { bytesPerCall, checkKnown, checkStops } from './support/known.js';
import { regenAgainst, traced } from './support/trace.js';

const have = toolsAvailable();

describe.skipIf(!have)('known functions: 1 KiB calls (mazieres-smith-1994 section 5)', () => {
  for (const target of ['mipsel'] as const) {
    it(`${target}: trace bytes per call, regeneration equal to ground truth, stopped at every instruction and dying inside the known loops`, async () => {
      const t = await traced(target, 'ttest-bcopy', undefined, { knownLoops: true });
      checkKnown(target, await bytesPerCall(target, t));
      expect(checkStops(t)).toBeGreaterThan(40);
      // The compiled schemas' engine reads the stopping values ahead too (regen/compile.ts).
      expect(regenAgainst(t, 'original', { compiled: true }).events).toBeGreaterThan(0);
    }, 300_000);
  }
});
