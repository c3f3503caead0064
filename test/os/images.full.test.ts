/**
 * The boot images on emu's kernel, the rest of the matrix (every image on every target, under both
 * kinds of preemption stress; test/os/support/images.ts); `npm test`'s part in images.test.ts.
 */
import { imagesSuite } from './support/images.js';

imagesSuite('full');
