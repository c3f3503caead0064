/**
 * `emu regen`: abstract execution (regen/) rebuilding the original programs' instruction fetches
 * and data references in the ground-truth event model (docs/kernel.md section 10).
 *
 *   emu regen BUNDLE [--format bin|text|din] [--pid N] [-o FILE] [--verify] [--stats]
 *       every traced process of a trace bundle (emu run IMAGE|PROG --trace; docs/trace-bundle.md),
 *       interleaved as they ran; --verify compares with the bundle's ground truth, recorded by
 *       the same run.
 *
 * --verify reports the first divergence (event index, pid, instruction, function, expected and
 * regenerated). A damaged bundle gives an error naming the file and the event index; exit 1.
 */
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Command, Option } from 'commander';
import { describe } from './commands.js';
import { FileSink, type ByteSink } from '../format/sink.js';
import type { TargetName } from '../format/target.js';
import { TRUTH_FORMATS, makeTruthWriter, type TruthFormat, type TruthWriter } from '../format/truth.js';
import { openBundle } from '../format/bundle.js';
import type { Schema } from '../format/schema.js';
import { regenerate, type RegenTotals } from '../regen/multi.js';
import type { RefConsumer, ScheduleConsumer } from '../regen/replay/consumer.js';
import { EV_I, EV_L } from '../regen/truth_cursor.js';
import { PidNamer, TracedTruthCursor, VerifyRefs, namerConsumer, startsOf } from '../regen/verify_multi.js';

interface Opts {
  verify?: boolean;
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
    if (!b.truthFile) throw new Error(`${dir}: the bundle has no ground truth (run emu run --trace --truth)`);
    verify = new VerifyRefs(new TracedTruthCursor(new Uint8Array(readFileSync(b.truthFile)), b.truthFile, startsOf(b)), (p, pc) => namer.name(p, pc));
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

export function regenCommand(): Command {
  return new Command('regen')
    .description(describe('regen'))
    .argument('<bundle>', 'a trace bundle directory')
    .option('--verify', "compare with the bundle's ground truth (a bundle made with --truth)")
    .addOption(new Option('--format <format>', 'output format').choices(TRUTH_FORMATS).default('bin'))
    .option('-o, --output <file>', 'write the regenerated trace (bin needs a file; text and din default to standard output)')
    .option('--pid <n>', 'only this process\'s events')
    .option('--interpret', 'use the reference interpreter instead of the compiled schemas')
    .option('--stats', 'per-process instruction, byte and event counts and the speed, and the functions in conservative mode, on standard error')
    .action((input: string, o: Opts) => {
      const st = (() => {
        try {
          return statSync(input);
        } catch {
          return null;
        }
      })();
      if (st === null) throw new Error(`${input}: no such bundle directory`);
      if (!st.isDirectory()) throw new Error(`${input} is not a trace bundle directory (emu run IMAGE|PROG --trace --out DIR writes one)`);
      regenBundle(input, o);
    });
}
