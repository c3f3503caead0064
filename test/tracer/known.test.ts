/**
 * The known-function experiment of mazieres-smith-1994 section 5 on the MIPS
 * (test/tracer/support/known.ts; the SPARC in known.full.test.ts): one 1 KiB call of each string
 * function of images/programs/ttest-bcopy, the trace bytes each call writes, the regeneration
 * verified against ground truth.
 */
import { knownSuite } from './support/known.js';

knownSuite('quick');
