/**
 * The shipped guest programs of the BSD-flavour build (images/build.ts), for tests of the
 * instrumenter's analyses. A test file builds what it reads in its own `beforeAll` (buildBsd; the
 * build cache makes that cheap once any file built them): the suite's files run in parallel, so
 * none may count on another having built them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR, buildProgram, variant } from '../../images/build.js';
import type { TargetName } from '../../format/target.js';
import { loadProgram, type Program } from '../../tracer/program.js';

/** Builds (or finds in the build cache) each [target, program] of the BSD flavour. */
export async function buildBsd(list: readonly (readonly [TargetName, string])[]): Promise<void> {
  for (const [target, program] of list) await buildProgram(variant(target, 'bsd'), program);
}

/** A built BSD-flavour program, loaded as the instrumenter loads it. */
export function loadBsd(target: TargetName, program: string): Program {
  const path = join(BUILD_DIR, `bsd-${target}`, 'bin', program);
  return loadProgram(new Uint8Array(readFileSync(path)), path);
}
