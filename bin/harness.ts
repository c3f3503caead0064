/**
 * Running one guest executable or a boot image in-process, the way the tests, the benchmarks and
 * the in-process tools need it: os/run.ts's machine (the machine defaults of format/image.ts
 * MACHINE_DEFAULTS, or the image's manifest), the console fed from a byte string and collected,
 * optionally the ground truth and /dev/trbuf with the kernel as the consumer.
 *
 * An executable is installed as /bin/<name> and runs in /tmp, with the other executables in
 * /bin; whatever file it came from, so an instrumented program sees exactly the stack the
 * original saw (argv[0] and the strings).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pino } from 'pino';
import type { BootImage } from '../format/image.js';
import { MemorySink } from '../format/sink.js';
import type { TruthFormat } from '../format/truth.js';
import type { Console } from '../os/dev.js';
import type { IntrRecord } from '../os/kernel.js';
import { runMachine, type RunRequest, type RunResult } from '../os/run.js';
import { MemoryTrbufSink, TrbufDevice, type TrbufStats } from '../os/trbuf.js';

/** User instructions after which a run stops (exit code 124) unless the options say otherwise. */
export const MAX_INSTRUCTIONS = 2e10;

export interface GuestRunOptions {
  /** argv[1..] of an executable. */
  args?: string[];
  stdin?: Uint8Array;
  /** Which host streams the console presents as terminals (default: all; Console.terminals). */
  terminals?: Console['terminals'];
  /** Further executables, installed as /bin/<name> (name -> host path). */
  bin?: ReadonlyMap<string, string>;
  /** Further files of the guest filesystem. */
  files?: RunRequest['files'];
  /** Record the ground truth in this format. */
  truth?: TruthFormat;
  /** Attach /dev/trbuf, drained by the kernel itself: the trace and markers are kept in memory. */
  trace?: boolean;
  /** Round-robin quantum in cycles (default: the machine's quantum_ms). */
  quantum?: number;
  seed?: number | null;
  maxInstructions?: number;
  memory?: number;
  maxproc?: number;
  trbufSize?: number;
  /** Forced interrupt points: machine-wide user instruction counts (KernelConfig.intrAt). */
  intrAt?: readonly number[];
}

export interface GuestRun {
  stdout: Buffer;
  stderr: Buffer;
  /** What `emu run` would exit with (init's exit code, 128 + signal, 124/125/126 for halts). */
  exitCode: number;
  /** Why the machine stopped ('' when init exited normally). */
  message: string;
  /** init's wait status. */
  status: number;
  haltReason: string | null;
  /** User instructions of the whole machine. */
  insns: number;
  /** The forced interrupts as taken (GuestRunOptions.intrAt). */
  intrs: IntrRecord[];
  result: RunResult;
  truth?: Uint8Array;
  trace?: MemoryTrbufSink;
  /** /dev/trbuf's counters (rollbacks, overflows). */
  trbuf?: TrbufStats;
}

/** What a run with `trace: true` has. */
export interface TracedRun extends GuestRun {
  trace: MemoryTrbufSink;
  trbuf: TrbufStats;
}

/** A console fed from a byte string, collecting output (terminals: as Console.terminals). */
export function bufferConsole(stdin: Uint8Array = new Uint8Array(0), terminals?: Console['terminals']): Console & { out(): Buffer; err(): Buffer } {
  const chunks: Buffer[] = [];
  const errs: Buffer[] = [];
  let input = Buffer.from(stdin);
  return {
    ...(terminals ? { terminals } : {}),
    write: (b) => void chunks.push(Buffer.from(b)),
    writeErr: (b) => void errs.push(Buffer.from(b)),
    err: () => Buffer.concat(errs),
    read: (max) => {
      const r = input.subarray(0, max);
      input = input.subarray(r.length);
      return r;
    },
    out: () => Buffer.concat(chunks),
  };
}

function run(req: RunRequest, o: GuestRunOptions): GuestRun {
  const console = bufferConsole(o.stdin, o.terminals);
  const sink = o.truth ? new MemorySink() : undefined;
  const trace = o.trace ? new MemoryTrbufSink() : undefined;
  let dev: TrbufDevice | undefined;
  req.console = console;
  req.log = pino({ level: 'silent' });
  req.maxInstructions = o.maxInstructions ?? MAX_INSTRUCTIONS;
  if (o.quantum !== undefined) req.quantum = o.quantum;
  if (o.seed !== undefined) req.seed = o.seed;
  if (o.memory !== undefined) req.memory = o.memory;
  if (o.maxproc !== undefined) req.maxproc = o.maxproc;
  if (o.trbufSize !== undefined) req.trbufSize = o.trbufSize;
  if (o.intrAt) req.intrAt = o.intrAt;
  if (sink) req.truth = { sink, format: o.truth! };
  if (trace) req.setup = (k) => void (dev = TrbufDevice.attach(k, trace));
  const result = runMachine(req);
  const k = result.kernel;
  return {
    stdout: console.out(), stderr: console.err(), exitCode: result.exitCode, message: result.message, status: k.exitStatus,
    haltReason: k.haltReason, insns: k.insns, intrs: k.intrLog, result,
    ...(sink ? { truth: sink.bytes() } : {}), ...(trace ? { trace, trbuf: dev!.stats } : {}),
  };
}

/**
 * Runs an executable — a host path, or bytes and the program's name — as the first process, in
 * /tmp, with argv[1..] = o.args.
 */
export function runExecutable(exe: string | { data: Uint8Array; name: string }, o: GuestRunOptions & { trace: true }): TracedRun;
export function runExecutable(exe: string | { data: Uint8Array; name: string }, o?: GuestRunOptions): GuestRun;
export function runExecutable(exe: string | { data: Uint8Array; name: string }, o: GuestRunOptions = {}): GuestRun {
  const { data, name } = typeof exe === 'string' ? { data: new Uint8Array(readFileSync(exe)), name: basename(exe) } : exe;
  const files: RunRequest['files'] = [...o.bin ?? []].map(([n, path]) => ({ path: `/bin/${n}`, data: new Uint8Array(readFileSync(path)), mode: 0o755 }));
  files.push(...o.files ?? []);
  return run({ exe: { data, name, args: o.args ?? [] }, files, cwd: '/tmp' } as RunRequest, o);
}

/** Boots an image (with a command instead of /etc/rc when `command` is given). */
export function runImage(img: BootImage, file: string, o: GuestRunOptions & { command?: string } = {}): GuestRun {
  const req = { image: { img, file } } as RunRequest;
  if (o.command !== undefined) req.command = o.command;
  if (o.files) req.files = o.files;
  return run(req, o);
}
