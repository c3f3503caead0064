/**
 * MIPS whole programs against qemu-user, `npm test`'s part (test/cpu/mips/support/programs.ts):
 * each program on one byte order, the two in turn, but the longest runs; the rest in
 * programs.full.test.ts.
 */
import { mipsProgramsSuite } from './support/programs.js';

mipsProgramsSuite('quick');
