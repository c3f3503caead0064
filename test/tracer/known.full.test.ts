/**
 * The known-function experiment of mazieres-smith-1994 section 5 (test/tracer/support/known.ts)
 * on big-endian MIPS and the SPARC; mipsel is in known.test.ts.
 */
import { knownSuite } from './support/known.js';

knownSuite('full');
