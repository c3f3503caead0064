/**
 * Multi-process tracing benchmark (a script, not a test; issue 7, "Measured"):
 *
 * 1. Regeneration speed. Per workload image, the workload runs once traced with ground truth
 *    (bin/trace_run.ts runTraced, as `emu run IMAGE --trace --truth`) into a temporary bundle. Then,
 *    side by side in this one process:
 *      - regeneration: regen/multi.ts regenerate() of the bundle into a counting consumer (the
 *        references only counted by kind);
 *      - re-emulation: the same image and command run again untraced (os/run.ts runMachine) with
 *        ground truth on, written in the binary format to a sink that discards the bytes.
 *    Re-emulation with --truth is the other way to get the references of those processes again,
 *    and the cheapest one (no instrumentation, no trace buffer, no store device, no disk): it is
 *    the comparison that answers "is regeneration faster than re-emulation". Both rates are
 *    given in events of the traced processes (what regeneration delivers) per second of host wall
 *    clock; re-emulation has to run every process of the machine to get them (its ground truth
 *    also holds the shell, the untraced programs such as egrep's textgen, and init: that total is
 *    printed too). Times are medians of --reps passes after a first, cold pass (reported
 *    separately: it includes V8's compilation of the regeneration code and of the translated
 *    guest blocks). Before timing, one pass over the bundle's ground truth (regen/replay's
 *    BundleTruthSource, mapped back to the original programs) checks that it holds as many events
 *    as regeneration delivers.
 *
 * 2. mazieres-smith-1994 Figure 11 in virtual time, for li, cc1 (the paper's gcc) and egrep: the
 *    whole run, boot to halt, in virtual seconds (cycles / cpuHz; deterministic) untraced
 *    (runMachine, no trace), dummy (runTraced with dummy: the streams go to /dev/null) and
 *    traced (the run of part 1: the modelled store device, default 350 KB/s; ground truth is
 *    recorded on the host side and does not move the virtual clock), the slowdowns, the memory
 *    references (instruction + data references of the traced program, from regeneration), the
 *    trace stream's size and the bytes per reference. A second table gives the traced program's
 *    own process, from its fork to its exit (kernel statistics), which leaves out the rest of the
 *    run (boot, the generation of egrep's input file, the final drain).
 *
 *   npm run build && node dist/bench/trace.js [--target mipsel|sparc|all] [--reps N] [--only NAME,...]
 *
 * The BSD-flavour builds must exist (`node bin/emu.js images build -f bsd --no-native`). Every
 * workload runs its image's own command (images/specs.ts; COMMANDS below overrides it where a
 * smaller one is documented). Tables go to stdout, progress to stderr. A workload that fails is
 * reported with its error and left out of the tables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { BootImage } from '../format/image.js';
import { assembleImage } from '../images/pack.js';
import { imageSpecs } from '../images/specs.js';
import type { Console } from '../os/dev.js';
import { runMachine, type RunResult } from '../os/run.js';
import type { StatsReport } from '../os/stats.js';
import { runTraced } from '../bin/trace_run.js';
import type { ByteSink } from '../format/sink.js';
import { openBundle } from '../format/bundle.js';
import { regenerate } from '../regen/multi.js';
import { BundleTruthSource } from '../regen/replay/bundle_source.js';
import type { RefConsumer } from '../regen/replay/consumer.js';
import { benchCommand, checkNames, list, positiveInt } from './cli.js';

const WORKLOADS = ['demo', 'pipeline', 'pmake', 'li', 'cc1', 'egrep'];
/** The workloads of mazieres-smith-1994 Figure 11 (gcc is cc1 here). */
const FIGURE11 = new Set(['li', 'cc1', 'egrep']);
/** Commands that replace an image's own (none: every image's default runs in reasonable time). */
const COMMANDS: Record<string, string> = {};
const TARGETS = ['mipsel', 'sparc'] as const;

const quiet: Console = { write: () => {}, writeErr: () => {}, read: () => new Uint8Array(0) };
const log = pino({ level: 'silent' });
const out = (s: string): void => void process.stdout.write(s);
const progress = (s: string): void => void process.stderr.write(`${s}\n`);

/** References counted by kind (fetch, load, store), nothing else. */
class KindCounter implements RefConsumer {
  readonly byKind = new Float64Array(3);
  ref(_pid: number, kind: number): void {
    this.byKind[kind]++;
  }
  get total(): number {
    return this.byKind[0]! + this.byKind[1]! + this.byKind[2]!;
  }
}

/** A ByteSink that counts and discards (ground truth of the re-emulation). */
class DiscardSink implements ByteSink {
  bytes = 0;
  write(b: Uint8Array): void {
    this.bytes += b.length;
  }
  close(): void {}
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Timing {
  /** Seconds of the first pass. */
  cold: number;
  /** Median seconds of the `reps` passes after it. */
  warm: number;
}

/** Runs f reps + 1 times: the first pass cold, the median of the others warm. */
function timed(reps: number, label: string, f: () => void): Timing {
  const t: number[] = [];
  for (let i = 0; i <= reps; i++) {
    progress(`  ${label} pass ${i + 1}/${reps + 1}`);
    const t0 = performance.now();
    f();
    t.push((performance.now() - t0) / 1000);
  }
  return { cold: t[0]!, warm: median(t.slice(1)) };
}

/** Virtual cycles from the fork of the first process running `path` to the exit of the last. */
function programCycles(stats: StatsReport, path: string): number {
  const rows = stats.processes.filter((p) => p.path === path);
  if (rows.length === 0) throw new Error(`no process ran ${path}`);
  let start = Infinity;
  let end = -Infinity;
  for (const p of rows) {
    if (p.end === null) throw new Error(`${path} (pid ${p.pid}) had not exited at the end of the run`);
    start = Math.min(start, p.start);
    end = Math.max(end, p.end);
  }
  return end - start;
}

/** Throws unless the machine halted because init exited. */
function checkHalt(what: string, r: RunResult): void {
  if (r.kernel.haltReason !== 'init exited') throw new Error(`${what}: the machine halted: ${r.message || r.kernel.haltReason}`);
}

interface Figure11 {
  cpuHz: number;
  untraced: number;
  dummy: number;
  traced: number;
  /** The traced program's process, fork to exit, in the three runs. */
  prog: { path: string; untraced: number; dummy: number; traced: number };
}

interface Row {
  target: string;
  name: string;
  command: string;
  exitCode: number;
  /** Regenerated events: fetch, load, store. */
  byKind: Float64Array;
  events: number;
  instructions: number;
  traceBytes: number;
  schedBytes: number;
  overflows: number;
  /** Host seconds of the one traced run with ground truth. */
  tracedHost: number;
  regen: Timing;
  reemu: Timing;
  /** Events of every process in the re-emulation's ground truth. */
  reemuEvents: number;
  fig: Figure11 | null;
}

async function measure(target: string, name: string, img: BootImage, reps: number): Promise<Row> {
  const file = `${name}-${target}`;
  const image = { img, file };
  const command = COMMANDS[name];
  const cmd = command !== undefined ? { command } : {};
  const tmp = mkdtempSync(join(tmpdir(), `emu-bench-trace-${file}-`));
  try {
    const dir = join(tmp, 'bundle');
    progress(`[${file}] traced run with ground truth`);
    const t0 = performance.now();
    const tr = await runTraced({ image, out: dir, truth: true, console: quiet, log, ...cmd });
    const tracedHost = (performance.now() - t0) / 1000;
    checkHalt('the traced run', tr);
    const m = tr.manifest!;
    const bundle = openBundle(dir);

    progress(`[${file}] counting the bundle's ground truth`);
    const truthCount = new KindCounter();
    new BundleTruthSource(bundle).run(truthCount);

    const counter = new KindCounter();
    let events = -1;
    const regen = timed(reps, `[${file}] regeneration`, () => {
      const c = new KindCounter();
      const n = regenerate(bundle, c).events;
      if (c.total !== n) throw new Error(`regenerate() reported ${n} events, the consumer received ${c.total}`);
      if (events >= 0 && n !== events) throw new Error(`regeneration delivered ${n} events, an earlier pass ${events}`);
      events = n;
      counter.byKind.set(c.byKind);
    });
    if (truthCount.total !== events) {
      throw new Error(`regeneration delivered ${events} events (${counter.byKind.join('/')}), the bundle's ground truth holds ${truthCount.total} (${truthCount.byKind.join('/')})`);
    }

    let reemuEvents = -1;
    let reemuCycles = -1;
    const reemu = timed(reps, `[${file}] re-emulation with truth`, () => {
      const r = runMachine({ image, console: quiet, log, truth: { sink: new DiscardSink(), format: 'bin' }, ...cmd });
      checkHalt('the re-emulation', r);
      if (r.exitCode !== tr.exitCode) throw new Error(`the re-emulation exited with ${r.exitCode}, the traced run with ${tr.exitCode}`);
      reemuEvents = r.kernel.truth!.events;
      reemuCycles = r.kernel.clock.now;
    });

    let fig: Figure11 | null = null;
    if (FIGURE11.has(name)) {
      progress(`[${file}] Figure 11: untraced and dummy runs`);
      const u = runMachine({ image, console: quiet, log, ...cmd });
      checkHalt('the untraced run', u);
      if (u.kernel.clock.now !== reemuCycles) {
        throw new Error(`the untraced run took ${u.kernel.clock.now} cycles, the same run with ground truth ${reemuCycles}: the virtual clock is not deterministic`);
      }
      const d = await runTraced({ image, out: join(tmp, 'dummy'), dummy: true, console: quiet, log, ...cmd });
      checkHalt('the dummy run', d);
      const path = `/bin/${name}`;
      fig = {
        cpuHz: m.cpuHz, untraced: u.kernel.clock.now, dummy: d.kernel.clock.now, traced: m.run.cycles,
        prog: { path, untraced: programCycles(u.stats, path), dummy: programCycles(d.stats, path), traced: programCycles(tr.stats, path) },
      };
    }
    return {
      target, name, command: command ?? '(image default)', exitCode: tr.exitCode, byKind: counter.byKind, events,
      instructions: m.run.instructions, traceBytes: m.streams.trace.bytes, schedBytes: m.streams.sched.bytes, overflows: m.run.overflows,
      tracedHost, regen, reemu, reemuEvents, fig,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const M = (n: number): string => `${(n / 1e6).toFixed(1)} M`;
const s2 = (x: number): string => x.toFixed(2);
const rate = (n: number, s: number): string => (n / s / 1e6).toFixed(1);

function table(head: string[], rows: string[][]): void {
  out(`| ${head.join(' | ')} |\n`);
  out(`|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|\n`);
  for (const r of rows) out(`| ${r.join(' | ')} |\n`);
}

function printRegen(rows: Row[], reps: number): void {
  out(`\n## Regeneration against re-emulation with ground truth (host wall clock; warm: median of ${reps} passes after a cold one)\n\n`);
  table(
    ['workload', 'target', 'events', 'regen s', 'regen M ev/s', 're-emu s', 're-emu M ev/s', 'regen / re-emu', 'cold: regen s', 'cold: re-emu s', 'cold ratio'],
    rows.map((r) => [
      r.name, r.target, M(r.events), s2(r.regen.warm), rate(r.events, r.regen.warm), s2(r.reemu.warm), rate(r.events, r.reemu.warm),
      (r.reemu.warm / r.regen.warm).toFixed(2), s2(r.regen.cold), s2(r.reemu.cold), (r.reemu.cold / r.regen.cold).toFixed(2),
    ]),
  );
  out('\nM ev/s: events of the traced processes per second (re-emulation runs every process to get them).\n');
  out('regen / re-emu: how many times faster regeneration is (> 1: faster).\n\n');
  for (const r of rows) {
    out(`${r.name}-${r.target} ${r.command}: exit ${r.exitCode}; ${M(r.instructions)} instructions traced run; ` +
      `${M(r.byKind[0]!)} fetch / ${M(r.byKind[1]!)} load / ${M(r.byKind[2]!)} store regenerated; ` +
      `trace ${r.traceBytes} B, sched ${r.schedBytes} B, ${r.overflows} overflows; ` +
      `re-emulation ground truth ${M(r.reemuEvents)} events (all processes); traced run with truth ${s2(r.tracedHost)} s once\n`);
  }
  const slow = rows.filter((r) => r.events / r.regen.warm < 20e6).map((r) => `${r.name}-${r.target}`);
  const behind = rows.filter((r) => r.regen.warm >= r.reemu.warm).map((r) => `${r.name}-${r.target}`);
  out(`\ntarget >= 20 M events/s (warm): ${slow.length === 0 ? 'met by every workload' : `not met by ${slow.join(', ')}`}\n`);
  out(`regeneration faster than re-emulation (warm): ${behind.length === 0 ? 'every workload' : `not ${behind.join(', ')}`}\n`);
}

function printFigure11(rows: Row[]): void {
  const figs = rows.filter((r) => r.fig);
  if (figs.length === 0) return;
  const vs = (c: number, hz: number): string => `${(c / hz).toFixed(2)}`;
  out('\n## mazieres-smith-1994 Figure 11, virtual time (the whole run, boot to halt; seconds of the virtual clock)\n\n');
  table(
    // The paper's "memory references" (275 M for li) are loads and stores: its text gives about
    // two-thirds of a byte of trace per memory reference. Both denominators are shown.
    ['program', 'target', 'untraced s', 'dummy s', 'traced s', 'dummy / untraced', 'traced / untraced', 'refs (I+D)', 'data refs', 'trace bytes', 'bytes / ref', 'bytes / data ref'],
    figs.map((r) => {
      const f = r.fig!;
      const data = r.byKind[1]! + r.byKind[2]!;
      return [
        r.name, r.target, vs(f.untraced, f.cpuHz), vs(f.dummy, f.cpuHz), vs(f.traced, f.cpuHz), (f.dummy / f.untraced).toFixed(2),
        (f.traced / f.untraced).toFixed(2), M(r.events), M(data), `${(r.traceBytes / 1e6).toFixed(2)} M`, (r.traceBytes / r.events).toFixed(3),
        (r.traceBytes / data).toFixed(3),
      ];
    }),
  );
  out('\nThe traced program\'s own process (fork to exit):\n\n');
  table(
    ['program', 'target', 'untraced s', 'dummy s', 'traced s', 'dummy / untraced', 'traced / untraced'],
    figs.map((r) => {
      const p = r.fig!.prog;
      const hz = r.fig!.cpuHz;
      return [r.name, r.target, vs(p.untraced, hz), vs(p.dummy, hz), vs(p.traced, hz), (p.dummy / p.untraced).toFixed(2), (p.traced / p.untraced).toFixed(2)];
    }),
  );
  out(`\ncommands: ${figs.map((r) => `${r.name}-${r.target} ${r.command}`).join('; ')}; cpuHz ${[...new Set(figs.map((r) => r.fig!.cpuHz))].join(', ')}\n`);
}

async function main(): Promise<void> {
  const cmd = benchCommand('trace.js', 'Tracing the OS workloads: untraced, dummy-traced and traced runs, trace size and rates, regeneration checked')
    .option('--target <t>', `${TARGETS.join(', ')} or all`, 'all')
    .option('--reps <n>', 'runs per measurement (medians are printed)', positiveInt, 3)
    .option('--only <names>', `workloads, comma-separated (${WORKLOADS.join(', ')}; default all)`, list)
    .parse(process.argv);
  const o = cmd.opts<{ target: string; reps: number; only?: string[] }>();
  const reps = o.reps;
  if (o.target !== 'all') checkNames(cmd, 'target', [o.target], TARGETS);
  const targets: string[] = o.target === 'all' ? [...TARGETS] : [o.target];
  const only = o.only ?? WORKLOADS;
  checkNames(cmd, 'workload', only, WORKLOADS);
  const rows: Row[] = [];
  const failures: string[] = [];
  const t0 = performance.now();
  for (const target of targets) {
    for (const name of only) {
      const spec = imageSpecs().find((s) => s.name === `${name}-${target}`);
      if (!spec) {
        failures.push(`${name}-${target}: no such image`);
        continue;
      }
      try {
        rows.push(await measure(target, name, await assembleImage(spec), reps));
      } catch (e) {
        const err = e as Error;
        progress(`[${name}-${target}] FAILED: ${err.stack ?? err.message}`);
        failures.push(`${name}-${target}: ${err.name}: ${err.message}`);
      }
    }
  }
  out(`emu bench/trace.ts, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, reps ${reps}, targets ${targets.join(', ')}\n`);
  printRegen(rows, reps);
  printFigure11(rows);
  if (failures.length) out(`\nFAILED (left out of the tables):\n${failures.map((f) => `  ${f}\n`).join('')}`);
  out(`\nbench wall clock: ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}

await main();
