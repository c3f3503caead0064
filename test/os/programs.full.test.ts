/**
 * Every guest program's golden tests on emu's kernel, the rest (each program on the two targets
 * programs.test.ts leaves; test/os/support/programs.ts).
 */
import { goldenSuite } from './support/programs.js';

goldenSuite('full');
