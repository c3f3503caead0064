/**
 * Tracer measurements per program and target (issue 6 "Measured", issue 22): instruction
 * dilation (instrumented / original user instructions), trace bytes per memory reference and per
 * instruction, witness bytes against value bytes, code growth, instrumenting time, and the saving
 * of carrying the stack pointer across calls against recording it (qpt's way). The programs: the
 * project's workloads, a sample of GCC's torture tests (`--corpus N`) and public programs from
 * their source directories (`--external DIR`), bench/tracer_subjects.ts; each group's average of
 * the per-program ratios and its pooled ratios.
 *
 *   npm run build && node dist/bench/tracer.js [--targets mipsel,mips,sparc] [--programs li,cc1]
 *       [--no-workloads] [--corpus 8] [--external DIR ...] [--iterations N] [--json FILE] [--no-baseline]
 *
 * Every regeneration is verified against ground truth on the way (traceAndVerify): a divergence
 * aborts the benchmark on a workload, and on a corpus or external program is listed at the end
 * with exit status 1; programs whose instrumented run departs from the untraced one (they read
 * the clock) are listed with where. Torture tests that fail on emu untraced are left out (counted). The
 * workloads' builds must exist (`emu images build -f bsd`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { TargetName } from '../format/target.js';
import { RegenProgram } from '../regen/model.js';
import { regenerateProcess, type RegenSummary } from '../regen/run.js';
import { TruthCursor } from '../regen/truth_cursor.js';
import { DivergenceError, EV_I, EV_L, MappedTruthCursor, VerifySink, funcNamer } from '../regen/verify.js';
import type { RegenProcess } from '../regen/process.js';
import type { Schema } from '../format/schema.js';
import { instrument } from '../tracer/instrument.js';
import { runExecutable, type GuestRun, type TracedRun } from '../bin/harness.js';
import { TARGET_NAMES, benchCommand, checkNames, list } from './cli.js';
import { collectSubjects, subjectOptions, type Subject, type SubjectGroup, type SubjectOptions } from './tracer_subjects.js';

export const WORKLOADS = ['cc1', 'compress', 'egrep', 'li', 'pdp', 'sgefa', 'textgen'];

export interface TracerFigures {
  program: string;
  test: string;
  target: TargetName;
  group: SubjectGroup;
  insns: number;
  refs: number;
  instrumentedInsns: number;
  dilation: number;
  traceBytes: number;
  bytesPerRef: number;
  bytesPerInsn: number;
  witnessBytes: number;
  valueBytes: number;
  codeGrowth: number;
  instrumentMs: number;
  /** Trace bytes with the stack pointer recorded at calls instead of carried (null: not run). */
  noCarryBytes: number | null;
  noCarryDilation: number | null;
  /** Where the instrumented run departs from the untraced one (traceAndVerify). */
  differs: string | null;
}

/** The untraced run failed (a torture test that does not pass on emu): nothing to measure. */
export class SubjectFailed extends Error {}

/** A traced run of a subject, its regeneration verified against ground truth. */
export interface Verified {
  orig: GuestRun;
  run: TracedRun;
  /** The original program's instructions and data references in the traced run (regenerated). */
  insns: number;
  refs: number;
  summary: RegenSummary;
  /** Where the instrumented run departs from the untraced one (null: it does not, or not compared). */
  differs: string | null;
}

/**
 * The first event where the instrumented run, mapped back through the address map, departs from
 * the untraced run (null: none). Programs that read the clock (gettimeofday: a torture test's
 * temporary file name, CoreMark's timer) depart: instrumentation adds instructions, so virtual
 * time differs.
 */
function runsDiffer(orig: Uint8Array, instrumented: Uint8Array, name: string, schema: Schema): string | null {
  const want = new MappedTruthCursor(instrumented, `${name} (instrumented run)`, 1, schema);
  const sink = new VerifySink(want, funcNamer(schema));
  const cur = new TruthCursor(orig, `${name} (untraced run)`, 1);
  const e = { kind: 0, addr: 0, size: 0 };
  try {
    while (cur.next(e)) {
      if (e.kind === EV_I) sink.ifetch(e.addr);
      else if (e.kind === EV_L) sink.load(e.addr, e.size);
      else sink.store(e.addr, e.size);
    }
    sink.finish();
  } catch (x) {
    if (x instanceof DivergenceError) return `event ${x.d.index} (last instruction 0x${x.d.pc.toString(16)} in ${x.d.func}): instrumented ${x.d.expected}, untraced ${x.d.actual}`;
    throw x;
  }
  return null;
}

/**
 * Runs the original and the instrumented program (their outputs must agree, or what `check`
 * keeps of them) and verifies the regeneration against ground truth. A workload: the original
 * run's. A corpus or external program: the instrumented run's mapped through the address map
 * (docs/schema.md), which is what the original program did in that run, and, without `check`,
 * that run is compared with the untraced one, event for event: where they depart (a program that
 * reads the clock), `differs` says where.
 */
export function traceAndVerify(s: Subject, exe: Uint8Array, inst: { elf: Uint8Array; schema: Schema }, profile?: RegenProcess['profile']): Verified {
  const name = basename(s.exe);
  const mapped = s.group !== 'workload' || s.check !== undefined;
  const opts = { args: s.args, ...(s.stdin ? { stdin: s.stdin } : {}), trace: true } as const;
  const orig = runExecutable({ data: exe, name }, s.check ? opts : { ...opts, truth: 'bin' });
  if (orig.exitCode !== 0 && s.group === 'corpus') throw new SubjectFailed(`${s.name} ${s.target}: exits ${orig.exitCode} untraced${orig.message ? ` (${orig.message})` : ''}`);
  const run = runExecutable({ data: inst.elf, name }, mapped ? { ...opts, truth: 'bin' } : opts);
  const same = s.check ? s.check(run.stdout.toString('latin1')) === s.check(orig.stdout.toString('latin1')) : run.stdout.equals(orig.stdout);
  if (!same || run.status !== orig.status) throw new Error(`${s.name} ${s.target}: the instrumented program's output or status differs`);
  const differs = mapped && !s.check ? runsDiffer(orig.truth!, run.truth!, name, inst.schema) : null;
  const cursor = mapped ? new MappedTruthCursor(run.truth!, `${name} (instrumented run)`, 1, inst.schema) : new TruthCursor(orig.truth!, `${name}.truth`, 1);
  const sink = new VerifySink(cursor, funcNamer(inst.schema));
  let summary: RegenSummary;
  try {
    summary = regenerateProcess(new RegenProgram(inst.schema, `${name}.schema`), run.trace.bytes(), run.trace.markers, sink, profile ? { profile } : {});
    sink.finish();
  } catch (e) {
    throw new Error(`${s.name} ${s.target}: ${(e as Error).message.split('\n')[0]}`);
  }
  return { orig, run, insns: sink.fetches, refs: sink.index - sink.fetches, summary, differs };
}

export function measure(s: Subject, baseline: boolean, knownLoops = false): TracerFigures {
  const { name, target } = s;
  const exe = new Uint8Array(readFileSync(s.exe));
  const t0 = performance.now();
  const inst = instrument(exe, s.exe, { knownLoops });
  const instrumentMs = performance.now() - t0;
  const { run, insns, refs, summary, differs } = traceAndVerify(s, exe, inst);
  const trace = run.trace.bytes();
  const c = summary.counts;
  let noCarryBytes: number | null = null;
  let noCarryDilation: number | null = null;
  if (baseline) {
    const nc = instrument(exe, s.exe, { carrySp: false, knownLoops });
    const r2 = runExecutable({ data: nc.elf, name: basename(s.exe) }, { args: s.args, ...(s.stdin ? { stdin: s.stdin } : {}), trace: true });
    noCarryBytes = r2.trace.bytes().length;
    noCarryDilation = r2.insns / insns;
  }
  return {
    program: name, test: s.test, target, group: s.group, insns, refs, instrumentedInsns: run.insns, dilation: run.insns / insns,
    traceBytes: trace.length, bytesPerRef: trace.length / refs, bytesPerInsn: trace.length / insns,
    witnessBytes: c.witness, valueBytes: c.entry + c.body + c.edge,
    codeGrowth: inst.schema.stats['newTextBytes']! / inst.schema.stats['originalTextBytes']!, instrumentMs, noCarryBytes, noCarryDilation, differs,
  };
}

/** Mean of per-program ratios and pooled ratios (all bytes over all references) of some rows. */
export function summaryRows(rows: readonly TracerFigures[]): { label: string; rows: TracerFigures[] }[] {
  const groups: { label: string; rows: TracerFigures[] }[] = [];
  for (const g of ['workload', 'corpus', 'external'] as const) {
    const mine = rows.filter((r) => r.group === g);
    if (mine.length) groups.push({ label: g === 'workload' ? 'workloads' : g, rows: mine });
  }
  const ext = rows.filter((r) => r.group !== 'workload');
  if (ext.some((r) => r.group === 'corpus') && ext.some((r) => r.group === 'external')) groups.push({ label: 'corpus+external', rows: ext });
  return groups;
}

async function main(argv: string[]): Promise<void> {
  const cmd = subjectOptions(benchCommand('tracer.js', 'Tracer figures per program and target: dilation, trace bytes per reference and per instruction, witness share, code growth, instrumenting time, the carry-sp saving; every regeneration verified against ground truth')
    .option('--targets <list>', `targets, comma-separated (${TARGET_NAMES.join(', ')})`, list, ['mipsel', 'mips', 'sparc']), WORKLOADS)
    .option('--json <file>', 'also write the rows as JSON')
    .option('--no-baseline', 'skip the --no-carry-sp runs (the carry-sp saving column)')
    .parse(argv, { from: 'user' });
  const o = cmd.opts<SubjectOptions & { targets: string[]; json?: string; baseline: boolean }>();
  checkNames(cmd, 'target', o.targets, TARGET_NAMES);
  checkNames(cmd, 'workload', o.programs, WORKLOADS);
  const log = (m: string): void => void process.stderr.write(`tracer: ${m}\n`);
  const rows: TracerFigures[] = [];
  const failures: string[] = [];
  const f = (x: number, d = 2): string => x.toFixed(d);
  process.stdout.write('program        test      target  dilation  bytes/ref  bytes/insn  witness%  growth  instr-ms  carry-saving\n');
  for (const target of o.targets as TargetName[]) {
    let skipped = 0;
    for (const s of await collectSubjects(o, target, log)) {
      let r: TracerFigures;
      try {
        r = measure(s, o.baseline, o.knownLoops);
      } catch (e) {
        if (e instanceof SubjectFailed) {
          skipped++;
          continue;
        }
        if (s.group === 'workload') throw e;
        failures.push((e as Error).message.split('\n')[0]!);
        log(failures[failures.length - 1]!);
        continue;
      }
      rows.push(r);
      const saving = r.noCarryBytes === null ? '-' : `${f((1 - r.traceBytes / r.noCarryBytes) * 100, 1)}%`;
      process.stdout.write(
        `${s.name.padEnd(14)} ${r.test.padEnd(9)} ${target.padEnd(7)} ${f(r.dilation).padStart(8)} ${f(r.bytesPerRef, 3).padStart(10)} ${f(r.bytesPerInsn, 3).padStart(11)} ` +
        `${f((100 * r.witnessBytes) / r.traceBytes, 1).padStart(8)} ${f(r.codeGrowth).padStart(7)} ${f(r.instrumentMs, 0).padStart(9)} ${saving.padStart(13)}\n`,
      );
    }
    if (skipped) log(`${target}: ${skipped} torture tests of the sample fail on emu untraced (left out)`);
    for (const g of summaryRows(rows.filter((r) => r.target === target))) {
      const mine = g.rows;
      const avg = (k: (r: TracerFigures) => number): number => mine.reduce((n, r) => n + k(r), 0) / mine.length;
      const label = `${g.label} (${mine.length})`;
      process.stdout.write(`${`average ${label}`.padEnd(24)} ${target.padEnd(7)} ${f(avg((r) => r.dilation)).padStart(8)} ${f(avg((r) => r.bytesPerRef), 3).padStart(10)} ${f(avg((r) => r.bytesPerInsn), 3).padStart(11)}\n`);
      // Pooled: the programs run one after another into one buffer, as the paper's "rate at which
      // the global trace buffer fills" per memory reference (mazieres-smith-1994 section 4); long
      // runs weigh more than in the average of the per-program ratios above.
      const sum = (k: (r: TracerFigures) => number): number => mine.reduce((n, r) => n + k(r), 0);
      process.stdout.write(`${`pooled ${label}`.padEnd(24)} ${target.padEnd(7)} ${f(sum((r) => r.instrumentedInsns) / sum((r) => r.insns)).padStart(8)} ${f(sum((r) => r.traceBytes) / sum((r) => r.refs), 3).padStart(10)} ${f(sum((r) => r.traceBytes) / sum((r) => r.insns), 3).padStart(11)}\n`);
    }
  }
  const out = o.json;
  if (out) writeFileSync(out, `${JSON.stringify(rows, null, 2)}\n`);
  const differ = rows.filter((r) => r.differs);
  if (differ.length) {
    process.stderr.write(`tracer: ${differ.length} programs' instrumented runs depart from their untraced runs (regeneration verified against the instrumented run's ground truth):\n${differ.map((r) => `  ${r.program} ${r.target}: ${r.differs}`).join('\n')}\n`);
  }
  if (failures.length) {
    process.stderr.write(`tracer: ${failures.length} programs failed:\n${failures.map((x) => `  ${x}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1]?.endsWith('tracer.js')) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`tracer: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
