/**
 * The boot images on emu's kernel, `npm test`'s representatives (test/os/support/images.ts): each
 * target, each kind of preemption stress, the determinism of two runs; the rest in
 * images.full.test.ts.
 */
import { imagesSuite } from './support/images.js';

imagesSuite('quick');
