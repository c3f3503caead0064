/**
 * `emu run` as a user runs it (the built CLI, bin/emu.js): exit statuses, standard output and
 * error kept apart, isatty of piped streams, --max-instructions, --stats FILE, --truth FILE,
 * --out DIR, --fs DIR, bad targets. Needs `npm run build` (dist/), as `npm test` does first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../images/make.js';
import { ROOT_DIR } from '../../images/build.js';
import { readTruth } from '../../format/truth.js';
import { toolsAvailable } from '../support/tools.js';

const EMU = join(ROOT_DIR, 'bin', 'emu.js');
const built = existsSync(join(ROOT_DIR, 'dist', 'bin', 'cli.js')) || process.env['CI'] === 'true'; // under CI a missing build fails, never skips

function emu(args: string[], input = ''): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [EMU, 'run', ...args], { input, encoding: 'latin1', timeout: 300_000 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe.skipIf(!toolsAvailable() || !built)('emu run (CLI)', () => {
  let bin: Map<string, string>;
  let dir: string;
  beforeAll(async () => {
    const b = await buildAll({ flavours: ['bsd'], targets: ['mips'], programs: ['sh', 'echo', 'cat', 'wc', 'hello', 'ktest-mem', 'ktest-posix'], native: false });
    bin = b.executables.get('bsd-mips')!;
    dir = mkdtempSync(join(tmpdir(), 'emu-cli-'));
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a bare executable: output, exit status, standard error apart', () => {
    const r = emu([bin.get('hello')!]);
    expect(r.stdout).toBe('hello, world\n');
    expect(r.status).toBe(0);
    const s = emu([bin.get('sh')!, '--', '-c', 'exit 7']);
    expect(s.status).toBe(7);
    const e = emu([bin.get('sh')!, '--', '-c', 'nosuchcommand']);
    expect(e.stdout).toBe('');
    expect(e.stderr).toMatch(/nosuchcommand: not found/);
    expect(e.status).toBe(127);
  });

  it('logs kernel events as JSON lines on standard error at --log-level debug, nothing by default', () => {
    const r = emu([bin.get('hello')!, '--log-level', 'debug']);
    expect(r.stdout).toBe('hello, world\n');
    const events = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as { level: number; sys: string; msg: string });
    expect(events.map((e) => e.msg).slice(0, 2)).toEqual(['exec', 'exit']);
    expect(events.every((e) => e.level === 20 && e.sys === 'kernel')).toBe(true);
    expect(emu([bin.get('hello')!]).stderr).toBe('');
  });

  it('feeds standard input to the guest', () => {
    const r = emu([bin.get('wc')!], 'line one\nline two\n');
    expect(r.stdout).toBe('       2       4      18\n');
    expect(r.status).toBe(0);
  });

  it('the guest sees a pipe, not a terminal, where the host has one (isatty)', () => {
    const r = emu([bin.get('ktest-posix')!, '--', 'tty'], 'input');
    expect(r.stdout).toBe('isatty: stdin 0 stdout 0 stderr 0 pipe 0\nktest-posix: 0 passed, 0 failed\n');
    expect(r.status).toBe(0);
  });

  it('--max-instructions stops the machine with status 124', () => {
    const r = emu(['--max-instructions', '1000', bin.get('ktest-mem')!]);
    expect(r.status).toBe(124);
    expect(r.stderr).toMatch(/instruction limit of 1000 reached/);
  });

  it('--stats FILE, --truth FILE and their agreement', () => {
    const stats = join(dir, 's.json');
    const truth = join(dir, 't.bin');
    const r = emu(['--stats', stats, '--truth', truth, bin.get('hello')!]);
    expect(r.status).toBe(0);
    const j = JSON.parse(readFileSync(stats, 'utf8')) as { machine: { instructions: number }; processes: { pid: number; instructions: number; status: string }[] };
    expect(j.processes).toHaveLength(1);
    expect(j.processes[0]!.status).toBe('exit 0');
    let fetches = 0;
    readTruth(readFileSync(truth), truth, (e) => {
      if (e.kind === 'I') fetches++;
    });
    expect(fetches).toBe(j.machine.instructions);
    expect(j.processes[0]!.instructions).toBe(j.machine.instructions);
  });

  it('--fs copies a host directory in, --export exports what the guests wrote', () => {
    const fs = join(dir, 'fs');
    mkdirSync(join(fs, 'bin'), { recursive: true });
    for (const n of ['cat', 'wc']) writeFileSync(join(fs, 'bin', n), readFileSync(bin.get(n)!), { mode: 0o755 });
    writeFileSync(join(fs, 'in.txt'), 'a b c\n');
    const out = join(dir, 'out');
    const r = emu(['--fs', fs, '--export', out, bin.get('sh')!, '--', '-c', 'cat /in.txt /in.txt > /tmp/two; wc < /tmp/two']);
    expect(r.stdout).toBe('       2       6      12\n');
    expect(readFileSync(join(out, 'tmp', 'two'), 'latin1')).toBe('a b c\na b c\n');
    expect(existsSync(join(out, 'in.txt'))).toBe(false);
  });

  it('names a bad target and fails', () => {
    const r = emu([join(dir, 'nothing-here')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/nothing-here: no such image or executable/);
    writeFileSync(join(dir, 'junk.tar'), 'not an archive at all');
    const j = emu([join(dir, 'junk.tar')]);
    expect(j.status).toBe(1);
    expect(j.stderr).toMatch(/junk\.tar/);
  });
});
