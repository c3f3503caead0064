/**
 * The corpus's tracing job (bench/corpus_stages.ts stage `trace`), run in an emu worker
 * (bench/corpus_worker.ts): instrument a program that passes under emu, run the original and the
 * instrumented executable as `emu run` does (one process, in /tmp, empty standard input, ground
 * truth recorded), and regenerate the instrumented run's trace against both ground truths, as
 * `emu regen --verify` does: the original run's (the traced program must do what the untraced
 * one does, event for event) and the instrumented run's mapped back through the schema's
 * address map (the bundle's own oracle).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { runExecutable, type TracedRun } from '../bin/harness.js';
import { RegenProgram } from '../regen/model.js';
import { regenerateProcess } from '../regen/run.js';
import { TruthCursor } from '../regen/truth_cursor.js';
import { MappedTruthCursor, VerifySink, funcNamer } from '../regen/verify.js';
import type { Schema } from '../format/schema.js';
import { instrument } from '../tracer/instrument.js';

export interface TraceReply {
  /** The instrumenter refused or failed (its one-line message). */
  instrumentError?: string;
  functions?: number;
  /** Functions in conservative mode: `name: why`. */
  conservative?: string[];
  /** CPU milliseconds of instrument() (not part of any comparison). */
  instrumentMs?: number;
  original?: RunSummary;
  traced?: RunSummary;
  /** Trace bytes of the instrumented run. */
  traceBytes?: number;
  /** Events regenerated and compared ('' error: equal). */
  events?: number;
  /** The first divergence against the original run's ground truth ('' when equal). */
  verifyOriginal?: string;
  /** The same against the instrumented run's ground truth mapped back ('' when equal). */
  verifyMapped?: string;
}

export interface RunSummary {
  exitCode: number;
  status: number;
  message: string;
  insns: number;
  stdoutHash: string;
  stdoutBytes: number;
}

function summary(r: TracedRun): RunSummary {
  return {
    exitCode: r.exitCode, status: r.status, message: r.message, insns: r.insns,
    stdoutHash: createHash('sha256').update(r.stdout).digest('hex'), stdoutBytes: r.stdout.length,
  };
}

/** Regenerates the instrumented run's trace into a verifying sink; '' when every event agrees. */
function verify(schema: Schema, name: string, run: TracedRun, cur: ConstructorParameters<typeof VerifySink>[0]): { error: string; events: number } {
  const sink = new VerifySink(cur, funcNamer(schema));
  try {
    regenerateProcess(new RegenProgram(schema, `${name}.schema`), run.trace.bytes(), run.trace.markers, sink);
    sink.finish();
    return { error: '', events: sink.index };
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0]!, events: sink.index };
  }
}

/** The tracing job of one executable (BSD flavour) under an instruction limit per run. */
export function traceOne(exe: string, maxInstructions: number): TraceReply {
  const data = new Uint8Array(readFileSync(exe));
  const name = basename(exe);
  const c0 = process.cpuUsage();
  let inst: ReturnType<typeof instrument>;
  try {
    inst = instrument(data, exe);
  } catch (e) {
    return { instrumentError: (e as Error).message.split('\n')[0]! };
  }
  const c = process.cpuUsage(c0);
  const schema = inst.schema;
  const conservative = schema.functions.filter((f) => f.conservative !== undefined).map((f) => `${f.name}: ${f.conservative}`);
  const orig = runExecutable({ data, name }, { args: [], truth: 'bin', trace: true, maxInstructions });
  const run = runExecutable({ data: inst.elf, name }, { args: [], truth: 'bin', trace: true, maxInstructions });
  const out: TraceReply = {
    functions: schema.functions.length, conservative, instrumentMs: Math.round((c.user + c.system) / 1000),
    original: summary(orig), traced: summary(run), traceBytes: run.trace.bytes().length,
  };
  const a = verify(schema, name, run, new TruthCursor(orig.truth!, `${exe} (original run)`, 1));
  const b = verify(schema, name, run, new MappedTruthCursor(run.truth!, `${exe} (instrumented run)`, 1, schema));
  return { ...out, events: a.events, verifyOriginal: a.error, verifyMapped: b.error };
}
