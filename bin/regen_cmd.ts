/**
 * `emu regen`: abstract execution (regen/) rebuilding the original programs' instruction fetches
 * and data references in the ground-truth event model (docs/kernel.md section 10).
 *
 *   emu regen BUNDLE [--format bin|text|din] [--pid N] [-o FILE] [--verify] [--stats]
 *       every traced process of a trace bundle (emu run --trace; docs/trace-bundle.md),
 *       interleaved as they ran; --verify compares with the bundle's ground truth;
 *   emu regen SCHEMA TRACE SCHED [--verify TRUTH] [--format ...] [-o FILE]
 *       one program's trace as `emu instrument --run` writes it.
 *
 * --verify reports the first divergence (event index, pid, instruction, function, expected and
 * regenerated). A damaged bundle gives an error naming the file and the event index; exit 1.
 */
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Command, Option } from 'commander';
import { describe } from './commands.js';
import { decodeSchedule } from '../format/sched.js';
import { FileSink, type ByteSink } from '../format/sink.js';
import type { TargetName } from '../format/target.js';
import { TRUTH_FORMATS, makeTruthWriter, type TruthFormat, type TruthWriter } from '../format/truth.js';
import { checkedTruthFile, openBundle } from '../format/bundle.js';
import { RegenProgram } from '../regen/model.js';
import { regenerate, regenerateInput, type RegenTotals } from '../regen/multi.js';
import type { RefConsumer, ScheduleConsumer } from '../regen/replay/consumer.js';
import { EV_I, EV_L, TruthCursor } from '../regen/truth_cursor.js';
import { MappedTruthCursor, VerifySink, funcNamer } from '../regen/verify.js';
import { PidNamer, TracedTruthCursor, VerifyRefs, namerConsumer, startsOf } from '../regen/verify_multi.js';
import { parseSchema, type Schema } from '../format/schema.js';

interface Opts {
  verify?: string | boolean;
  format: TruthFormat;
  output?: string;
  pid?: string;
  interpret?: boolean;
  stats?: boolean;
}

/** Standard output as a byte sink (text and din formats). */
class StdoutSink implements ByteSink {
  write(bytes: Uint8Array): void {
    process.stdout.write(Buffer.from(bytes));
  }
  close(): void {}
}

/**
 * -o FILE: the output is written under a temporary name beside FILE and renamed to FILE only when
 * regeneration (and --verify) succeeded; after an error the temporary file is removed, so a
 * damaged bundle never leaves a partial trace behind (nor replaces an earlier FILE). A FILE that
 * exists and is not a regular file (/dev/null, a FIFO, a terminal) is written directly: renaming
 * over it would replace the device node with a plain file.
 */
class OutputFile {
  readonly tmp: string | null;
  readonly sink: FileSink;
  constructor(readonly path: string) {
    let special = false;
    try {
      special = !statSync(path).isFile();
    } catch {
      special = false; // does not exist yet
    }
    this.tmp = special ? null : join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
    this.sink = new FileSink(this.tmp ?? path);
  }
  /** After the writer finished (the sink is closed): keep or drop the output. */
  settle(ok: boolean): void {
    if (this.tmp === null) return;
    if (ok) renameSync(this.tmp, this.path);
    else rmSync(this.tmp, { force: true });
  }
}

/**
 * The writer of the regenerated trace (-o FILE or --format text|din to standard output), added
 * to the consumers; none when only verifying or counting.
 */
function outputConsumer(o: Opts, arch: TargetName, refs: RefConsumer[], scheds: ScheduleConsumer[]): { writer?: TruthWriter; out?: OutputFile } {
  if (!o.output && o.format === 'bin') return {};
  if (o.format === 'bin' && !o.output) throw new Error('--format bin needs -o FILE');
  const out = o.output ? new OutputFile(o.output) : undefined;
  const writer = makeTruthWriter(o.format, out ? out.sink : new StdoutSink(), arch);
  const wc = new WriterConsumer(writer);
  refs.push(wc);
  scheds.push(wc);
  return out ? { writer, out } : { writer };
}

/** The regenerated events into a ground-truth writer, with the schedule's records. */
class WriterConsumer implements RefConsumer, ScheduleConsumer {
  private pid = -1;
  private cycle = 0;
  constructor(private readonly w: TruthWriter) {}
  ref(pid: number, kind: number, addr: number, size: number): void {
    if (pid !== this.pid) {
      this.pid = pid;
      this.w.switchTo(pid, Number.isFinite(this.cycle) ? this.cycle : 0);
    }
    if (kind === EV_I) this.w.ifetch(addr);
    else if (kind === EV_L) this.w.load(addr, size);
    else this.w.store(addr, size);
  }
  switchTo(_pid: number, cycle: number): void {
    if (Number.isFinite(cycle)) this.cycle = cycle;
  }
  fork(parent: number, child: number): void {
    this.w.fork(parent, child);
  }
  exec(pid: number, path: string): void {
    this.w.exec(pid, path);
  }
  exit(pid: number, status: number): void {
    this.w.exit(pid, status);
  }
  end(): void {}
}

class Fanout implements RefConsumer, ScheduleConsumer {
  constructor(private readonly refs: RefConsumer[], private readonly scheds: ScheduleConsumer[]) {}
  ref(pid: number, kind: number, addr: number, size: number): void {
    for (const r of this.refs) r.ref(pid, kind, addr, size);
  }
  switchTo(pid: number, cycle: number, events: number): void {
    for (const s of this.scheds) s.switchTo(pid, cycle, events);
  }
  fork(parent: number, child: number): void {
    for (const s of this.scheds) s.fork(parent, child);
  }
  exec(pid: number, path: string): void {
    for (const s of this.scheds) s.exec(pid, path);
  }
  exit(pid: number, status: number): void {
    for (const s of this.scheds) s.exit(pid, status);
  }
  end(cycle: number, events: number): void {
    for (const s of this.scheds) s.end(cycle, events);
  }
}

function regenBundle(dir: string, o: Opts): void {
  const b = openBundle(dir);
  const pid = o.pid !== undefined ? Number(o.pid) : undefined;
  if (pid !== undefined && !Number.isInteger(pid)) throw new Error(`--pid: '${o.pid}' is not a process id`);
  const refs: RefConsumer[] = [];
  const scheds: ScheduleConsumer[] = [];
  let verify: VerifyRefs | undefined;
  const namer = new PidNamer();
  scheds.push(namerConsumer(b, namer));
  if (o.verify) {
    if (pid !== undefined) throw new Error('--verify compares every traced process: it cannot be combined with --pid');
    const truth = checkedTruthFile(b);
    verify = new VerifyRefs(new TracedTruthCursor(new Uint8Array(readFileSync(truth)), truth, startsOf(b)), (p, pc) => namer.name(p, pc));
    refs.push(verify);
  }
  const { writer, out } = outputConsumer(o, b.manifest.arch, refs, scheds);
  const fan = new Fanout(refs, scheds);
  const t0 = performance.now();
  let totals: RegenTotals;
  let ok = false;
  try {
    totals = regenerate(b, refs.length === 1 ? refs[0]! : fan, fan, { ...(pid !== undefined ? { pid } : {}), interpret: o.interpret === true });
    verify?.finish();
    ok = true;
  } finally {
    writer?.finish();
    out?.settle(ok);
  }
  const s = (performance.now() - t0) / 1000;
  if (verify) process.stderr.write(`${dir}: verified ${verify.index} events of ${totals.processes.length} traced processes against ${b.truthFile}\n`);
  if (o.stats) {
    for (const p of totals.processes) {
      process.stderr.write(`pid ${p.pid} ${p.program}: ${p.icount} instrumented instructions, ${p.bytes} trace bytes, ${p.signals} signals${p.exited ? '' : ' (exec)'}\n`);
    }
    process.stderr.write(`${totals.events} events, ${totals.bytes} trace bytes, ${s.toFixed(2)} s (${(totals.events / s / 1e6).toFixed(1)} M events/s)\n`);
    for (const { info, schema } of b.programs.values()) process.stderr.write(conservativeText(info.path, schema));
  }
}

/** One line per function a schema instruments in conservative mode, and why (docs/tracer.md). */
function conservativeText(program: string, schema: Schema): string {
  return schema.functions.filter((f) => f.conservative !== undefined)
    .map((f) => `${program}: conservative: ${f.name} (0x${f.addr.toString(16)}): ${f.conservative}\n`).join('');
}

function regenSingle(schemaFile: string, traceFile: string, schedFile: string, o: Opts): void {
  const schema = parseSchema(new Uint8Array(readFileSync(schemaFile)), schemaFile);
  const prog = new RegenProgram(schema, schemaFile);
  const trace = new Uint8Array(readFileSync(traceFile));
  const sched = decodeSchedule(new Uint8Array(readFileSync(schedFile)), schedFile);
  const first = sched.markers.find((m) => m.kind === 'start');
  const refs: RefConsumer[] = [];
  const scheds: ScheduleConsumer[] = [];
  let verify: VerifySink | undefined;
  if (typeof o.verify === 'string') {
    const bytes = new Uint8Array(readFileSync(o.verify));
    // The original program's truth, or the instrumented run's (mapped back through the schema).
    const orig = new TruthCursor(bytes, o.verify, first?.pid ?? 1);
    const probe = new TruthCursor(bytes, o.verify, first?.pid ?? 1);
    const e = probe.next({ kind: 0, addr: 0, size: 0 });
    const mapped = e !== null && e.addr >= schema.newText.base && e.addr < schema.newText.base + schema.newText.size;
    const cur = mapped ? new MappedTruthCursor(bytes, o.verify, first?.pid ?? 1, schema) : orig;
    verify = new VerifySink(cur, funcNamer(schema));
    const v = verify;
    refs.push({ ref: (_p, kind, addr, size) => (kind === EV_I ? v.ifetch(addr) : kind === EV_L ? v.load(addr, size) : v.store(addr, size)) });
  } else if (o.verify) {
    throw new Error('--verify needs a ground-truth file with SCHEMA TRACE SCHED');
  }
  const { writer, out } = outputConsumer(o, schema.arch, refs, scheds);
  const fan = new Fanout(refs, scheds);
  const t0 = performance.now();
  let totals: RegenTotals;
  let ok = false;
  try {
    totals = regenerateInput({
      markers: sched.markers, offsets: sched.offsets, trace, traceFile, schedFile, program: () => prog, path: () => schema.original.file,
      ...(sched.version === 2 && sched.end === null ? { schedProblem: `truncated: no END record after byte ${sched.length}` } : {}),
    }, fan, fan, { interpret: o.interpret === true });
    verify?.finish();
    ok = true;
  } finally {
    writer?.finish();
    out?.settle(ok);
  }
  const s = (performance.now() - t0) / 1000;
  if (verify) process.stderr.write(`${schemaFile}: verified ${verify.index} events against ${o.verify}\n`);
  if (o.stats) {
    for (const p of totals.processes) process.stderr.write(`pid ${p.pid}: ${p.icount} instrumented instructions, ${p.bytes} trace bytes, ${p.signals} signals, ${s.toFixed(2)} s\n`);
    process.stderr.write(conservativeText(schema.original.file, schema));
  }
}

export function regenCommand(): Command {
  return new Command('regen')
    .description(describe('regen'))
    .argument('<input>', 'a trace bundle directory, or a schema (emu instrument)')
    .argument('[files...]', 'with a schema: the trace and the markers (emu instrument --run)')
    .option('--verify [truth]', "compare with the ground truth: the bundle's own, or (with a schema) a ground-truth file")
    .addOption(new Option('--format <format>', 'output format').choices(TRUTH_FORMATS).default('bin'))
    .option('-o, --output <file>', 'write the regenerated trace (bin needs a file; text and din default to standard output)')
    .option('--pid <n>', 'only this process\'s events (a bundle)')
    .option('--interpret', 'use the reference interpreter instead of the compiled schemas')
    .option('--stats', 'per-process instruction, byte and event counts and the speed, and the functions in conservative mode, on standard error')
    .action((input: string, files: string[], o: Opts) => {
      const st = (() => {
        try {
          return statSync(input);
        } catch {
          return null;
        }
      })();
      if (st === null) throw new Error(`${input}: no such bundle directory or schema file`);
      if (st.isDirectory()) {
        if (files.length) throw new Error(`${input} is a bundle: no further files expected`);
        regenBundle(input, o);
        return;
      }
      if (files.length !== 2) throw new Error(`${input} is not a bundle directory: give a bundle directory, or SCHEMA TRACE SCHED`);
      regenSingle(input, files[0]!, files[1]!, o);
    });
}
