/**
 * `emu instrument` and `emu regen` as a user runs them (the built CLI, bin/emu.js; needs
 * `npm run build`, as `npm test` does first): instrument with --run and --truth, regenerate with
 * --verify and in the text format, a divergence and an input error reported with the file name
 * and a non-zero status.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../images/build.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf } from './support/trace.js';

const EMU = join(ROOT_DIR, 'bin', 'emu.js');
const built = existsSync(join(ROOT_DIR, 'dist', 'bin', 'instrument_cmd.js')) || process.env['CI'] === 'true'; // under CI a missing build fails, never skips
const dir = mkdtempSync(join(tmpdir(), 'emu-tracer-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function emu(args: string[]): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [EMU, ...args], { encoding: 'latin1', timeout: 300_000 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe.skipIf(!toolsAvailable() || !built)('emu instrument / emu regen (CLI)', () => {
  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: instrument --run --truth, then regen --verify`, { timeout: 300_000 }, async () => {
      const { path } = await exeOf(target, 'echo');
      const out = join(dir, `echo-${target}.qpt`);
      const r = emu(['instrument', path, '-o', out, '--stats', '--run', '--truth', '--', 'traced', 'words']);
      // --stats goes to standard error: standard output is the program's alone.
      expect(r.stdout).toBe('traced words\n');
      expect(r.stderr).toMatch(/witnessedEdges\s+\d+/);
      expect(r.stderr).toMatch(/conservativeFunctions\s+0/);
      expect(r.status).toBe(0);
      const v = emu(['regen', `${out}.schema.json`, `${out}.trace`, `${out}.sched`, '--verify', `${out}.truth`, '--stats']);
      expect(v.status).toBe(0);
      expect(v.stderr).toMatch(/verified \d+ events against/);
      const t = emu(['regen', `${out}.schema.json`, `${out}.trace`, `${out}.sched`, '--format', 'text']);
      expect(t.status).toBe(0);
      const lines = t.stdout.trim().split('\n');
      // The program starts (exec marker with its path), then runs; it ends with its exit status.
      expect(lines[0]).toBe(`exec 1 ${path}`);
      expect(lines[1]).toMatch(/^switch 1 at 0$/);
      expect(lines.filter((l) => /^exit 1 0$/.test(l))).toHaveLength(1);
      expect(lines.filter((l) => / I /.test(l)).length).toBeGreaterThan(100);
      expect(lines.every((l) => /^(exec|switch|exit|end|1 [ILS] [0-9a-f]{8} [1248])/.test(l))).toBe(true);
      // A flipped trace byte: regeneration reports where it went wrong.
      const bad = new Uint8Array(readFileSync(`${out}.trace`));
      bad[Math.floor(bad.length / 2)] ^= 0x5a;
      writeFileSync(`${out}.bad`, bad);
      const d = emu(['regen', `${out}.schema.json`, `${out}.bad`, `${out}.sched`, '--verify', `${out}.truth`]);
      expect(d.status).not.toBe(0);
      expect(d.stderr).toMatch(/echo|trace position|divergence|witness/);
    });
  }

  it('names the file of a malformed input', () => {
    const f = join(dir, 'not-elf');
    writeFileSync(f, 'plain text');
    const r = emu(['instrument', f, '-o', join(dir, 'x.qpt')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${f}: not an ELF file`);
    const s = emu(['regen', f, f, f]);
    expect(s.status).toBe(1);
    expect(s.stderr).toContain(`${f}: not JSON`);
    const missing = join(dir, 'no-such.trace');
    const m = emu(['regen', missing, '--verify']);
    expect(m.status).toBe(1);
    expect(m.stderr).toContain(`${missing}: no such bundle directory or schema file`);
    const one = emu(['regen', f]);
    expect(one.status).toBe(1);
    expect(one.stderr).toContain(`${f} is not a bundle directory: give a bundle directory, or SCHEMA TRACE SCHED`);
  });
});
