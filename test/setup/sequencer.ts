/**
 * The order the test files start in. vitest runs the longest first when its results cache knows
 * their durations; without it (a clean checkout, as on CI) it runs the largest files first, and a
 * file that only registers a matrix defined in a support module (test/support/part.ts) is a few
 * lines long, so the longest files would start last and finish alone. Here a file's size counts
 * the modules it imports from its own folder (`./…`) too.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A test file's size plus the sizes of the .ts modules it imports by a `./` path. */
function weight(file: string): number {
  const src = readFileSync(file, 'utf8');
  let n = src.length;
  for (const m of src.matchAll(/from '(\.\/[^']+)\.js'/g)) {
    try {
      n += statSync(resolve(dirname(file), `${m[1]}.ts`)).size;
    } catch {
      // not a TypeScript module of the project
    }
  }
  return n;
}

export default class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const known = files.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`));
    if (known) return super.sort(files);
    const w = new Map(files.map((f) => [f, weight(f.moduleId)]));
    return [...files].sort((a, b) => w.get(b)! - w.get(a)!);
  }
}
