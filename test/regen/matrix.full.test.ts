/**
 * The multi-tasking trace's contract on the rest of the matrix (every multi-process image in four
 * configurations, every single-process workload, three targets): test/regen/support/matrix.ts;
 * `npm test`'s representatives in matrix.test.ts.
 */
import { matrixSuite } from './support/matrix.js';

matrixSuite('full');
