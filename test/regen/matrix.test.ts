/**
 * The multi-tasking trace's contract on `npm test`'s representatives of the matrix (every
 * configuration, every target): test/regen/support/matrix.ts; the rest in matrix.full.test.ts.
 */
import { matrixSuite } from './support/matrix.js';

matrixSuite('quick');
