/**
 * Instrumented single-process programs, the rest of the matrix (the long programs on every target;
 * test/tracer/support/programs.ts); `npm test`'s part in programs.test.ts.
 */
import { programsSuite } from './support/programs.js';

programsSuite('full');
