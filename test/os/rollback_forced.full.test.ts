/**
 * Rollback tested directly, an interrupt forced at every instruction of a sequence
 * (test/os/support/rollback_forced.ts), on big-endian MIPS; mipsel and sparc in rollback_forced.test.ts.
 */
import { rollbackForcedSuite } from './support/rollback_forced.js';

rollbackForcedSuite('full');
