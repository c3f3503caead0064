/**
 * MIPS whole programs against qemu-user, the rest: each program on the byte order programs.test.ts
 * leaves, and the longest runs (arith64, pdp, jmptest scale2) on both (test/cpu/mips/support/programs.ts).
 */
import { mipsProgramsSuite } from './support/programs.js';

mipsProgramsSuite('full');
