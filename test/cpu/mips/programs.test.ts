/**
 * MIPS whole programs against qemu-user, `npm test`'s part (test/cpu/mips/support/programs.ts):
 * every test but the longest runs, which programs.full.test.ts runs.
 */
import { mipsProgramsSuite } from './support/programs.js';

mipsProgramsSuite('quick');
