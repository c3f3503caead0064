/**
 * Where the guest sources and builds live: images/ of the checkout, whether this module runs from
 * its source (images/) or compiled (dist/images/). A module of its own, with no imports but paths,
 * so that a command that only needs a directory (the instrumentation cache of `emu instrument`,
 * bin/qpt_cache.ts) does not load the build driver (images/build.ts) and what it needs (child
 * processes, hashing, the toolchain's tables).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const IMAGES_DIR = dirname(fileURLToPath(import.meta.url)).replace(/[\\/]dist[\\/]images$/, '/images');
export const ROOT_DIR = dirname(IMAGES_DIR);
export const LIBC_DIR = join(IMAGES_DIR, 'libc');
export const PROGRAMS_DIR = join(IMAGES_DIR, 'programs');
export const BUILD_DIR = join(IMAGES_DIR, 'build');
