/**
 * The emu command line as a user runs it (bin/emu.js, the built CLI in dist/), for the tests that
 * check commands end to end. `built` gates them: without a build they skip, except under CI,
 * where a missing build fails them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../../images/build.js';

export const EMU = join(ROOT_DIR, 'bin', 'emu.js');
export const built = existsSync(join(ROOT_DIR, 'dist', 'emu.cjs')) || process.env['CI'] === 'true';

export interface CliRun {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** `emu ARGS` with `input` on its standard input; output decoded as latin1 (bytes kept). */
export function emu(args: string[], input = ''): CliRun {
  const r = spawnSync(process.execPath, [EMU, ...args], { input, encoding: 'latin1', timeout: 600_000, maxBuffer: 64 << 20 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** `emu ARGS` in a child process, concurrently with others. */
export function emuAsync(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [EMU, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString('latin1')));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString('latin1')));
    p.on('error', reject);
    p.on('close', (status) => resolve({ stdout, stderr, status }));
  });
}
