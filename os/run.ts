/**
 * Running a machine from a boot image or a bare executable: what `emu run` does, for the CLI
 * (bin/run_cmd.ts), the tests and the benchmarks. The options mirror the command line.
 */
import type { Logger } from 'pino';
import { BASE_ETC_FILES, MACHINE_DEFAULTS, type BootImage } from '../format/image.js';
import type { TargetName } from '../format/target.js';
import { baseDirs, copyHostDir, createKernel, exportFiles, loadImage } from './boot.js';
import type { Console } from './dev.js';
import { elfArch, parseElf } from '../format/elf.js';
import type { Kernel } from './kernel.js';
import { SIGNAMES, SIGSYS, WCOREFLAG } from './signal.js';
import { collectStats, type StatsReport } from './stats.js';
import { makeTruthWriter, type TruthFormat } from '../format/truth.js';
import type { ByteSink } from '../format/sink.js';

export interface RunRequest {
  /** A boot image (its file name for messages), or ... */
  image?: { img: BootImage; file: string };
  /** ... a bare executable run as the only process, with argv[1..]. */
  exe?: { data: Uint8Array; name: string; args: string[] };
  /**
   * With an executable: argv of the first process instead of the executable's own (it is still
   * installed as /bin/<name>; bin/trace_run.ts boots the consumer, which runs it).
   */
  init?: string[];
  /** With an image: run `/sbin/init -c command` instead of /etc/rc. */
  command?: string;
  /** Round-robin quantum in cycles (default: the image's quantum_ms). */
  quantum?: number;
  memory?: number;
  maxproc?: number;
  seed?: number | null;
  maxInstructions?: number;
  /** Forced interrupt points: machine-wide user instruction counts (KernelConfig.intrAt; tests). */
  intrAt?: readonly number[];
  truth?: { sink: ByteSink; format: TruthFormat };
  /** Host directory copied into the guest's root first. */
  fsDir?: string;
  /** Further files put into the guest filesystem (after fsDir). */
  files?: { path: string; data: Uint8Array; mode: number }[];
  /** Working directory of the first process (default /). */
  cwd?: string;
  console: Console;
  log: Logger;
  progress?: (k: Kernel) => void;
  /** Size of the trace buffer range (default: the image's trbuf_size). */
  trbufSize?: number;
  /** Called with the kernel before it boots (device drivers: bin/trace_run.ts). */
  setup?: (k: Kernel) => void;
}

export interface RunResult {
  kernel: Kernel;
  /** What `emu run` exits with: init's exit code, 128 + signal, or 124/125/126 for halts. */
  exitCode: number;
  /** Why the machine stopped, for a message ('' when init exited normally). */
  message: string;
  stats: StatsReport;
}

/** Exit codes of `emu run` when the machine did not end by init exiting. */
export const EXIT_LIMIT = 124;
export const EXIT_DEADLOCK = 125;
export const EXIT_PANIC = 126;

/** The machine for a request, booted and ready to run. */
export function prepare(req: RunRequest): Kernel {
  let arch: TargetName;
  let memory: number;
  let clock: { hz: number; cpu_hz: number; quantum_ms: number };
  let disk: { latency_us: number; bandwidth: number };
  let trbufSize: number;
  if (req.image) {
    const m = req.image.img.manifest;
    arch = m.arch;
    memory = m.memory;
    clock = m.clock;
    disk = m.devices.disk;
    trbufSize = m.trbuf_size;
  } else if (req.exe) {
    arch = elfArch(parseElf(req.exe.data, req.exe.name));
    memory = MACHINE_DEFAULTS.memory;
    clock = MACHINE_DEFAULTS.clock;
    disk = MACHINE_DEFAULTS.devices.disk;
    trbufSize = MACHINE_DEFAULTS.trbuf_size;
  } else {
    throw new Error('emu run: neither an image nor an executable');
  }
  memory = req.memory ?? memory;
  trbufSize = req.trbufSize ?? trbufSize;
  if (memory % 4096 !== 0 || memory < 1 << 20) throw new Error(`memory size ${memory} must be a multiple of 4096 and at least 1 MiB`);
  const quantumCycles = req.quantum ?? Math.round((clock.quantum_ms * clock.cpu_hz) / 1000);
  if (!(quantumCycles >= 1)) throw new Error(`quantum ${quantumCycles} must be at least one cycle`);
  const truth = req.truth ? makeTruthWriter(req.truth.format, req.truth.sink, arch) : null;
  const k = createKernel({
    arch, memory, hz: clock.hz, cpuHz: clock.cpu_hz, quantumCycles, maxproc: req.maxproc, seed: req.seed ?? null,
    disk, trbufSize, maxInstructions: req.maxInstructions ?? Infinity, console: req.console, log: req.log, truth,
    ...(req.intrAt ? { intrAt: req.intrAt } : {}),
  });
  let argv: string[];
  let envp: string[];
  if (req.image) {
    const img = req.image.img;
    loadImage(k.vfs, img);
    baseDirs(k.vfs);
    argv = req.command !== undefined ? [img.manifest.init[0]!, '-c', req.command] : [...img.manifest.init];
    envp = [...img.manifest.env];
  } else {
    const exe = req.exe!;
    baseDirs(k.vfs);
    k.vfs.mkdirs('/root');
    for (const f of BASE_ETC_FILES) k.vfs.installFile(f.path, Buffer.from(f.text), 0o644);
    const base = exe.name.slice(exe.name.lastIndexOf('/') + 1) || 'prog';
    k.vfs.installFile(`/bin/${base}`, exe.data, 0o755);
    argv = req.init ?? [`/bin/${base}`, ...exe.args];
    envp = [...MACHINE_DEFAULTS.env];
  }
  if (req.fsDir) copyHostDir(k.vfs, req.fsDir);
  for (const f of req.files ?? []) k.vfs.installFile(f.path, f.data, f.mode);
  req.setup?.(k);
  k.boot(argv, envp, req.cwd ?? '/');
  return k;
}

/** Runs a prepared machine to its end; finishes the truth file. */
export function finish(k: Kernel, req: RunRequest): RunResult {
  try {
    k.run(req.progress ? () => req.progress!(k) : undefined);
  } finally {
    k.truth?.finish();
  }
  let exitCode: number;
  let message = '';
  switch (k.haltReason) {
    case 'init exited': {
      const ws = k.exitStatus;
      const sig = ws & 0x7f;
      exitCode = sig ? 128 + sig : (ws >> 8) & 0xff;
      if (sig) {
        const init = k.initproc!;
        message = `${init.p_path || init.p_comm} (pid 1) was killed by signal ${SIGNAMES[sig] ?? sig}${ws & WCOREFLAG ? ' (core)' : ''}`;
        if (sig === SIGSYS) message += ': an unknown system call (emu runs the BSD-flavour builds, images/build/bsd-*)';
      }
      break;
    }
    case 'instruction limit':
      exitCode = EXIT_LIMIT;
      message = k.haltMessage;
      break;
    case 'deadlock':
      exitCode = EXIT_DEADLOCK;
      message = `deadlock: ${k.haltMessage}`;
      break;
    default:
      exitCode = EXIT_PANIC;
      message = `panic: ${k.haltMessage}`;
      break;
  }
  return { kernel: k, exitCode, message, stats: collectStats(k) };
}

/** prepare + finish. */
export function runMachine(req: RunRequest): RunResult {
  return finish(prepare(req), req);
}

export { exportFiles };
