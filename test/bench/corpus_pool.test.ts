/**
 * The corpus's pool of emu worker processes (bench/corpus_worker.ts): more runs at once than
 * workers wait for one (the build driver's pool, one slot per core, may start more runs than
 * `--workers`); every run gets its own program's reply.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram, variant } from '../../images/build.js';
import { EmuPool } from '../../bench/corpus_worker.js';
import { toolsAvailable } from '../support/tools.js';
import { built } from '../support/cli.js';

describe.skipIf(!toolsAvailable() || !built)('corpus: the emu worker pool', () => {
  it('one worker serves four runs started at once, in turn', async () => {
    const v = variant('mipsel', 'bsd');
    const hello = await buildProgram(v, 'hello');
    const echo = await buildProgram(v, 'echo');
    const pool = new EmuPool(1, 120_000);
    try {
      const runs = await Promise.all([hello, echo, hello, echo].map((exe) => pool.run(exe, 10_000_000)));
      for (const r of runs) expect(r.error).toBeUndefined();
      expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 0, 0]);
      expect(runs[0]!.stdout).toBe(runs[2]!.stdout);
      expect(runs[0]!.stdout).toMatch(/hello/i);
      expect(runs[1]!.stdout).toBe('\n');
    } finally {
      pool.close();
    }
  }, 120_000);
});
