/**
 * Everyday use on bad input (issue 23): each finding of the issue as a regression test, on one
 * small traced bundle (sh -c 'textgen | wc' under `emu run sh --trace --truth`: three traced
 * processes, 0.5 s of CPU) and small runs of the CLI. Every refusal is a one-line `emu:` message
 * naming the file and the cause, a non-zero exit, before any work, and no output left behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, variant } from '../../images/build.js';
import { toolsAvailable } from '../support/tools.js';
import { built, emu, EMU } from '../support/cli.js';
import { interruptible, Interrupted } from '../../bin/interrupt.js';

const work = mkdtempSync(join(tmpdir(), 'emu-harden-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The files of the work directory that are not `keep` (temporary names included). */
function leftovers(keep: readonly string[]): string[] {
  return readdirSync(work).filter((f) => !keep.includes(f));
}

/** `emu ARGS` with a time bound (a hang fails the test instead of the suite). */
function emuBounded(args: string[], ms = 60_000): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [EMU, ...args], { encoding: 'latin1', timeout: ms });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** One line, starting with "emu: ", matching re; exit 1. */
function refused(r: { stderr: string; status: number | null }, re: RegExp): void {
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/^emu: /);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(re);
}

describe('interrupts (bin/interrupt.ts)', () => {
  it('the first signal asks the work to stop (130) and removes the handler: a second one takes the default action', async () => {
    const before = process.listenerCount('SIGINT');
    let restored = 0;
    const intr = interruptible(() => restored++);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    await intr.between();
    process.emit('SIGINT', 'SIGINT');
    expect(restored).toBe(1);
    expect(process.listenerCount('SIGINT'), 'handler gone: a second Ctrl-C ends emu at once').toBe(before);
    const e = await intr.between().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Interrupted);
    expect((e as Interrupted).exitCode).toBe(130);
    intr.dispose();
  });
});

describe.skipIf(!toolsAvailable() || !built)('bad input and outputs on the command line (issue 23)', () => {
  let sh = '';
  let textgen = '';
  let fs = '';
  const bundle = join(work, 'p.trace');
  const keep = ['fs', 'p.trace'];

  beforeAll(async () => {
    const v = variant('mipsel', 'bsd');
    sh = await buildProgram(v, 'sh');
    textgen = await buildProgram(v, 'textgen');
    const wc = await buildProgram(v, 'wc');
    await buildProgram(v, 'bdump');
    fs = join(work, 'fs');
    mkdirSync(join(fs, 'bin'), { recursive: true });
    for (const [n, p] of [['textgen', textgen], ['wc', wc]] as const) copyFileSync(p, join(fs, 'bin', n));
    const r = emu(['run', sh, '--trace', '--truth', '--fs', fs, '--out', bundle, '--', '-c', 'textgen 300 | wc']);
    expect(r.status, r.stderr).toBe(0);
  }, 120_000);

  it('--out under /proc is refused at once (Node\'s recursive mkdir loops there)', () => {
    const r = emuBounded(['run', textgen, '--trace', '--out', '/proc/emu-no-such-bundle', '--', '10'], 30_000);
    refused(r, /--out: \/proc\/emu-no-such-bundle: cannot create it in \/proc/);
  });

  it('regen with the default --format bin and no -o is refused before work, not a silent success', () => {
    refused(emu(['regen', bundle]), /nothing to do: --format bin writes to a file \(-o FILE\)/);
    refused(emu(['regen', bundle, '--format', 'text', '--pid', '99']), /--pid: no traced process 99 in .*p\.trace \(its traced processes: \d+(, \d+)*\)/);
  });

  it('regen --stats lists the processes by pid with their event counts', () => {
    const r = emu(['regen', bundle, '--stats']);
    expect(r.status, r.stderr).toBe(0);
    const rows = [...r.stderr.matchAll(/^pid (\d+) (\S+): (\d+) events, /gm)];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const pids = rows.map((m) => Number(m[1]));
    expect(pids).toEqual([...pids].sort((a, b) => a - b));
    const total = Number(/^(\d+) events, /m.exec(r.stderr)![1]);
    expect(rows.reduce((n, m) => n + Number(m[3]), 0)).toBe(total);
  });

  it('a flipped byte of the truth: regen --verify and replay --truth report the truth\'s damaged block first', () => {
    const dir = join(work, 'flip.trace');
    cpSync(bundle, dir, { recursive: true });
    const f = join(dir, 'truth');
    const b = readFileSync(f);
    b[b.length >> 1] ^= 0x20;
    writeFileSync(f, b);
    for (const args of [['regen', dir, '--verify'], ['replay', dir, '--truth']]) {
      refused(emu(args), /flip\.trace\/truth: damaged: block \d+ \(bytes \d+-\d+\) does not match its CRC-32 in the manifest/);
    }
    rmSync(f);
    for (const args of [['regen', dir, '--verify'], ['replay', dir, '--truth']]) {
      refused(emu(args), /flip\.trace\/truth: missing \(the manifest lists a ground truth of \d+ bytes\)/);
    }
    rmSync(dir, { recursive: true });
  });

  it('a truncated trace: the cause first, then where regeneration stopped', () => {
    const dir = join(work, 'cut.trace');
    cpSync(bundle, dir, { recursive: true });
    const f = join(dir, 'trace');
    const b = readFileSync(f);
    writeFileSync(f, b.subarray(0, b.length >> 1));
    const r = emu(['regen', dir, '--format', 'din', '-o', join(work, 'cut.din')]);
    refused(r, /^emu: \S*cut\.trace\/trace: truncated: \d+ of the \d+ bytes the manifest lists: so regeneration stops: .*\(event \d+, pid \d+\)$/m);
    rmSync(dir, { recursive: true });
    expect(leftovers(keep)).toEqual([]);
  });

  it('machine options are checked before any work: no bundle directory is left', () => {
    const out = join(work, 'x.trace');
    refused(emu(['run', textgen, '--trace', '--trbuf-size', '1G', '--out', out]), /--trbuf-size: 1073741824 bytes is more than the 128M/);
    refused(emu(['run', textgen, '--trace', '--mem', '1M', '--out', out]), /--trbuf-size: a trace buffer of 1048576 bytes needs at least 2097152 bytes of memory .*--mem is 1048576/);
    refused(emu(['run', textgen, '--maxproc', '0', '--', '1']), /--maxproc: 0 is too small/);
    refused(emu(['run', textgen, '--trace', '--maxproc', '1', '--out', out]), /--maxproc: 1 is too small: a traced run needs 2 processes/);
    expect(leftovers(keep)).toEqual([]);
  });

  it('missing inputs and impossible outputs: one line naming the file the user gave', () => {
    const missing = join(work, 'missing');
    refused(emu(['disasm', missing]), /missing: no such file$/m);
    refused(emu(['instrument', missing, '-o', join(work, 'y')]), /missing: no such file$/m);
    refused(emu(['regen', bundle, '--format', 'din', '-o', '/nonexistent/x.din']), /-o: \/nonexistent\/x\.din: the directory \/nonexistent does not exist/);
    expect(leftovers(keep)).toEqual([]);
  });

  it('replay --timeline to a bad path fails before the replay', () => {
    const r = emu(['replay', bundle, '--timeline', '/nonexistent/t.json']);
    refused(r, /--timeline: \/nonexistent\/t\.json: the directory \/nonexistent does not exist/);
    expect(r.stdout).toBe('');
  });

  it('--stats and --truth never take the target as their file, and no output replaces an input', () => {
    const exe = join(work, 'tg');
    copyFileSync(textgen, exe);
    chmodSync(exe, 0o755);
    const before = readFileSync(exe);
    refused(emu(['run', '--stats', exe]), /--stats took '.*tg' as its file, and '.*tg' is an ELF executable: write --stats=FILE/);
    refused(emu(['run', '--truth', exe]), /--truth took '.*tg' as its file/);
    refused(emu(['run', exe, `--stats=${exe}`, '--', '1']), /--stats: .*tg is an ELF executable; it is not overwritten/);
    refused(emu(['instrument', exe, '-o', exe]), /-o: .*tg is an input of this command/);
    expect(readFileSync(exe).equals(before)).toBe(true);
    const ok = emu(['run', exe, '--stats', '--', '1']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/^pid +ppid +command/m);
    rmSync(exe);
  });

  it('--out is the bundle, --export the guest files; --out without --trace says so', () => {
    refused(emu(['run', textgen, '--out', join(work, 'd'), '--', '1']), /--out names the trace bundle and goes with --trace; .* use --export /);
    const d = join(work, 'exported');
    const r = emu(['run', sh, '--fs', fs, '--export', d, '--', '-c', 'textgen 20 > /out.txt']);
    expect(r.status, r.stderr).toBe(0);
    expect(statSync(join(d, 'out.txt')).size).toBeGreaterThan(0);
    rmSync(d, { recursive: true });
    const notBundle = join(work, 'fs');
    refused(emu(['run', textgen, '--trace', '--out', notBundle, '--', '1']), /--out: .*fs exists and is not a trace bundle; it is not replaced/);
    expect(existsSync(join(notBundle, 'bin', 'wc'))).toBe(true);
  });

  it('the manifest records the file name and sha256 of what ran, not its host path', () => {
    const m = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as { executable: { file: string; sha256: string } };
    expect(m.executable.file).toBe('sh');
    expect(m.executable.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('Ctrl-C on a traced run: exit 130, no bundle and no temporary directory left', async () => {
    const out = join(work, 'int.trace');
    const p = spawn(process.execPath, [EMU, 'run', textgen, '--trace', '--out', out, '--', '500000000'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Interrupt once the run is under way (its temporary bundle directory exists).
    for (let i = 0; i < 600 && !readdirSync(work).some((f) => f.startsWith('.int.trace.')); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    p.kill('SIGINT');
    const status = await new Promise<number | null>((r) => p.on('close', r));
    expect(status, stderr).toBe(130);
    expect(stderr).toMatch(/^emu: interrupted \(SIGINT\)/m);
    expect(leftovers(keep)).toEqual([]);
  }, 60_000);

  it.skipIf(!existsSync('/usr/bin/script'))('Ctrl-C on a terminal: line wrap on and the progress line ended', async () => {
    const log = join(work, 'tty.log');
    const cmd = `exec ${process.execPath} ${EMU} run ${textgen} -- 500000000 >/dev/null`;
    const p = spawn('script', ['-qefc', cmd, log], { stdio: ['pipe', 'ignore', 'ignore'] });
    // The progress bar is on once the log shows it; then interrupt emu (script's child).
    for (let i = 0; i < 600 && !(existsSync(log) && readFileSync(log, 'latin1').includes('instructions')); i++) await new Promise((r) => setTimeout(r, 50));
    const child = readFileSync(`/proc/${p.pid}/task/${p.pid}/children`, 'latin1').trim().split(' ')[0]!;
    process.kill(Number(child), 'SIGINT');
    const status = await new Promise<number | null>((r) => p.on('close', r));
    const text = readFileSync(log, 'latin1');
    expect(status, text).toBe(130);
    expect(text.lastIndexOf('\x1b[?7h')).toBeGreaterThan(text.lastIndexOf('\x1b[?7l'));
    expect(text).toMatch(/\x1b\[\?7h[^\n]*\n[^]*emu: interrupted/);
    rmSync(log);
  }, 60_000);
});
