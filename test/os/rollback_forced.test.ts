/**
 * Rollback tested directly, an interrupt forced at every instruction of a sequence
 * (test/os/support/rollback_forced.ts): mipsel and sparc; mips in rollback_forced.full.test.ts.
 */
import { rollbackForcedSuite } from './support/rollback_forced.js';

rollbackForcedSuite('quick');
