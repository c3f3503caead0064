/**
 * Instrumented single-process programs, `npm test`'s representatives (test/tracer/support/programs.ts):
 * the short programs on every target, li, sgefa and cc1 on mipsel; the rest in programs.full.test.ts.
 */
import { programsSuite } from './support/programs.js';

programsSuite('quick');
