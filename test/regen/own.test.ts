/**
 * Tracing your own program as a bare executable (`emu run PROG --trace`), on mipsel (mips and
 * sparc: own.full.test.ts): see test/regen/own/suite.ts. Also the command line's refusals: a
 * --trace-exec that names no absolute path, an executable the instrumenter cannot take (no
 * symbols), --trace-exec with an image.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../images/build.js';
import { TARGETS, tool } from '../../images/toolchain.js';
import { toolsAvailable } from '../support/tools.js';
import { built, emu } from '../support/cli.js';
import { ownProgramSuite } from './own/suite.js';

ownProgramSuite(['mipsel']);

describe.skipIf(!toolsAvailable() || !built)('emu run PROG --trace: refusals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emu-own-err-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the problem, exits 1 and leaves no bundle', () => {
    const prog = join(dir, 'hello');
    const src = join(ROOT_DIR, 'images', 'programs', 'hello', 'hello.c');
    expect(emu(['images', 'cc', '-t', 'mipsel', src, '-o', prog]).status).toBe(0);
    const out = join(dir, 'b.trace');
    const rel = emu(['run', prog, '--trace', '--trace-exec', 'bin/child', '--out', out]);
    expect(rel.stderr).toBe("emu: --trace-exec: 'bin/child' is not all, none or an absolute guest path\n");
    expect(rel.status).toBe(1);
    const stripped = join(dir, 'hello.stripped');
    expect(spawnSync(tool(TARGETS.mipsel, 'strip'), ['-o', stripped, prog]).status).toBe(0);
    const s = emu(['run', stripped, '--trace', '--out', out]);
    expect(s.stderr).toMatch(/hello\.stripped: no symbol table/);
    expect(s.status).toBe(1);
    expect(existsSync(out)).toBe(false);
    const img = emu(['run', 'demo-mipsel', '--trace', '--trace-exec', 'none', '--out', out]);
    expect(img.stderr).toMatch(/--trace-exec goes with an executable/);
    expect(img.status).toBe(1);
    const untraced = emu(['run', prog, '--trace-exec', 'none']);
    expect(untraced.stderr).toMatch(/go with --trace/);
    expect(untraced.status).toBe(1);
    // A named program that is not instrumentable runs untraced, with a warning.
    const named = emu(['run', prog, '--trace', '--trace-exec', '/bin/sh', '--out', out]);
    expect(named.stdout).toBe('hello, world\n');
    expect(named.status).toBe(0);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
  });
});
