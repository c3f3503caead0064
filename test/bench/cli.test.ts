/**
 * The benchmark scripts' command lines (bench/cli.ts): each one prints its usage for --help and
 * exits 0, and rejects an unknown option with a message and exit status 1, before any work. Runs
 * the built scripts (npm test builds first; outside CI a missing build skips with a message).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../images/build.js';

const SCRIPTS = ['corpus', 'cpu-mips', 'cpu-sparc', 'kernel', 'replay', 'sparc-tlb', 'trace', 'tracer', 'tracer_bytes'];
const DIST = join(ROOT_DIR, 'dist', 'bench');
const BUILT = existsSync(join(DIST, 'cli.js')) || process.env['CI'] === 'true';
if (!BUILT) console.warn(`test/bench/cli.test.ts: skipped, ${DIST} is not built (npm run build)`);

function run(script: string, args: string[]): { out: string; err: string; status: number | null } {
  const r = spawnSync(process.execPath, [join(DIST, `${script}.js`), ...args], { encoding: 'utf8', timeout: 60_000 });
  return { out: r.stdout, err: r.stderr, status: r.status };
}

describe.skipIf(!BUILT)('benchmark command lines', () => {
  for (const s of SCRIPTS) {
    it(`${s}: --help prints its usage; an unknown option is an error`, () => {
      const h = run(s, ['--help']);
      expect(h.status).toBe(0);
      expect(h.out).toContain(`Usage: ${s}.js [options]`);
      const bad = run(s, ['--no-such-option']);
      expect(bad.status).toBe(1);
      expect(bad.err).toContain("unknown option '--no-such-option'");
      expect(bad.out).toBe('');
    });
  }

  it('a misspelt workload or target is named in the error', () => {
    const w = run('cpu-sparc', ['lix']);
    expect(w.status).toBe(1);
    expect(w.err).toContain("unknown workload 'lix'");
    const t = run('tracer', ['--targets', 'vax']);
    expect(t.status).toBe(1);
    expect(t.err).toContain("unknown target 'vax'");
    const n = run('sparc-tlb', ['--reps', '0']);
    expect(n.status).toBe(1);
    expect(n.err).toContain("'0' is not an integer >= 1");
  });
});
