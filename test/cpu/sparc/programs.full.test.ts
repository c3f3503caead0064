/**
 * SPARC whole programs against qemu-sparc, the long runs (arith64, jmptest scale2, li features;
 * test/cpu/sparc/programs.ts); `npm test`'s part in programs.test.ts.
 */
import { sparcProgramsSuite } from './programs.js';

sparcProgramsSuite('full');
