/**
 * Every guest program's golden tests on emu's kernel, `npm test`'s part (test/os/support/programs.ts):
 * each program on one target, the three in turn; the other two in programs.full.test.ts.
 */
import { goldenSuite } from './support/programs.js';

goldenSuite('quick');
