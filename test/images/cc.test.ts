/**
 * `emu images cc` as a user runs it (the built CLI): `-X` takes one flag each time and may be
 * repeated, `-X=FLAG` passes FLAG, gcc's warnings reach standard error, `--verbose` shows the
 * command lines, and the program built runs under emu with the flags' effect.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { built, emu } from '../support/cli.js';
import { toolsAvailable } from '../support/tools.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-cc-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!toolsAvailable() || !built)('emu images cc (CLI)', () => {
  it('-X FLAG repeated, -X=FLAG, warnings and --verbose', () => {
    const src = join(dir, 'n.c');
    writeFileSync(src, '#include <stdio.h>\nint main(void) { int unused; printf("N=%d M=%d\\n", N, M); return 0; }\n');
    const out = join(dir, 'n');
    const r = emu(['images', 'cc', '-t', 'mips', '-X', '-O1', '-X', '-DN=100', '-X=-DM=7', src, '-o', out, '--verbose']);
    expect(r.stderr).toMatch(/warning: unused variable .{1,3}unused.{1,3}/);
    expect(r.stderr).toMatch(/mips-linux-gnu-gcc .* -O1 -DN=100 -DM=7 -c \S+n\.c -o /);
    expect(r.stderr).toMatch(/mips-linux-gnu-gcc .*-Wl,--emit-relocs.* -o /);
    expect(r.status).toBe(0);
    const run = emu(['run', out]);
    expect(run.stdout).toBe('N=100 M=7\n');
    // Without --verbose: the warning only.
    const q = emu(['images', 'cc', '-t', 'mips', '-X', '-DN=1', '-X', '-DM=2', src, '-o', out]);
    expect(q.status).toBe(0);
    expect(q.stderr).toMatch(/warning: unused variable/);
    expect(q.stderr).not.toMatch(/mips-linux-gnu-gcc/);
  });

  it('a compile error names the source and exits 1, writing no executable', () => {
    const src = join(dir, 'bad.c');
    writeFileSync(src, 'int main(void) { return N; }\n');
    const out = join(dir, 'bad');
    const r = emu(['images', 'cc', '-t', 'sparc', src, '-o', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad\.c:1:\d+: error: .{1,3}N.{1,3} undeclared/);
    expect(existsSync(out)).toBe(false);
  });
});
