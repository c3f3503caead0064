/**
 * The known-function experiment of mazieres-smith-1994 section 5 on the MIPS
 * (test/tracer/support/known.ts; the SPARC in known.full.test.ts): one 1 KiB call of each string
 * function of images/programs/ttest-bcopy, the trace bytes each call writes, the regeneration
 * verified against ground truth.
 */
import { describe, it } from 'vitest';
import { toolsAvailable } from '../support/tools.js';
import { bytesPerCall, checkKnown } from './support/known.js';

const have = toolsAvailable();

describe.skipIf(!have)('known functions: 1 KiB calls (mazieres-smith-1994 section 5)', () => {
  for (const target of ['mipsel'] as const) {
    it(`${target}: trace bytes per call, regeneration equal to ground truth`, async () => {
      checkKnown(target, await bytesPerCall(target));
    }, 120_000);
  }
});
