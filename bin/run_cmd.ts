/**
 * `emu run [IMAGE|PROG] [-- command ...]`: boots a machine from a boot image (default
 * images/boot/demo-mipsel.tar) or runs a bare guest executable as the only process, with the
 * kernel of os/ (docs/kernel.md). The exit status is init's (or the program's): its exit code, or
 * 128 + the signal that killed it; 124 when --max-instructions stopped the run, 125 on a deadlock.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmdirSync, statSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command, Option } from 'commander';
import { describe } from './commands.js';
import type cliProgress from 'cli-progress';
import { MACHINE_DEFAULTS, readImage, type BootImage } from '../format/image.js';
import type { Console } from '../os/dev.js';
import { exportFiles, prepare, finishSliced, type RunRequest } from '../os/run.js';
import { interruptible } from './interrupt.js';
import { formatStats } from '../os/stats.js';
import type { TraceExec, TraceRunRequest } from './trace_run.js';
import { TRUTH_FORMATS, type TruthFormat } from '../format/truth.js';
import { LOG_LEVELS, logger, setLogLevel } from './log.js';
import { parseSize } from './units.js';
import { OutputFile, checkOutputDirPlace, readInput, reason } from './outputs.js';
import { TRBUF_END } from '../os/param.js';
import { JIT_CACHE_DIR, useJitCache } from './jit_cache_dir.js';

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

function isElfBytes(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46;
}

/** What an existing host file is, when it looks like an input of emu (never overwritten by an output). */
function inputKind(path: string): string | null {
  let st;
  try {
    st = statSync(path);
  } catch {
    return null;
  }
  if (st.isDirectory()) return 'a directory';
  if (!st.isFile()) return null;
  const b = Buffer.alloc(512);
  const fd = openSync(path, 'r');
  try {
    b.fill(0, readSync(fd, b, 0, 512, 0));
  } finally {
    closeSync(fd);
  }
  if (isElfBytes(b)) return 'an ELF executable';
  if (b.subarray(257, 262).toString('latin1') === 'ustar') return 'a tar archive (a boot image?)';
  return null;
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
  jitCache: boolean;
  quantum?: string;
  mem?: string;
  maxproc?: string;
  out?: string;
  export?: string;
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
    .option('--out <dir>', 'with --trace: the trace bundle directory (default: NAME.trace in the current directory)')
    .option('--export <dir>', 'copy the files the guests created or changed into this host directory at the end')
    .option('--max-instructions <n>', 'stop after this many user instructions (exit status 124)')
    .option('--seed <n>', 'randomised clock deadlines and device latencies from this seed (stress mode)')
    .option('--truth [file]', '(--truth=FILE) write the ground-truth trace (every user fetch, load, store and context switch); with --trace: into the bundle')
    .addOption(new Option('--truth-format <fmt>', 'ground-truth format').choices(TRUTH_FORMATS).default('bin'))
    .option('--stats [file]', 'per-process statistics: JSON to file (--stats=FILE), or a table on standard error')
    .option('--fs <dir>', 'copy this host directory into the guest filesystem first')
    .option('--cwd <dir>', 'working directory of the first process (default /)')
    .addOption(new Option('--log-level <level>', 'log level on stderr (kernel events at debug)').choices(LOG_LEVELS))
    .option('--no-progress', 'no progress display on a terminal')
    .option('--trace', 'write a trace bundle (--out DIR; docs/trace-bundle.md): trace the programs the image marks as traced, or the executable, its fork children and the programs it execs')
    .option('--trace-exec <which>', 'with --trace of an executable: the exec\'ed programs traced: all (default: every static executable with relocations), none, or guest paths PATH,...')
    .option('--trbuf-size <size>', 'trace buffer size, e.g. 4096 or 1M (default: the image\'s trbuf_size)')
    .option('--periodic', 'with --trace: bdump -p, also drain every virtual second when more than 16 KiB are unsaved')
    .option('--dummy', 'with --trace: the streams go to /dev/null (Figure 11\'s dummy time); no bundle streams')
    .option('--no-jit-cache', `translate the guest code afresh: neither read nor write the translation cache (${JIT_CACHE_DIR}, or $EMU_JIT_CACHE; off: none)`)
    .option('--no-cache', 'with --trace: instrument the traced programs afresh, without the instrumentation cache (images/build/qpt-cache, or $EMU_QPT_CACHE)')
    .action(async (target: string | undefined, args: string[], o: RunOpts) => {
      if (o.trace) {
        await traceAction(target, args, o);
        return;
      }
      if (o.truth === true) throw new Error('--truth needs a file (--truth=FILE; or --trace, which puts it in the bundle)');
      if (o.trbufSize !== undefined || o.periodic || o.dummy || o.traceExec !== undefined || !o.cache) throw new Error('--trbuf-size, --periodic, --dummy, --trace-exec and --no-cache go with --trace');
      if (o.out !== undefined) throw new Error(`--out names the trace bundle and goes with --trace; to copy the files the guests created or changed to the host, use --export ${o.out}`);
      if (o.logLevel) setLogLevel(o.logLevel);
      const log = logger('kernel');
      const t = await openTarget(target, o);
      const saveJit = useJitCache(t.data, !o.jitCache);
      const console = new HostConsole();
      const req: RunRequest = { console, log, ...machineOptions(o, t, false) };
      if (t.img) {
        req.image = { img: t.img, file: t.file };
        if (args.length) req.command = args.join(' ');
      } else {
        req.exe = { data: t.data, name: t.file, args };
      }
      const outs = openOutputs(o, t);
      if (outs.truth) req.truth = { sink: outs.truth.sink, format: o.truthFormat };
      let bar: cliProgress.SingleBar | undefined;
      if (o.progress && process.stderr.isTTY) {
        const { default: cli } = await import('cli-progress');
        bar = new cli.SingleBar({
          format: 'emu {insns} instructions, {vtime} s virtual, {procs} processes',
          stream: process.stderr, clearOnComplete: true, hideCursor: false, linewrap: true,
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
      let ok = false;
      const intr = interruptible(() => bar?.stop());
      try {
        r = await finishSliced(prepare(req), req, intr.between);
        ok = true;
      } finally {
        intr.dispose();
        bar?.stop();
        console.flush();
        outs.truth?.settle(ok);
        if (!ok) outs.abandon();
      }
      if (r.message) process.stderr.write(`emu: ${r.message}\n`);
      saveJit();
      outs.finish(r);
      process.exitCode = r.exitCode;
    });
}

/** The target of a run, read once: an image, or an executable's bytes. */
interface Target {
  file: string;
  img?: BootImage;
  data: Uint8Array;
}

/**
 * Resolves and reads the target, after refusing an optional option that took it as its file:
 * `emu run --stats PROG` gives --stats the operand PROG (commander's optional option-argument)
 * and would write the statistics over the executable; --stats=FILE is unambiguous.
 */
async function openTarget(target: string | undefined, o: RunOpts): Promise<Target> {
  if (target === undefined) {
    for (const [name, v] of [['--stats', o.stats], ['--truth', o.truth]] as const) {
      if (typeof v !== 'string') continue;
      const kind = inputKind(v) ?? (await resolveTarget(v).then(() => 'an image or executable', () => null));
      if (kind !== null) throw new Error(`${name} took '${v}' as its file, and '${v}' is ${kind}: write ${name}=FILE for a file, or name the target first (emu run ${v} ${name})`);
    }
  }
  const file = await resolveTarget(target);
  const data = new Uint8Array(readInput(file));
  return isElfBytes(data) ? { file, data } : { file, img: readImage(file), data };
}

/** Machine options, all checked before any work (the memory and trace buffer against each other). */
type MachineOptions = Pick<RunRequest, 'quantum' | 'memory' | 'maxproc' | 'maxInstructions' | 'seed' | 'fsDir' | 'cwd' | 'trbufSize'>;

function machineOptions(o: RunOpts, t: Target, trace: boolean): MachineOptions {
  const m = t.img?.manifest;
  const cpuHz = m?.clock.cpu_hz ?? MACHINE_DEFAULTS.clock.cpu_hz;
  const req: MachineOptions = {};
  if (o.quantum !== undefined) req.quantum = parseQuantum(o.quantum, cpuHz);
  const memory = o.mem !== undefined ? parseSize(o.mem, '--mem') : m?.memory ?? MACHINE_DEFAULTS.memory;
  if (memory % 4096 !== 0 || memory < 1 << 20) throw new Error(`--mem: ${memory} bytes must be a multiple of 4096 and at least 1M`);
  if (o.mem !== undefined) req.memory = memory;
  const maxproc = intOpt(o.maxproc, '--maxproc');
  if (maxproc !== undefined) {
    if (maxproc < (trace ? 2 : 1)) throw new Error(`--maxproc: ${maxproc} is too small: ${trace ? 'a traced run needs 2 processes (the consumer bdump and the workload)' : 'the first process needs a slot'}`);
    req.maxproc = maxproc;
  }
  const maxi = intOpt(o.maxInstructions, '--max-instructions');
  if (maxi !== undefined) req.maxInstructions = maxi;
  const seed = intOpt(o.seed, '--seed');
  if (seed !== undefined) req.seed = seed;
  if (o.fs) {
    let st;
    try {
      st = statSync(o.fs);
    } catch (e) {
      throw new Error(`--fs: ${o.fs}: ${reason(e)}`);
    }
    if (!st.isDirectory()) throw new Error(`--fs: ${o.fs} is not a directory`);
    req.fsDir = o.fs;
  }
  if (o.cwd) req.cwd = o.cwd;
  if (trace) {
    const size = o.trbufSize !== undefined ? parseSize(o.trbufSize, '--trbuf-size') : m?.trbuf_size ?? MACHINE_DEFAULTS.trbuf_size;
    if (size <= 0 || size % 4096 !== 0) throw new Error(`--trbuf-size: ${size} is not a positive multiple of 4096`);
    // The buffer is physical memory (the rest runs the processes) and lies below TRBUF_END,
    // above the programs' text and heap.
    if (size > TRBUF_MAX) throw new Error(`--trbuf-size: ${size} bytes is more than the ${TRBUF_MAX >> 20}M the address space keeps for the trace buffer`);
    if (size * 2 > memory) {
      throw new Error(`--trbuf-size: a trace buffer of ${size} bytes needs at least ${size * 2} bytes of memory (half for the processes); --mem is ${memory}: give more memory or a smaller buffer`);
    }
    if (o.trbufSize !== undefined) req.trbufSize = size;
  }
  return req;
}

/** The largest trace buffer: a quarter of the user address space below it (0x20000000). */
const TRBUF_MAX = TRBUF_END / 4;

/** The outputs of a run besides a bundle, opened (checked, under temporary names) before any work. */
function openOutputs(o: RunOpts, t: Target): { truth?: OutputFile; abandon(): void; finish(r: { kernel: { vfs: Parameters<typeof exportFiles>[0] }; stats: unknown }): void } {
  const inputs = [t.file, ...(o.fs ? [o.fs] : [])];
  const guard = (path: string, what: string): void => {
    const kind = inputKind(path);
    if (kind !== null && kind !== 'a directory') throw new Error(`${what}: ${path} is ${kind}; it is not overwritten`);
  };
  const made: OutputFile[] = [];
  let exportMade = false;
  const abandon = (): void => {
    for (const f of made) f.abandon();
    if (exportMade) rmdirSync(o.export!);
  };
  try {
    let truth: OutputFile | undefined;
    if (typeof o.truth === 'string') {
      guard(o.truth, '--truth');
      made.push((truth = new OutputFile(o.truth, '--truth', inputs)));
    }
    let stats: OutputFile | undefined;
    if (typeof o.stats === 'string') {
      guard(o.stats, '--stats');
      made.push((stats = new OutputFile(o.stats, '--stats', inputs)));
    }
    if (o.export !== undefined) {
      checkOutputDirPlace(o.export, '--export', inputs);
      if (!existsSync(o.export)) {
        try {
          mkdirSync(o.export);
        } catch (e) {
          throw new Error(`--export: ${o.export}: cannot create it: ${reason(e)}`);
        }
        exportMade = true;
      }
    }
    return {
      ...(truth ? { truth } : {}),
      abandon,
      finish(r) {
        if (o.export !== undefined) exportFiles(r.kernel.vfs, o.export);
        if (stats) stats.writeAll(`${JSON.stringify(r.stats, null, 2)}\n`);
        else if (o.stats !== undefined && o.stats !== false) process.stderr.write(formatStats(r.stats as Parameters<typeof formatStats>[0]));
      },
    };
  } catch (e) {
    abandon();
    throw e;
  }
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
  const t = await openTarget(target, o);
  if (typeof o.truth === 'string') throw new Error('with --trace, --truth takes no file: the ground truth goes into the bundle');
  if (o.truthFormat !== 'bin') throw new Error('with --trace the bundle\'s ground truth is in the bin format');
  const console = new HostConsole();
  const machine = machineOptions(o, t, true);
  let req: TraceRunRequest;
  if (t.img) {
    if (o.traceExec !== undefined) throw new Error('--trace-exec goes with an executable: an image\'s manifest says which programs are traced');
    req = { ...machine, image: { img: t.img, file: t.file }, out: o.out ?? `${t.img.manifest.name}.trace`, console, log: logger('kernel') };
    if (args.length) req.command = args.join(' ');
  } else {
    req = {
      ...machine, exe: { data: t.data, name: t.file, args }, out: o.out ?? `${basename(t.file)}.trace`, console, log: logger('kernel'),
      traceExec: parseTraceExec(o.traceExec ?? 'all'), warn: (m) => process.stderr.write(`emu: ${m}\n`),
    };
  }
  const out = req.out;
  if (o.truth === true) req.truth = true;
  if (o.periodic) req.periodic = true;
  if (o.dummy) req.dummy = true;
  if (!o.cache) req.noCache = true;
  const outs = openOutputs(o, t);
  let r;
  let ok = false;
  const intr = interruptible();
  req.between = intr.between;
  try {
    const { runTraced } = await import('./trace_run.js');
    r = await runTraced(req, [t.file, ...(o.fs ? [o.fs] : [])]);
    ok = true;
  } finally {
    intr.dispose();
    console.flush();
    if (!ok) outs.abandon();
  }
  if (r.message) process.stderr.write(`emu: ${r.message}\n`);
  outs.finish(r);
  const s = r.trbuf.stats;
  process.stderr.write(
    `emu: trace bundle ${out}: ${r.manifest?.streams.trace.bytes ?? 0} trace bytes, ${r.manifest?.streams.sched.bytes ?? 0} schedule bytes, ` +
    `${s.overflows} overflows, ${s.schedBlocks} schedule-buffer blocks, ${s.requests} periodic drains, ${(r.kernel.clock.now / r.kernel.cpuHz).toFixed(3)} s virtual\n`,
  );
  process.exitCode = r.exitCode;
}
