/**
 * The kernel's own guest tests (images/programs/ktest-*: processes, memory, files and pipes,
 * signals) under preemption stress on all three targets: a quantum of 300 cycles, and randomised
 * clock deadlines. Each must still print its golden output (every check "ok") and exit 0. (The
 * default-quantum runs are part of test/os/programs.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { program } from '../../images/catalog.js';
import { buildAll } from '../../images/make.js';
import { TARGET_NAMES } from '../../format/target.js';
import { toolsAvailable } from '../support/tools.js';
import { runExecutable } from '../../bin/harness.js';

const KTESTS = ['ktest-proc', 'ktest-mem', 'ktest-io', 'ktest-sig'];
const VARIANTS = [
  { label: 'quantum of 300 cycles', quantum: 300, seed: null },
  { label: 'randomised deadlines, seed 7', quantum: 3000, seed: 7 },
] as const;

describe.skipIf(!toolsAvailable())('kernel tests under preemption stress', () => {
  let built: Awaited<ReturnType<typeof buildAll>>;
  beforeAll(async () => {
    built = await buildAll({ flavours: ['bsd'], targets: TARGET_NAMES, programs: [...KTESTS, 'sh', 'echo', 'cat', 'wc'], native: false });
  }, 600_000);
  for (const name of KTESTS) {
    for (const target of TARGET_NAMES) {
      for (const v of VARIANTS) {
        it(`${name} on ${target}, ${v.label}`, () => {
          const bin = built.executables.get(`bsd-${target}`)!;
          const golden = readFileSync(join(program(name).dir, 'golden', 'default.out'), 'latin1');
          const r = runExecutable(bin.get(name)!, { bin, quantum: v.quantum, seed: v.seed });
          expect(r.stdout.toString('latin1')).toBe(golden);
          expect(r.exitCode, r.message).toBe(0);
          // Preemption happened: some process lost the CPU at a quantum's end.
          expect(r.result.kernel.history.reduce((n, p) => n + p.p_ru.nivcsw, 0)).toBeGreaterThan(0);
        }, 600_000);
      }
    }
  }
});
