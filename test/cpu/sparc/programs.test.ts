/**
 * SPARC whole programs against qemu-sparc, `npm test`'s part (test/cpu/sparc/programs.ts): every
 * test but the three long ones on the reference interpreter, which programs.full.test.ts runs.
 */
import { sparcProgramsSuite } from './programs.js';

sparcProgramsSuite('quick');
