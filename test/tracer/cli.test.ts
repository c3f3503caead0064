/**
 * `emu instrument` and `emu regen` as a user runs them (the built CLI, bin/emu.js; needs
 * `npm run build`, as `npm test` does first): instrument with --stats (on standard error), trace
 * one program with `emu run PROG --trace --truth` and regenerate the bundle with --verify and in
 * the text format, input errors reported with the file name and a non-zero status.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { built, emu } from '../support/cli.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf } from './support/trace.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-tracer-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!toolsAvailable() || !built)('emu instrument / emu run --trace / emu regen (CLI)', () => {
  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: instrument --stats; one program traced with --truth, then regen --verify`, { timeout: 300_000 }, async () => {
      const { path } = await exeOf(target, 'echo');
      const out = join(dir, `echo-${target}.qpt`);
      const r = emu(['instrument', path, '-o', out, '--stats']);
      expect(r.status).toBe(0);
      // Statistics on standard error, never in standard output.
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/witnessedEdges\s+\d+/);
      expect(r.stderr).toMatch(/conservativeFunctions\s+0/);
      expect(JSON.parse(readFileSync(`${out}.schema.json`, 'utf8')).instrumented.sha256).toMatch(/^[0-9a-f]{64}$/);
      const gone = emu(['instrument', path, '-o', out, '--run']);
      expect(gone.status).toBe(1);
      expect(gone.stderr).toContain(`--run is gone: trace a run with 'emu run ${path} --trace --truth --out DIR -- ARGS'`);
      // The one trace path: the run's own ground truth in the bundle.
      const bundle = join(dir, `echo-${target}.trace`);
      const t = emu(['run', path, '--trace', '--truth', '--out', bundle, '--', 'traced', 'words']);
      expect(t.stdout).toBe('traced words\n');
      expect(t.status).toBe(0);
      const v = emu(['regen', bundle, '--verify', '--stats']);
      expect(v.status).toBe(0);
      expect(v.stderr).toMatch(/verified \d+ events of 1 traced processes against/);
      const x = emu(['regen', bundle, '--format', 'text']);
      expect(x.status).toBe(0);
      const lines = x.stdout.trim().split('\n');
      // The program starts (exec marker with its path) as bdump's child, then runs; it ends with its exit status.
      expect(lines[0]).toBe('exec 2 /bin/echo');
      expect(lines[1]).toMatch(/^switch 2 at \d+$/);
      expect(lines.filter((l) => /^exit 2 0$/.test(l))).toHaveLength(1);
      expect(lines.filter((l) => / I /.test(l)).length).toBeGreaterThan(100);
      expect(lines.every((l) => /^(exec|switch|exit|end|2 [ILS] [0-9a-f]{8} [1248])/.test(l))).toBe(true);
    });
  }

  it('names the file of a malformed input', () => {
    const f = join(dir, 'not-elf');
    writeFileSync(f, 'plain text');
    const r = emu(['instrument', f, '-o', join(dir, 'x.qpt')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${f}: not an ELF file`);
    const missing = join(dir, 'no-such.trace');
    const m = emu(['regen', missing, '--verify']);
    expect(m.status).toBe(1);
    expect(m.stderr).toContain(`${missing}: no such bundle directory`);
    const one = emu(['regen', f]);
    expect(one.status).toBe(1);
    expect(one.stderr).toContain(`${f} is not a trace bundle directory (emu run IMAGE|PROG --trace --out DIR writes one)`);
  });
});
