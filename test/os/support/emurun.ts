/**
 * Running guest programs (BSD-flavour builds) and boot images on emu in-process, for the kernel's
 * golden-output, determinism and stress tests.
 */
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import type { BootImage } from '../../../format/image.js';
import type { Console } from '../../../os/dev.js';
import { type RunRequest, type RunResult, runMachine } from '../../../os/run.js';
import { MemorySink, type TruthFormat } from '../../../os/truth.js';

export interface EmuRun {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
  message: string;
  result: RunResult;
  truth?: Uint8Array;
}

/** A console fed from a byte string, collecting output. */
export function bufferConsole(stdin: Uint8Array = new Uint8Array(0)): Console & { out(): Buffer; err(): Buffer } {
  const chunks: Buffer[] = [];
  const errs: Buffer[] = [];
  let input = Buffer.from(stdin);
  return {
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

export interface EmuOptions {
  quantum?: number;
  seed?: number | null;
  maxInstructions?: number;
  memory?: number;
  maxproc?: number;
  truth?: TruthFormat;
  stdin?: Uint8Array;
}

function common(o: EmuOptions, console: Console): Partial<RunRequest> {
  const r: Partial<RunRequest> = { console, log: pino({ level: 'silent' }) };
  if (o.quantum !== undefined) r.quantum = o.quantum;
  if (o.seed !== undefined) r.seed = o.seed;
  r.maxInstructions = o.maxInstructions ?? 2e10;
  if (o.memory !== undefined) r.memory = o.memory;
  if (o.maxproc !== undefined) r.maxproc = o.maxproc;
  return r;
}

function finishRun(req: RunRequest, console: ReturnType<typeof bufferConsole>, sink: MemorySink | undefined): EmuRun {
  const result = runMachine(req);
  const r: EmuRun = { stdout: console.out(), stderr: console.err(), exitCode: result.exitCode, message: result.message, result };
  if (sink) r.truth = sink.bytes();
  return r;
}

/**
 * Runs `exe` (host path of a BSD-flavour build) as the first process with argv[1..] = args, in
 * /tmp, with the other executables in /bin.
 */
export function runProgram(exe: string, args: string[], bin: Map<string, string>, o: EmuOptions = {}): EmuRun {
  const console = bufferConsole(o.stdin);
  const sink = o.truth ? new MemorySink() : undefined;
  const files = [...bin].map(([name, path]) => ({ path: `/bin/${name}`, data: readFileSync(path), mode: 0o755 }));
  const req = { ...common(o, console), exe: { data: readFileSync(exe), name: exe, args }, files, cwd: '/tmp' } as RunRequest;
  if (sink) req.truth = { sink, format: o.truth! };
  return finishRun(req, console, sink);
}

/** Boots an image (optionally with a command instead of /etc/rc). */
export function runImage(img: BootImage, file: string, o: EmuOptions & { command?: string } = {}): EmuRun {
  const console = bufferConsole(o.stdin);
  const sink = o.truth ? new MemorySink() : undefined;
  const req = { ...common(o, console), image: { img, file } } as RunRequest;
  if (o.command !== undefined) req.command = o.command;
  if (sink) req.truth = { sink, format: o.truth! };
  return finishRun(req, console, sink);
}
