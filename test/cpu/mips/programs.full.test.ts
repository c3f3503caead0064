/**
 * MIPS whole programs against qemu-user, the longest runs (arith64, pdp, jmptest scale2 on both
 * byte orders; test/cpu/mips/support/programs.ts); `npm test`'s part in programs.test.ts.
 */
import { mipsProgramsSuite } from './support/programs.js';

mipsProgramsSuite('full');
