/**
 * Tracer measurements per workload and target (issue 6 "Measured"): instruction dilation
 * (instrumented / original user instructions), trace bytes per memory reference and per
 * instruction, witness bytes against value bytes, code growth, instrumenting time, and the saving
 * of carrying the stack pointer across calls against recording it (qpt's way).
 *
 *   npm run build && node dist/bench/tracer.js [--targets mipsel,mips,sparc] [--programs li,cc1]
 *       [--json FILE] [--no-baseline]
 *
 * Every regeneration is verified against the original run's ground truth on the way (a
 * divergence aborts the benchmark). The guest builds must exist (`emu images build -f bsd`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR } from '../images/build.js';
import { program, type ProgramSpec } from '../images/catalog.js';
import type { TargetName } from '../format/target.js';
import { RegenProgram } from '../regen/model.js';
import { regenerateProcess } from '../regen/run.js';
import { TruthCursor } from '../regen/truth_cursor.js';
import { VerifySink, funcNamer } from '../regen/verify.js';
import { instrument } from '../tracer/instrument.js';
import { runExecutable } from '../bin/harness.js';
import { TARGET_NAMES, benchCommand, checkNames, list } from './cli.js';

export const WORKLOADS = ['cc1', 'compress', 'egrep', 'li', 'pdp', 'sgefa', 'textgen'];

export interface TracerFigures {
  program: string;
  test: string;
  target: TargetName;
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
}

function firstArgsTest(spec: ProgramSpec): ProgramSpec['tests'][number] {
  const t = spec.tests.find((x) => !x.shell);
  if (!t) throw new Error(`${spec.name}: no test with plain arguments`);
  return t;
}

export function measure(name: string, target: TargetName, baseline: boolean): TracerFigures {
  const spec = program(name);
  const t = firstArgsTest(spec);
  const path = join(BUILD_DIR, `bsd-${target}`, 'bin', name);
  const exe = new Uint8Array(readFileSync(path));
  const stdin = t.stdin ? new Uint8Array(readFileSync(join(spec.dir, t.stdin))) : undefined;
  const t0 = performance.now();
  const inst = instrument(exe, path);
  const instrumentMs = performance.now() - t0;
  const orig = runExecutable({ data: exe, name }, { args: t.args, stdin, truth: 'bin', trace: true });
  const run = runExecutable({ data: inst.elf, name }, { args: t.args, stdin, trace: true });
  if (!run.stdout.equals(orig.stdout) || run.status !== orig.status) throw new Error(`${name} ${target}: the instrumented program's output differs`);
  const trace = run.trace.bytes();
  const sink = new VerifySink(new TruthCursor(orig.truth!, `${name}.truth`, 1), funcNamer(inst.schema));
  const sum = regenerateProcess(new RegenProgram(inst.schema, `${name}.schema`), trace, run.trace.markers, sink);
  sink.finish();
  const refs = sink.index - orig.insns;
  const c = sum.counts;
  let noCarryBytes: number | null = null;
  let noCarryDilation: number | null = null;
  if (baseline) {
    const nc = instrument(exe, path, { carrySp: false });
    const r2 = runExecutable({ data: nc.elf, name }, { args: t.args, stdin, trace: true });
    noCarryBytes = r2.trace.bytes().length;
    noCarryDilation = r2.insns / orig.insns;
  }
  return {
    program: name, test: t.name, target, insns: orig.insns, refs, instrumentedInsns: run.insns, dilation: run.insns / orig.insns,
    traceBytes: trace.length, bytesPerRef: trace.length / refs, bytesPerInsn: trace.length / orig.insns,
    witnessBytes: c.witness, valueBytes: c.entry + c.body + c.edge,
    codeGrowth: inst.schema.stats['newTextBytes']! / inst.schema.stats['originalTextBytes']!, instrumentMs, noCarryBytes, noCarryDilation,
  };
}

function main(argv: string[]): void {
  const cmd = benchCommand('tracer.js', 'Tracer figures per workload and target: dilation, trace bytes per reference and per instruction, witness share, code growth, instrumenting time, the carry-sp saving; every regeneration verified')
    .option('--targets <list>', `targets, comma-separated (${TARGET_NAMES.join(', ')})`, list, ['mipsel', 'mips', 'sparc'])
    .option('--programs <list>', `workloads, comma-separated (${WORKLOADS.join(', ')})`, list, WORKLOADS)
    .option('--json <file>', 'also write the rows as JSON')
    .option('--no-baseline', 'skip the --no-carry-sp runs (the carry-sp saving column)')
    .parse(argv, { from: 'user' });
  const o = cmd.opts<{ targets: string[]; programs: string[]; json?: string; baseline: boolean }>();
  checkNames(cmd, 'target', o.targets, TARGET_NAMES);
  checkNames(cmd, 'workload', o.programs, WORKLOADS);
  const targets = o.targets as TargetName[];
  const progs = o.programs;
  const baseline = o.baseline;
  const rows: TracerFigures[] = [];
  const f = (x: number, d = 2): string => x.toFixed(d);
  process.stdout.write('program   test      target  dilation  bytes/ref  bytes/insn  witness%  growth  instr-ms  carry-saving\n');
  for (const target of targets) {
    for (const p of progs) {
      const r = measure(p, target, baseline);
      rows.push(r);
      const saving = r.noCarryBytes === null ? '-' : `${f((1 - r.traceBytes / r.noCarryBytes) * 100, 1)}%`;
      process.stdout.write(
        `${p.padEnd(9)} ${r.test.padEnd(9)} ${target.padEnd(7)} ${f(r.dilation).padStart(8)} ${f(r.bytesPerRef, 3).padStart(10)} ${f(r.bytesPerInsn, 3).padStart(11)} ` +
        `${f((100 * r.witnessBytes) / r.traceBytes, 1).padStart(8)} ${f(r.codeGrowth).padStart(7)} ${f(r.instrumentMs, 0).padStart(9)} ${saving.padStart(13)}\n`,
      );
    }
    const mine = rows.filter((r) => r.target === target);
    const avg = (k: (r: TracerFigures) => number): number => mine.reduce((n, r) => n + k(r), 0) / mine.length;
    process.stdout.write(`${'average'.padEnd(19)} ${target.padEnd(7)} ${f(avg((r) => r.dilation)).padStart(8)} ${f(avg((r) => r.bytesPerRef), 3).padStart(10)} ${f(avg((r) => r.bytesPerInsn), 3).padStart(11)}\n`);
    // Pooled: the workloads run one after another into one buffer, as the paper's "rate at which
    // the global trace buffer fills" per memory reference (mazieres-smith-1994 section 4); long
    // runs weigh more than in the average of the per-program ratios above.
    const sum = (k: (r: TracerFigures) => number): number => mine.reduce((n, r) => n + k(r), 0);
    process.stdout.write(`${'pooled'.padEnd(19)} ${target.padEnd(7)} ${f(sum((r) => r.instrumentedInsns) / sum((r) => r.insns)).padStart(8)} ${f(sum((r) => r.traceBytes) / sum((r) => r.refs), 3).padStart(10)} ${f(sum((r) => r.traceBytes) / sum((r) => r.insns), 3).padStart(11)}\n`);
  }
  const out = o.json;
  if (out) writeFileSync(out, `${JSON.stringify(rows, null, 2)}\n`);
}

if (process.argv[1]?.endsWith('tracer.js')) main(process.argv.slice(2));
