/**
 * The table engine and the compiled schemas against the interpreter on jmptest (123 M events;
 * test/regen/support/engines.ts): the long run of regen.test.ts's check.
 */
import { enginesSuite } from './support/engines.js';

enginesSuite('full');
