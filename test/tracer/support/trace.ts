/**
 * Test support for the tracer: build a guest program (BSD flavour), instrument it, run the
 * original and the instrumented executable on the emulator with ground truth, and regenerate the
 * trace against both oracles (the original run's truth; the instrumented run's truth mapped back
 * through the schema's address map).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram, variant } from '../../../images/build.js';
import { program } from '../../../images/catalog.js';
import type { TargetName } from '../../../format/target.js';
import { RegenProgram } from '../../../regen/model.js';
import { regenerateProcess, type RegenSummary } from '../../../regen/run.js';
import { TruthCursor } from '../../../regen/truth_cursor.js';
import { MappedTruthCursor, VerifySink, funcNamer } from '../../../regen/verify.js';
import { instrument, type InstrumentOptions, type InstrumentResult } from '../../../tracer/instrument.js';
import { runExecutable, type TracedRun } from '../../../bin/harness.js';
import { expect } from 'vitest';

export interface Traced {
  exe: Uint8Array;
  path: string;
  inst: InstrumentResult;
  orig: TracedRun;
  run: TracedRun;
  stdin?: Uint8Array;
  args: string[];
}

export async function exeOf(target: TargetName, name: string): Promise<{ path: string; exe: Uint8Array }> {
  const path = await buildProgram(variant(target, 'bsd'), name);
  return { path, exe: new Uint8Array(readFileSync(path)) };
}

/** The program's test of that name (default: its first test with plain arguments). */
export function testOf(name: string, test?: string): { args: string[]; stdin?: Uint8Array } {
  const spec = program(name);
  const t = spec.tests.find((x) => !x.shell && (test === undefined || x.name === test));
  if (!t) throw new Error(`${name}: no test ${test ?? 'with plain arguments'}`);
  return { args: t.args, ...(t.stdin ? { stdin: new Uint8Array(readFileSync(join(spec.dir, t.stdin))) } : {}) };
}

export async function traced(
  target: TargetName, name: string, test?: string, opts: InstrumentOptions & { trbufSize?: number; quantumCycles?: number } = {},
): Promise<Traced> {
  const { path, exe } = await exeOf(target, name);
  const { args, stdin } = testOf(name, test);
  const inst = instrument(exe, path, { ...(opts.carrySp !== undefined ? { carrySp: opts.carrySp } : {}), ...(opts.knownLoops ? { knownLoops: true } : {}) });
  const orig = runExecutable({ data: exe, name }, { args, stdin, truth: 'bin', trace: true });
  const run = runExecutable({ data: inst.elf, name }, {
    args, stdin, truth: 'bin', trace: true,
    ...(opts.trbufSize ? { trbufSize: opts.trbufSize } : {}), ...(opts.quantumCycles ? { quantum: opts.quantumCycles } : {}),
  });
  return { exe, path, inst, orig, run, args, ...(stdin ? { stdin } : {}) };
}

/** Regenerates against a truth cursor; returns the summary and the number of events compared. */
export function regenAgainst(t: Traced, oracle: 'original' | 'mapped', opts: { interpret?: boolean; compiled?: boolean } = {}): RegenSummary & { events: number } {
  const cur = oracle === 'original'
    ? new TruthCursor(t.orig.truth!, `${t.path} (original run)`, 1)
    : new MappedTruthCursor(t.run.truth!, `${t.path} (instrumented run)`, 1, t.inst.schema);
  const sink = new VerifySink(cur, funcNamer(t.inst.schema));
  const s = regenerateProcess(new RegenProgram(t.inst.schema, `${t.path}.schema`), t.run.trace.bytes(), t.run.trace.markers, sink, opts);
  sink.finish();
  return { ...s, events: sink.index };
}

/**
 * Instruments the executable at `path` (arguments none), runs the original and the instrumented
 * program with ground truth, and checks the tracer's promise: the instrumented program exits as
 * the original (status 0) with the same output, and regeneration equals both ground truths with
 * every trace byte consumed. Returns the traced runs and the number of events regenerated.
 */
export function checkBehavesAndRegenerates(path: string, name: string, maxInstructions: number): { t: Traced; events: number } {
  const exe = new Uint8Array(readFileSync(path));
  const inst = instrument(exe, path);
  const orig = runExecutable({ data: exe, name }, { args: [], truth: 'bin', trace: true });
  const run = runExecutable({ data: inst.elf, name }, { args: [], truth: 'bin', trace: true, maxInstructions });
  expect(orig.status).toBe(0);
  expect(run.haltReason).toBe('init exited');
  expect(run.status).toBe(orig.status);
  expect(run.stdout.toString('latin1')).toBe(orig.stdout.toString('latin1'));
  const t: Traced = { exe, path, inst, orig, run, args: [] };
  const a = regenAgainst(t, 'original');
  expect(regenAgainst(t, 'mapped').events).toBe(a.events);
  expect(a.bytes).toBe(run.trace.bytes().length);
  return { t, events: a.events };
}
