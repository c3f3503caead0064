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
import { readFileSync, statSync } from 'node:fs';
import { Command, Option } from 'commander';
import type cliProgress from 'cli-progress';
import { describe } from './commands.js';
import type { ByteSink } from '../format/sink.js';
import type { TargetName } from '../format/target.js';
import { TRUTH_FORMATS, makeTruthWriter, type TruthFormat, type TruthWriter } from '../format/truth.js';
import { checkedTruthFile, openBundle } from '../format/bundle.js';
import type { Schema } from '../format/schema.js';
import { regenerateSliced, type RegenTotals } from '../regen/multi.js';
import { interruptible } from './interrupt.js';
import { refsOneByOne, type RefConsumer, type ScheduleConsumer } from '../regen/replay/consumer.js';
import { EV_I, EV_L } from '../regen/truth_cursor.js';
import { PidNamer, TracedTruthCursor, VerifyRefs, namerConsumer, startsOf } from '../regen/verify_multi.js';
import { OutputFile } from './outputs.js';
import { NO_SCHEMA_CACHE_HELP, schemaCacheDir } from './schema_cache_dir.js';

interface Opts {
  verify?: boolean;
  format: TruthFormat;
  output?: string;
  pid?: string;
  interpret?: boolean;
  compiled?: boolean;
  stats?: boolean;
  progress: boolean;
  schemaCache: boolean;
}

/** The progress bar of a long pass on a terminal (trace bytes consumed). */
async function progressBar(): Promise<cliProgress.SingleBar> {
  const { default: cli } = await import('cli-progress');
  const bar = new cli.SingleBar({
    format: 'regen [{bar}] {percentage}% of the trace', stream: process.stderr, clearOnComplete: true, hideCursor: false, linewrap: true,
  }, cli.Presets.shades_classic);
  bar.start(1, 0);
  return bar;
}

/** Standard output as a byte sink (text and din formats). */
class StdoutSink implements ByteSink {
  write(bytes: Uint8Array): void {
    process.stdout.write(Buffer.from(bytes));
  }
  close(): void {}
}

/**
 * The writer of the regenerated trace (-o FILE or --format text|din to standard output), added
 * to the consumers; none when only verifying or counting.
 */
function outputConsumer(o: Opts, out: OutputFile | undefined, arch: TargetName, refs: RefConsumer[], scheds: ScheduleConsumer[]): { writer?: TruthWriter } {
  if (!out && o.format === 'bin') return {};
  const writer = makeTruthWriter(o.format, out ? out.sink : new StdoutSink(), arch);
  const wc = new WriterConsumer(writer);
  refs.push(wc);
  scheds.push(wc);
  return { writer };
}

/** Events per pid (--stats). */
class PidCounter implements RefConsumer {
  readonly n = new Map<number, number>();
  private pid = -1;
  private count = 0;
  ref(pid: number): void {
    if (pid !== this.pid) {
      this.flush();
      this.pid = pid;
    }
    this.count++;
  }
  flush(): void {
    if (this.count) this.n.set(this.pid, (this.n.get(this.pid) ?? 0) + this.count);
    this.count = 0;
  }
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
  refBatch(pid: number, n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
    if (pid !== this.pid) {
      this.pid = pid;
      this.w.switchTo(pid, Number.isFinite(this.cycle) ? this.cycle : 0);
    }
    this.w.batch(n, kind, addr, size);
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
  refBatch(pid: number, n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
    for (const r of this.refs) {
      if (r.refBatch) r.refBatch(pid, n, kind, addr, size);
      else refsOneByOne(r, pid, n, kind, addr, size);
    }
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

async function regenBundle(dir: string, o: Opts): Promise<void> {
  // Options first, before any work.
  if (o.pid !== undefined && !/^\d+$/.test(o.pid)) throw new Error(`--pid: '${o.pid}' is not a process id`);
  const pid = o.pid !== undefined ? Number(o.pid) : undefined;
  if (o.verify && pid !== undefined) throw new Error('--verify compares every traced process: it cannot be combined with --pid');
  if (!o.output && o.format === 'bin' && !o.verify && !o.stats) {
    throw new Error('nothing to do: --format bin writes to a file (-o FILE); --format text|din write to standard output; --verify and --stats check and count');
  }
  const out = o.output ? new OutputFile(o.output, '-o', [dir]) : undefined;
  try {
    await regenInto(dir, o, pid, out);
  } catch (e) {
    out?.abandon();
    throw e;
  }
}

async function regenInto(dir: string, o: Opts, pid: number | undefined, out: OutputFile | undefined): Promise<void> {
  const b = openBundle(dir, { schemaCache: schemaCacheDir(o) });
  if (pid !== undefined && !b.sched.markers.some((m) => m.pid === pid)) {
    const pids = [...new Set(b.sched.markers.map((m) => m.pid))].sort((x, y) => x - y);
    throw new Error(`--pid: no traced process ${pid} in ${dir} (its traced processes: ${pids.join(', ')})`);
  }
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
  const counter = o.stats ? new PidCounter() : undefined;
  if (counter) refs.push(counter);
  const { writer } = outputConsumer(o, out, b.manifest.arch, refs, scheds);
  const fan = new Fanout(refs, scheds);
  const t0 = performance.now();
  let totals: RegenTotals;
  let ok = false;
  const bar = o.progress && process.stderr.isTTY ? await progressBar() : undefined;
  const intr = interruptible(() => bar?.stop());
  try {
    const progress = bar ? (done: number, total: number) => {
      bar.setTotal(Math.max(1, total));
      bar.update(done);
    } : undefined;
    const ro = { ...(pid !== undefined ? { pid } : {}), interpret: o.interpret === true, compiled: o.compiled === true, ...(progress ? { progress } : {}) };
    totals = await regenerateSliced(b, refs.length === 1 ? refs[0]! : fan, fan, ro, intr.between);
    verify?.finish();
    ok = true;
  } finally {
    intr.dispose();
    bar?.stop();
    writer?.finish();
    out?.settle(ok);
  }
  const s = (performance.now() - t0) / 1000;
  if (verify) process.stderr.write(`${dir}: verified ${verify.index} events of ${totals.processes.length} traced processes against ${b.truthFile}\n`);
  if (counter) {
    counter.flush();
    // One line per traced process instance, by pid (an exec'ed process has a line per program).
    const rows = totals.processes.map((p, i) => ({ p, i })).sort((x, y) => x.p.pid - y.p.pid || x.i - y.i).map((x) => x.p);
    const shown = new Set<number>();
    for (const p of rows) {
      const events = shown.has(p.pid) ? '' : `${counter.n.get(p.pid) ?? 0} events, `;
      shown.add(p.pid);
      process.stderr.write(`pid ${p.pid} ${p.program}: ${events}${p.icount} instrumented instructions, ${p.bytes} trace bytes, ${p.signals} signals${p.exited ? '' : ' (exec)'}\n`);
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
    .option('--interpret', 'use the reference interpreter instead of the table engine')
    .option('--compiled', 'use the schemas compiled to JavaScript functions instead of the table engine (slower to warm up; a second engine for comparisons)')
    .option('--stats', 'per-process event, instruction and byte counts (by pid) and the speed, and the functions in conservative mode, on standard error')
    .option('--no-progress', 'no progress bar on a terminal')
    .option('--no-schema-cache', NO_SCHEMA_CACHE_HELP)
    .action(async (input: string, o: Opts) => {
      const st = (() => {
        try {
          return statSync(input);
        } catch {
          return null;
        }
      })();
      if (st === null) throw new Error(`${input}: no such bundle directory`);
      if (!st.isDirectory()) throw new Error(`${input} is not a trace bundle directory (emu run IMAGE|PROG --trace --out DIR writes one)`);
      await regenBundle(input, o);
    });
}
