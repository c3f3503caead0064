/**
 * The stages of the torture corpus (bench/corpus.ts, docs/corpus.md). A record is one test in one
 * configuration (target, libc, optimisation level); each stage adds its result to the record,
 * under its name, with the key of its inputs. A rerun skips a stage whose stored key equals the
 * new one, so a finished corpus reruns in seconds and an interrupted one resumes where it was.
 *
 * To add a stage (instrumenting, traced runs, regeneration, trace figures ...): write a `Stage`
 * whose `blocked` names the results it needs (usually `verdict(rec).emuPass`), whose `key` hashes
 * everything its result depends on (an earlier stage's key included), and append it to STAGES.
 * The report counts every stage's statuses; a stage may put figures in `data`.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pool } from '../images/build.js';
import { CORPUS_DIR, buildKey, buildTorture, type CorpusConfig, type TorturePlan, type TortureTest } from '../images/corpus.js';
import { TARGETS } from '../images/toolchain.js';
import { DIST_DIR, type EmuPool } from './corpus_worker.js';

export interface StageResult {
  /** The hash of the stage's inputs; an equal key on a rerun reuses this result. */
  key: string;
  /** ok / pass: success; fail: the program or the build failed; skip: not applicable; error: the harness failed. */
  status: 'ok' | 'pass' | 'fail' | 'skip' | 'error';
  /** One line: why it failed or was skipped. */
  reason?: string;
  /** Stage-specific results (exit status, output, instruction count, figures ...). */
  data?: Record<string, unknown>;
}

export interface CorpusRecord {
  program: string;
  config: CorpusConfig;
  plan: TorturePlan;
  stages: Record<string, StageResult>;
}

export interface StageContext {
  test: TortureTest;
  emu: EmuPool;
  options: RunOptions;
  log: (msg: string) => void;
}

export interface RunOptions {
  /** emu's instruction limit per program (deterministic, unlike a wall-clock limit). */
  maxInstructions: number;
  /** qemu-user's wall-clock limit per program, ms. */
  qemuTimeoutMs: number;
}

export interface Stage {
  name: string;
  /** Why the stage cannot run for this record yet (a result it needs is missing or failed), or undefined. */
  blocked(rec: CorpusRecord): string | undefined;
  key(rec: CorpusRecord, ctx: StageContext): Promise<string>;
  run(rec: CorpusRecord, ctx: StageContext): Promise<Omit<StageResult, 'key'>>;
}

function hash(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
}

/** Output kept in a record: enough to see what a program printed, bounded for big outputs. */
const KEEP_OUTPUT = 2000;

function outputData(stdout: Buffer | string): { stdout: string; stdoutBytes: number; stdoutHash: string } {
  const b = typeof stdout === 'string' ? Buffer.from(stdout, 'latin1') : stdout;
  return { stdout: b.subarray(0, KEEP_OUTPUT).toString('latin1'), stdoutBytes: b.length, stdoutHash: hash(b.toString('latin1')) };
}

function exes(rec: CorpusRecord): { bsd: string; linux: string } {
  return rec.stages['build']!.data!['exe'] as { bsd: string; linux: string };
}

const build: Stage = {
  name: 'build',
  blocked: () => undefined,
  async key(rec, ctx) {
    if (rec.plan.skip) return hash('skip', rec.plan.skip);
    return buildKey(ctx.test, rec.config, rec.plan.flags, rec.plan.ldflags, ctx.log);
  },
  async run(rec, ctx) {
    if (rec.plan.skip) return { status: 'skip', reason: rec.plan.skip };
    const b = await buildTorture(ctx.test, rec.config, rec.plan.flags, rec.plan.ldflags, ctx.log);
    if (!b.ok) return { status: 'fail', reason: `${b.stage}: ${b.reason}`, data: { stage: b.stage, detail: b.detail } };
    return { status: 'ok', data: { exe: b.exe } };
  },
};

/** The stored result is still usable: the executables it names exist with the stamps it saw. */
export function buildStillThere(r: StageResult): boolean {
  if (r.status !== 'ok') return true;
  const e = r.data?.['exe'] as Record<string, string> | undefined;
  return !!e && Object.values(e).every((p) => existsSync(p) && existsSync(`${p}.key`));
}

const qemuVersions = new Map<string, string>();
function qemuVersion(cmd: string): string {
  let v = qemuVersions.get(cmd);
  if (!v) {
    v = execFileSync(cmd, ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
    qemuVersions.set(cmd, v);
  }
  return v;
}

const SIGNALS: Record<string, string> = { SIGABRT: 'SIGABRT', SIGSEGV: 'SIGSEGV', SIGILL: 'SIGILL', SIGBUS: 'SIGBUS', SIGFPE: 'SIGFPE', SIGKILL: 'SIGKILL', SIGTRAP: 'SIGTRAP' };

/** Runs a Linux-flavour build under qemu-user in the build's folder, empty standard input. */
function runQemu(cmd: string, exe: string, cwd: string, timeoutMs: number): Promise<{ status: number | null; signal: string | null; stdout: Buffer; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, [exe], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      p.kill('SIGKILL');
    }, timeoutMs);
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => err.push(d));
    p.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    p.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('latin1').slice(0, KEEP_OUTPUT), timedOut });
    });
  });
}

const qemu: Stage = {
  name: 'qemu',
  blocked: (rec) => (rec.stages['build']?.status === 'ok' ? undefined : 'not built'),
  async key(rec, ctx) {
    const exe = exes(rec).linux;
    return hash('qemu-1', readFileSync(`${exe}.key`, 'utf8'), qemuVersion(TARGETS[rec.config.target].qemu), String(ctx.options.qemuTimeoutMs));
  },
  async run(rec, ctx) {
    // Tests that write files (tmpnam, fopen) do so in a scratch folder, as emu's run in /tmp does.
    const cwd = join(CORPUS_DIR, 'scratch');
    mkdirSync(cwd, { recursive: true });
    const r = await pool.run(() => runQemu(TARGETS[rec.config.target].qemu, exes(rec).linux, cwd, ctx.options.qemuTimeoutMs));
    const data = { exit: r.status, signal: r.signal, ...outputData(r.stdout), stderr: r.stderr };
    if (r.timedOut) return { status: 'fail', reason: `timed out after ${ctx.options.qemuTimeoutMs / 1000} s`, data };
    if (r.signal) return { status: 'fail', reason: `killed by ${SIGNALS[r.signal] ?? r.signal}`, data };
    if (r.status !== 0) return { status: 'fail', reason: `exit status ${r.status}`, data };
    return { status: 'pass', data };
  },
};

const codeHashes = new Map<string, string>();
/** The compiled code of these folders of dist/ (bench/corpus_worker.ts runs it), as one hash. */
function codeHash(dirs: readonly string[]): string {
  const k = dirs.join(',');
  let h = codeHashes.get(k);
  if (!h) {
    const parts: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d).sort()) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (n.endsWith('.js')) parts.push(n, readFileSync(p, 'latin1'));
      }
    };
    for (const d of dirs) if (existsSync(join(DIST_DIR, d))) walk(join(DIST_DIR, d));
    h = hash(...parts);
    codeHashes.set(k, h);
  }
  return h;
}

/**
 * The emulator's code the workers run (dist/cpu, dist/os, dist/format; bench/corpus_worker.ts):
 * a change to it reruns the emu stage, so a fix in the CPU or kernel is measured on the next run.
 */
export function emulatorCodeHash(): string {
  return codeHash(['cpu', 'os', 'format']);
}

const emu: Stage = {
  name: 'emu',
  blocked: (rec) => (rec.stages['build']?.status === 'ok' ? undefined : 'not built'),
  async key(rec, ctx) {
    return hash('emu-1', readFileSync(`${exes(rec).bsd}.key`, 'utf8'), emulatorCodeHash(), String(ctx.options.maxInstructions));
  },
  async run(rec, ctx) {
    const r = await ctx.emu.run(exes(rec).bsd, ctx.options.maxInstructions);
    if (r.error) return { status: 'error', reason: `emulator error: ${r.error.split('\n')[0]}`, data: { error: r.error } };
    const data = { exitCode: r.exitCode, message: r.message, insns: r.insns, ...outputData(r.stdout ?? ''), stderr: (r.stderr ?? '').slice(0, KEEP_OUTPUT) };
    if (r.exitCode !== 0) return { status: 'fail', reason: r.message || `exit status ${r.exitCode}`, data };
    return { status: 'pass', data };
  },
};

/**
 * Tracing (issue 20): a program that passes on emu is instrumented, run traced, and its trace
 * regenerated against ground truth (bench/corpus_trace.ts). Its data: the functions, those in
 * conservative mode (`name: why`), both runs, trace bytes, events compared, and both
 * regenerations' first divergences; traceVerdict judges them.
 */
const trace: Stage = {
  name: 'trace',
  blocked: (rec) => (verdict(rec).emuPass ? undefined : 'does not pass on emu'),
  async key(rec, ctx) {
    return hash('trace-1', readFileSync(`${exes(rec).bsd}.key`, 'utf8'), codeHash(['cpu', 'os', 'format', 'tracer', 'regen', 'bin']), String(ctx.options.maxInstructions));
  },
  async run(rec, ctx) {
    const r = await ctx.emu.run(exes(rec).bsd, ctx.options.maxInstructions, 'trace');
    if (r.error) return { status: 'error', reason: `emulator error: ${r.error.split('\n')[0]}`, data: { error: r.error } };
    const v = traceVerdict(r.trace as Record<string, unknown>);
    return { status: v.pass ? 'pass' : 'fail', ...(v.reason ? { reason: v.reason } : {}), data: { ...r.trace } };
  },
};

/**
 * The trace stage's judgement of its data (bench/corpus_trace.ts TraceReply): it passes when the
 * traced run's exit status and output equal the untraced run's and regeneration equals the
 * traced run's ground truth mapped back (what `emu regen --verify` checks). `departs`: it passes,
 * but regeneration differs from the untraced run's ground truth (a program that reads the clock
 * runs differently when it runs longer): the first divergence.
 */
export function traceVerdict(d: Record<string, unknown>): { pass: boolean; reason?: string; departs?: string } {
  if (d['instrumentError'] !== undefined) return { pass: false, reason: `instrument: ${d['instrumentError'] as string}` };
  const o = d['original'] as { exitCode: number; status: number; stdoutHash: string; stdoutBytes: number } | undefined;
  const x = d['traced'] as { exitCode: number; status: number; message: string; stdoutHash: string; stdoutBytes: number } | undefined;
  if (!o || !x) return { pass: false, reason: 'no traced run' };
  if (x.exitCode !== o.exitCode || x.status !== o.status) {
    return { pass: false, reason: `traced run: exit status ${x.exitCode}${x.message ? ` (${x.message})` : ''}, untraced ${o.exitCode}` };
  }
  if (x.stdoutHash !== o.stdoutHash) return { pass: false, reason: `traced run: standard output differs from the untraced run's (${x.stdoutBytes} bytes, untraced ${o.stdoutBytes})` };
  if (d['verifyMapped']) return { pass: false, reason: `regen against the traced run's ground truth: ${d['verifyMapped'] as string}` };
  return d['verifyOriginal'] ? { pass: true, departs: `regen against the untraced run's ground truth: ${d['verifyOriginal'] as string}` } : { pass: true };
}

/** The stages in order. Later issues append theirs (see the file comment). */
export const STAGES: Stage[] = [build, qemu, emu, trace];

export interface Verdict {
  built: boolean;
  qemuPass: boolean;
  /** emu exited 0 and, where qemu-user passed too, printed the same bytes. */
  emuPass: boolean;
  /** Why emu does not pass ('' when it does). */
  emuError: string;
}

/** The comparison the report and later stages use. */
export function verdict(rec: CorpusRecord): Verdict {
  const b = rec.stages['build'];
  const q = rec.stages['qemu'];
  const e = rec.stages['emu'];
  const built = b?.status === 'ok';
  const qemuPass = q?.status === 'pass';
  let emuPass = e?.status === 'pass';
  let emuError = e ? (e.status === 'pass' ? '' : e.reason ?? e.status) : 'not run';
  if (emuPass && qemuPass && e!.data!['stdoutHash'] !== q!.data!['stdoutHash']) {
    emuPass = false;
    emuError = "standard output differs from qemu-user's";
  }
  return { built, qemuPass, emuPass, emuError };
}
