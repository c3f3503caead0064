/**
 * Running guest programs' Linux-flavour builds under qemu-user, and their host-native builds, the
 * way the golden-output tests and the CPU differential tests need them.
 *
 * Multi-process programs: qemu-user cannot execve a foreign binary by itself (no binfmt_misc), so
 * the guest libc's Linux layer re-executes through $EMU_QEMU when it is set; PATH points at the
 * guest bin directory so execvp finds guest executables. For host shell command lines ("shell"
 * tests) every guest program name is defined as a shell function running the guest build, so
 * pipelines and redirections are the host shell's while every program is the guest's.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TARGETS } from '../../images/toolchain.js';
import type { TargetName } from '../../format/target.js';

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  status: number | null;
  signal: string | null;
}

export interface RunSpec {
  /** Program executable (absolute path) for args-style runs. */
  exe?: string;
  args?: string[];
  /** Absolute path of a file fed to stdin. */
  stdinFile?: string;
  /** Host shell command line (replaces exe/args). */
  shell?: string;
  /** program name -> absolute executable path, for shell functions and PATH. */
  programs: Map<string, string>;
  /** Directory holding the executables (put first on PATH). */
  binDir: string;
  /** qemu-user target, or undefined for a native run. */
  target?: TargetName;
  timeoutMs?: number;
}

function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Runs one program or shell line in a fresh temporary directory; removes it afterwards. */
export function runGuest(spec: RunSpec): RunResult {
  const dir = mkdtempSync(join(tmpdir(), 'emu-run-'));
  try {
    const env: Record<string, string> = {
      PATH: `${spec.binDir}:/usr/bin:/bin`,
      HOME: dir,
      LC_ALL: 'C',
    };
    const qemu = spec.target ? TARGETS[spec.target].qemu : undefined;
    if (qemu) env['EMU_QEMU'] = findOnPath(qemu);
    let cmd: string;
    let args: string[];
    if (spec.shell !== undefined) {
      const defs = qemu
        ? [...spec.programs].map(([name, exe]) => `${name}() { ${shQuote(env['EMU_QEMU']!)} ${shQuote(exe)} "$@"; }`).join('\n')
        : '';
      cmd = '/bin/sh';
      args = ['-c', `${defs}\n${spec.shell}`];
    } else {
      if (!spec.exe) throw new Error('runGuest: neither exe nor shell given');
      cmd = qemu ? env['EMU_QEMU']! : spec.exe;
      args = qemu ? [spec.exe, ...(spec.args ?? [])] : [...(spec.args ?? [])];
    }
    const input = spec.stdinFile ? readFileSync(spec.stdinFile) : Buffer.alloc(0);
    const r = spawnSync(cmd, args, {
      cwd: dir, env, input, maxBuffer: 256 * 1024 * 1024, timeout: spec.timeoutMs ?? 300_000,
    });
    // EPIPE: the program exited without reading all its standard input (egrep with a bad
    // pattern, say) — its output and status are complete; any other error is the harness's.
    const epipe = (r.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' && (r.status !== null || r.signal !== null);
    if (r.error && !epipe) throw new Error(`running ${cmd}: ${r.error.message}`);
    return { stdout: r.stdout, stderr: r.stderr.toString(), status: r.status, signal: r.signal };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function findOnPath(cmd: string): string {
  for (const d of (process.env['PATH'] ?? '').split(':')) {
    if (!d) continue;
    const p = join(d, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  throw new Error(`${cmd} not found on PATH`);
}
