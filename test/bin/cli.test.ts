/**
 * The command line's start-up (bin/cli.ts, bin/commands.ts, bin/emu.js): `emu --help` lists every
 * command from bin/commands.ts as the commands themselves would, without loading them; the
 * launcher runs the bundle with or without a code cache, and a stale, foreign or unwritable cache
 * changes nothing but the time. Needs `npm run build` (dist/emu.cjs), as `npm test` does first.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Help } from 'commander';
import { makeProgram, selectedCommand } from '../../bin/cli.js';
import { COMMANDS, describe as describeCommand, term } from '../../bin/commands.js';
import { logger, setLogLevel } from '../../bin/log.js';
import { ROOT_DIR } from '../../images/build.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf } from '../tracer/support/trace.js';

const BUNDLE = join(ROOT_DIR, 'dist', 'emu.cjs');
const built = existsSync(BUNDLE) || process.env['CI'] === 'true'; // under CI a missing build fails, never skips

describe('the command table', () => {
  it('gives each command the term and description the command itself has', async () => {
    const program = await makeProgram(true);
    const help = new Help();
    expect(program.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c[0]));
    for (const c of program.commands) {
      const name = c.name() as (typeof COMMANDS)[number][0];
      expect(term(name)).toBe(help.subcommandTerm(c));
      expect(describeCommand(name)).toBe(c.description());
    }
  });

  it('finds the command argv selects', () => {
    const argv = (...a: string[]) => ['node', 'emu', ...a];
    expect(selectedCommand(argv('run', 'x', '--', 'regen'))).toBe('run');
    expect(selectedCommand(argv('--log-level', 'debug', 'regen', 'b'))).toBe('regen');
    expect(selectedCommand(argv('--log-level=info', 'disasm'))).toBe('disasm');
    expect(selectedCommand(argv('help', 'replay'))).toBe('replay');
    expect(selectedCommand(argv('--help'))).toBeUndefined();
    expect(selectedCommand(argv('nosuch'))).toBe('nosuch');
    expect(selectedCommand(argv('nosuch'), true)).toBeUndefined();
  });
});

describe('loggers', () => {
  it('take the level set when they are made; disabled levels do nothing', () => {
    setLogLevel('warn');
    const quiet = logger('test');
    setLogLevel('debug');
    const loud = logger('test');
    setLogLevel('warn');
    expect(quiet.isLevelEnabled('debug')).toBe(false);
    expect(quiet.isLevelEnabled('warn')).toBe(true);
    expect(loud.isLevelEnabled('debug')).toBe(true);
    expect(loud.isLevelEnabled('trace')).toBe(false);
    expect(() => quiet.debug({ pid: 1 }, 'not written')).not.toThrow();
    expect(() => setLogLevel('loud')).toThrow(/unknown log level 'loud'/);
  });
});

describe.skipIf(!built)('the launcher (bin/emu.js) and its code cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emu-launch-'));
  afterAll(() => {
    chmodSync(join(dir, 'dist'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });
  // A copy of the launcher and the bundle: the cache is written beside the copy, not in dist/.
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist'));
  copyFileSync(join(ROOT_DIR, 'bin', 'emu.js'), join(dir, 'bin', 'emu.js'));
  copyFileSync(BUNDLE, join(dir, 'dist', 'emu.cjs'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const cache = join(dir, 'dist', 'emu.cjs.cache');
  const emu = (...args: string[]) => spawnSync(process.execPath, [join(dir, 'bin', 'emu.js'), ...args], { encoding: 'latin1' });
  const header = () => readFileSync(cache, 'latin1').split('\n', 1)[0]!.split(' ');
  const help = emu('--help');

  it('lists every command without loading one', () => {
    // The modules behind the commands load zlib (schemas, images), worker_threads (pino) and crypto;
    // commander's executable subcommands, which emu has none of, child_process (bin/bundle.ts).
    const probe = join(dir, 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write(process.moduleLoadList.filter((m) => /^NativeModule (zlib|worker_threads|crypto|child_process)$/.test(m)).join(',')));\n");
    const r = spawnSync(process.execPath, ['-r', probe, join(ROOT_DIR, 'bin', 'emu.js'), '--help'], { encoding: 'latin1' });
    expect(r.status).toBe(0);
    for (const [name] of COMMANDS) expect(r.stdout).toContain(`  ${name}`);
    expect(r.stderr).toBe('');
  });

  it.skipIf(!toolsAvailable())('instruments without loading the Node modules only other commands use', { timeout: 300_000 }, async () => {
    // zlib (gzip schemas: the cache, bundles), child_process and os (the image builder), perf_hooks.
    const { path } = await exeOf('mipsel', 'echo');
    const probe = join(dir, 'probe-instrument.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write(process.moduleLoadList.filter((m) => /^NativeModule (zlib|child_process|os|perf_hooks|worker_threads)$/.test(m)).join(',')));\n");
    const out = join(dir, 'echo.qpt');
    const r = spawnSync(process.execPath, ['-r', probe, join(ROOT_DIR, 'bin', 'emu.js'), 'instrument', path, '-o', out, '--no-cache'], { encoding: 'latin1' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(`${out}.schema.json`, 'utf8')).instrumented.size).toBe(readFileSync(out).length);
  });

  it('writes a cache on the first run and extends it once per command', () => {
    expect(help.status).toBe(0);
    expect(header()[2]).toBe('help');
    const again = emu('--help');
    expect(again.stdout).toBe(help.stdout);
    const d = emu('disasm', '--help');
    expect(d.status).toBe(0);
    expect(header()[2]).toBe('help,disasm');
    expect(emu('disasm', '--help').stdout).toBe(d.stdout);
    expect(header()[2]).toBe('help,disasm');
  });

  it('keeps the cache valid across instrument, which runs with a larger interrupt budget', () => {
    // `instrument` sets a tiering flag, part of the hash V8 stamps a cache with, and setting it
    // back does not restore the hash on every V8: the launcher sets it only on runs that do not
    // write the cache, so the next command's run accepts the cache and extends it.
    rmSync(cache, { force: true });
    expect(emu('instrument', '--help').status).toBe(0);
    expect(header()[2]).toBe('instrument');
    expect(emu('disasm', '--help').status).toBe(0);
    expect(header()[2]).toBe('instrument,disasm');
    // This run takes the cache and sets the flag: one the running V8 does not know would be
    // reported on stderr (V8 12 has no --interrupt-budget).
    const hot = emu('instrument', '--help');
    expect(hot.status).toBe(0);
    expect(hot.stderr).toBe('');
    expect(header()[2]).toBe('instrument,disasm');
    expect(emu('disasm', '--help').status).toBe(0);
    expect(header()[2]).toBe('instrument,disasm');
  });

  it('runs from a cache V8 rejects and replaces it', () => {
    const [size, mtime] = header();
    writeFileSync(cache, `${size} ${mtime} help,disasm\nnot a code cache`);
    const r = emu('--help');
    expect(r.stdout).toBe(help.stdout);
    expect(header()[2]).toBe('help');
    expect(readFileSync(cache).length).toBeGreaterThan(1000);
  });

  it('ignores a cache made from another bundle', () => {
    writeFileSync(cache, '1 2 help\ngarbage');
    expect(emu('--help').stdout).toBe(help.stdout);
    expect(header()[0]).not.toBe('1');
  });

  it('runs without a cache where dist/ is read-only', () => {
    rmSync(cache);
    chmodSync(join(dir, 'dist'), 0o555);
    const r = emu('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(help.stdout);
    if (process.getuid?.() !== 0) expect(existsSync(cache)).toBe(false); // root writes anyway
  });

  it('reports a missing bundle', () => {
    rmSync(join(dir, 'dist', 'emu.cjs'), { force: true });
    chmodSync(join(dir, 'dist'), 0o755);
    rmSync(join(dir, 'dist', 'emu.cjs'), { force: true });
    const r = emu('--help');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/emu\.cjs is missing; run 'npm install'/);
  });
});
