/**
 * `emu run [IMAGE|PROG] [-- command ...]`: boots a machine from a boot image (default
 * images/boot/demo-mipsel.tar) or runs a bare guest executable as the only process, with the
 * kernel of os/ (docs/kernel.md). The exit status is init's (or the program's): its exit code, or
 * 128 + the signal that killed it; 124 when --max-instructions stopped the run, 125 on a deadlock.
 */
import { existsSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command, Option } from 'commander';
import { describe } from './commands.js';
import type cliProgress from 'cli-progress';
import { readImage } from '../format/image.js';
import { MACHINE_DEFAULTS } from '../format/image.js';
import type { Console } from '../os/dev.js';
import { exportFiles, runMachine, prepare, finish, type RunRequest } from '../os/run.js';
import { formatStats } from '../os/stats.js';
import type { TraceExec, TraceRunRequest } from './trace_run.js';
import { TRUTH_FORMATS, type TruthFormat } from '../format/truth.js';
import { FileSink } from '../format/sink.js';
import { LOG_LEVELS, logger, setLogLevel } from './log.js';
import { parseSize } from './units.js';

/** The console on the host's standard output and input. */
export class HostConsole implements Console {
  private chunks: Buffer[] = [];
  private pending = 0;
  /** The guest sees a terminal where the host has one (isatty tells a pipe from the console). */
  readonly terminals = { stdin: !!process.stdin.isTTY, stdout: !!process.stdout.isTTY, stderr: !!process.stderr.isTTY };
  private input: Buffer | null = null;
  private eof = false;

  write(bytes: Uint8Array): void {
    this.chunks.push(Buffer.from(bytes));
    this.pending += bytes.length;
    if (this.pending >= 1 << 16) this.flush();
  }

  /** The guest's standard error (/dev/stderr) goes straight to the host's, after pending output. */
  writeErr(bytes: Uint8Array): void {
    this.flush();
    let off = 0;
    while (off < bytes.length) {
      try {
        off += writeSync(2, bytes, off, bytes.length - off);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      }
    }
  }

  flush(): void {
    if (this.pending === 0) return;
    const b = Buffer.concat(this.chunks);
    this.chunks = [];
    this.pending = 0;
    let off = 0;
    while (off < b.length) {
      try {
        off += writeSync(1, b, off, b.length - off);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      }
    }
  }

  /** Standard input: read whole on first use when it is not a terminal, line by line when it is. */
  read(max: number): Uint8Array {
    this.flush();
    if (process.stdin.isTTY) {
      if (this.eof) return new Uint8Array(0);
      const b = Buffer.alloc(Math.min(max, 4096));
      let n = 0;
      try {
        n = readSync(0, b, 0, b.length, null);
      } catch {
        n = 0;
      }
      if (n === 0) this.eof = true;
      return b.subarray(0, n);
    }
    if (this.input === null) {
      try {
        this.input = readFileSync(0);
      } catch {
        this.input = Buffer.alloc(0);
      }
    }
    const r = this.input.subarray(0, max);
    this.input = this.input.subarray(r.length);
    return r;
  }
}

/** "300" (cycles), "50us", "10ms" → cycles at cpuHz. */
export function parseQuantum(s: string, cpuHz: number): number {
  const m = /^(\d+(?:\.\d+)?)(us|ms|)$/.exec(s);
  if (!m) throw new Error(`--quantum: '${s}' is not a number of cycles, or of us / ms`);
  const v = Number(m[1]);
  const cycles = m[2] === 'ms' ? (v * cpuHz) / 1000 : m[2] === 'us' ? (v * cpuHz) / 1e6 : v;
  if (!(cycles >= 1)) throw new Error(`--quantum: '${s}' is less than one cycle`);
  return Math.round(cycles);
}

function isElf(file: string): boolean {
  const b = readFileSync(file).subarray(0, 4);
  return b.length === 4 && b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46;
}

/**
 * A path, or the name of a shipped image (demo-sparc → images/boot/demo-sparc.tar). An existing
 * path is taken without loading the image packer (images/pack.ts).
 */
async function resolveTarget(t: string | undefined): Promise<string> {
  if (t !== undefined && existsSync(t)) return t;
  const { BOOT_DIR } = await import('../images/pack.js');
  if (t === undefined) {
    const def = join(BOOT_DIR, 'demo-mipsel.tar');
    if (!existsSync(def)) throw new Error(`the default image ${def} does not exist (build the images with 'npm run images')`);
    return def;
  }
  for (const c of [join(BOOT_DIR, `${t}.tar`), join(BOOT_DIR, t)]) if (existsSync(c)) return c;
  throw new Error(`${t}: no such image or executable`);
}

interface RunOpts {
  quantum?: string;
  mem?: string;
  maxproc?: string;
  out?: string;
  maxInstructions?: string;
  seed?: string;
  truth?: string | boolean;
  truthFormat: TruthFormat;
  trace?: boolean;
  traceExec?: string;
  trbufSize?: string;
  periodic?: boolean;
  dummy?: boolean;
  cache: boolean;
  stats?: string | boolean;
  fs?: string;
  cwd?: string;
  logLevel?: string;
  progress: boolean;
}

function intOpt(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`${what}: '${v}' is not a non-negative integer`);
  return Number(v);
}

export function runCommand(): Command {
  return new Command('run')
    .description(describe('run'))
    .argument('[target]', 'boot image (.tar, or a name in images/boot) or a guest ELF executable')
    .argument('[args...]', 'after --: the command line to run instead of /etc/rc (image), or argv[1..] (executable)')
    .option('--quantum <q>', 'round-robin quantum: cycles, or with a us/ms suffix (default: the image\'s quantum_ms)')
    .option('--mem <size>', 'physical memory, e.g. 64M (default: the image\'s)')
    .option('--maxproc <n>', 'size of the process table (default 64)')
    .option('--out <dir>', 'export the files the guests created or changed into this host directory')
    .option('--max-instructions <n>', 'stop after this many user instructions (exit status 124)')
    .option('--seed <n>', 'randomised clock deadlines and device latencies from this seed (stress mode)')
    .option('--truth [file]', 'write the ground-truth trace (every user fetch, load, store and context switch); with --trace: into the bundle')
    .addOption(new Option('--truth-format <fmt>', 'ground-truth format').choices(TRUTH_FORMATS).default('bin'))
    .option('--stats [file]', 'per-process statistics: JSON to file, or a table on standard error')
    .option('--fs <dir>', 'copy this host directory into the guest filesystem first')
    .option('--cwd <dir>', 'working directory of the first process (default /)')
    .addOption(new Option('--log-level <level>', 'log level on stderr (kernel events at debug)').choices(LOG_LEVELS))
    .option('--no-progress', 'no progress display on a terminal')
    .option('--trace', 'write a trace bundle (--out DIR; docs/trace-bundle.md): trace the programs the image marks as traced, or the executable, its fork children and the programs it execs')
    .option('--trace-exec <which>', 'with --trace of an executable: the exec\'ed programs traced: all (default: every static executable with relocations), none, or guest paths PATH,...')
    .option('--trbuf-size <size>', 'trace buffer size, e.g. 4096 or 1M (default: the image\'s trbuf_size)')
    .option('--periodic', 'with --trace: bdump -p, also drain every virtual second when more than 16 KiB are unsaved')
    .option('--dummy', 'with --trace: the streams go to /dev/null (Figure 11\'s dummy time); no bundle streams')
    .option('--no-cache', 'with --trace: instrument the traced programs afresh, without the instrumentation cache (images/build/qpt-cache, or $EMU_QPT_CACHE)')
    .action(async (target: string | undefined, args: string[], o: RunOpts) => {
      if (o.trace) {
        await traceAction(target, args, o);
        return;
      }
      if (o.truth === true) throw new Error('--truth needs a file (or --trace, which puts it in the bundle)');
      if (o.trbufSize !== undefined || o.periodic || o.dummy || o.traceExec !== undefined || !o.cache) throw new Error('--trbuf-size, --periodic, --dummy, --trace-exec and --no-cache go with --trace');
      if (o.logLevel) setLogLevel(o.logLevel);
      const log = logger('kernel');
      const file = await resolveTarget(target);
      const console = new HostConsole();
      const req: RunRequest = { console, log };
      let cpuHz: number = MACHINE_DEFAULTS.clock.cpu_hz;
      if (isElf(file)) {
        req.exe = { data: readFileSync(file), name: file, args };
      } else {
        const img = readImage(file);
        req.image = { img, file };
        cpuHz = img.manifest.clock.cpu_hz;
        if (args.length) req.command = args.join(' ');
      }
      if (o.quantum !== undefined) req.quantum = parseQuantum(o.quantum, cpuHz);
      if (o.mem !== undefined) req.memory = parseSize(o.mem, '--mem');
      const maxproc = intOpt(o.maxproc, '--maxproc');
      if (maxproc !== undefined) req.maxproc = maxproc;
      const maxi = intOpt(o.maxInstructions, '--max-instructions');
      if (maxi !== undefined) req.maxInstructions = maxi;
      const seed = intOpt(o.seed, '--seed');
      if (seed !== undefined) req.seed = seed;
      if (o.fs) req.fsDir = o.fs;
      if (o.cwd) req.cwd = o.cwd;
      if (typeof o.truth === 'string') req.truth = { sink: new FileSink(o.truth), format: o.truthFormat };
      let bar: cliProgress.SingleBar | undefined;
      if (o.progress && process.stderr.isTTY) {
        const { default: cli } = await import('cli-progress');
        bar = new cli.SingleBar({
          format: 'emu {insns} instructions, {vtime} s virtual, {procs} processes',
          stream: process.stderr, clearOnComplete: true, hideCursor: false,
        });
        bar.start(1, 0, { insns: 0, vtime: '0.000', procs: 0 });
        let last = 0;
        req.progress = (k) => {
          const now = performance.now();
          if (now - last < 200) return;
          last = now;
          console.flush();
          bar!.update(0, { insns: k.insns, vtime: (k.clock.now / k.cpuHz).toFixed(3), procs: k.procs.nprocs });
        };
      }
      let r;
      try {
        r = bar ? finish(prepare(req), req) : runMachine(req);
      } finally {
        bar?.stop();
        console.flush();
      }
      if (r.message) process.stderr.write(`emu: ${r.message}\n`);
      if (o.out) exportFiles(r.kernel.vfs, o.out);
      if (o.stats !== undefined && o.stats !== false) {
        if (typeof o.stats === 'string') writeFileSync(o.stats, `${JSON.stringify(r.stats, null, 2)}\n`);
        else process.stderr.write(formatStats(r.stats));
      }
      process.exitCode = r.exitCode;
    });
}

/** --trace-exec all|none|PATH,... */
function parseTraceExec(v: string): TraceExec {
  if (v === 'all' || v === 'none') return v;
  const paths = v.split(',').filter((p) => p !== '');
  for (const p of paths) if (!p.startsWith('/')) throw new Error(`--trace-exec: '${p}' is not all, none or an absolute guest path`);
  if (paths.length === 0) throw new Error('--trace-exec: give all, none or guest paths separated by commas');
  return paths;
}

/** `emu run IMAGE|PROG --trace`: the traced run and its bundle (bin/trace_run.ts). */
async function traceAction(target: string | undefined, args: string[], o: RunOpts): Promise<void> {
  if (o.logLevel) setLogLevel(o.logLevel);
  const file = await resolveTarget(target);
  if (typeof o.truth === 'string') throw new Error('with --trace, --truth takes no file: the ground truth goes into the bundle');
  if (o.truthFormat !== 'bin') throw new Error('with --trace the bundle\'s ground truth is in the bin format');
  const console = new HostConsole();
  let req: TraceRunRequest;
  let cpuHz: number = MACHINE_DEFAULTS.clock.cpu_hz;
  if (isElf(file)) {
    const name = basename(file);
    req = {
      exe: { data: new Uint8Array(readFileSync(file)), name: file, args }, out: o.out ?? `${name}.trace`, console, log: logger('kernel'),
      traceExec: parseTraceExec(o.traceExec ?? 'all'), warn: (m) => process.stderr.write(`emu: ${m}\n`),
    };
  } else {
    if (o.traceExec !== undefined) throw new Error('--trace-exec goes with an executable: an image\'s manifest says which programs are traced');
    const img = readImage(file);
    cpuHz = img.manifest.clock.cpu_hz;
    req = { image: { img, file }, out: o.out ?? `${img.manifest.name}.trace`, console, log: logger('kernel') };
    if (args.length) req.command = args.join(' ');
  }
  const out = req.out;
  if (o.quantum !== undefined) req.quantum = parseQuantum(o.quantum, cpuHz);
  if (o.mem !== undefined) req.memory = parseSize(o.mem, '--mem');
  const maxproc = intOpt(o.maxproc, '--maxproc');
  if (maxproc !== undefined) req.maxproc = maxproc;
  const maxi = intOpt(o.maxInstructions, '--max-instructions');
  if (maxi !== undefined) req.maxInstructions = maxi;
  const seed = intOpt(o.seed, '--seed');
  if (seed !== undefined) req.seed = seed;
  if (o.fs) req.fsDir = o.fs;
  if (o.cwd) req.cwd = o.cwd;
  if (o.trbufSize !== undefined) {
    const n = parseSize(o.trbufSize, '--trbuf-size');
    if (n <= 0 || n % 4096 !== 0) throw new Error(`--trbuf-size: ${n} is not a positive multiple of 4096`);
    req.trbufSize = n;
  }
  if (o.truth === true) req.truth = true;
  if (o.periodic) req.periodic = true;
  if (o.dummy) req.dummy = true;
  if (!o.cache) req.noCache = true;
  let r;
  try {
    const { runTraced } = await import('./trace_run.js');
    r = await runTraced(req);
  } finally {
    console.flush();
  }
  if (r.message) process.stderr.write(`emu: ${r.message}\n`);
  if (o.stats !== undefined && o.stats !== false) {
    if (typeof o.stats === 'string') writeFileSync(o.stats, `${JSON.stringify(r.stats, null, 2)}\n`);
    else process.stderr.write(formatStats(r.stats));
  }
  const t = r.trbuf.stats;
  process.stderr.write(
    `emu: trace bundle ${out}: ${r.manifest?.streams.trace.bytes ?? 0} trace bytes, ${r.manifest?.streams.sched.bytes ?? 0} schedule bytes, ` +
    `${t.overflows} overflows, ${t.schedBlocks} schedule-buffer blocks, ${t.requests} periodic drains, ${(r.kernel.clock.now / r.kernel.cpuHz).toFixed(3)} s virtual\n`,
  );
  process.exitCode = r.exitCode;
}
