/**
 * `emu replay INPUT [--cache SIZE:LINE:ASSOC[,split]] [--per-process] [--timeline FILE.json]
 * [--sweep [SIZES]] [--json [FILE]]`: a multi-process reference stream — regenerated from a trace
 * bundle, or read from a ground-truth file — into the built-in cache simulator shared by all
 * processes, and the schedule as a Chrome/Perfetto timeline (docs/replay.md).
 */
import { statSync } from 'node:fs';
import { Command } from 'commander';
import { describe } from './commands.js';
import cliProgress from 'cli-progress';
import { MACHINE_DEFAULTS } from '../format/image.js';
import { parseCacheSpec } from '../regen/cachesim.js';
import { openSource, readRunStats, type RunStats } from '../regen/replay/open.js';
import { cacheJson, formatCacheTable } from '../regen/replay/report.js';
import { replaySliced, type ReplayOptions } from '../regen/replay/replay.js';
import { interruptible } from './interrupt.js';
import { formatSweep, parseAssocs, parseSizes, sweepJson } from '../regen/replay/sweep.js';
import { BundleSource, BundleTruthSource } from '../regen/replay/bundle_source.js';
import { OutputFile } from './outputs.js';
import { NO_SCHEMA_CACHE_HELP, schemaCacheDir } from './schema_cache_dir.js';

interface Opts {
  cache: string;
  pidTags: boolean;
  perProcess?: boolean;
  timeline?: string;
  truth?: boolean;
  sweep?: string | boolean;
  assoc: string;
  stats?: string;
  hz?: string;
  json?: string | boolean;
  progress: boolean;
  schemaCache: boolean;
}

export const DEFAULT_CACHE = '64K:32:4';
export const DEFAULT_SWEEP = '1K..256K';

export function replayCommand(): Command {
  return new Command('replay')
    .description(describe('replay'))
    .argument('<input>', 'trace bundle (emu run --trace) or ground-truth file (emu run --truth)')
    .option('--cache <geometry>', 'SIZE:LINE:ASSOC[,split]: bytes (K, M), line bytes, ways or "full"; split: separate I and D caches of that geometry', DEFAULT_CACHE)
    .option('--no-pid-tags', 'one address space for all processes (as a din trace sees them) instead of lines tagged by process')
    .option('--per-process', 'a table row per process instance')
    .option('--timeline <file>', 'write the schedule as Chrome trace-event JSON (one track per process, virtual microseconds)')
    .option('--truth', 'replay the bundle\'s ground truth instead of its regeneration (an oracle: the statistics must be identical)')
    .option('--sweep [sizes]', `miss ratios over a grid of cache sizes (LOW..HIGH powers of two, or a list) x --assoc, with --cache's line size and split (default ${DEFAULT_SWEEP})`)
    .option('--assoc <list>', 'associativities of --sweep: ways or "full", comma-separated', '1,2,4,8')
    .option('--stats <file>', 'the run\'s `emu run --stats FILE` report: clock rate and end of the run for a ground-truth file\'s timeline')
    .option('--hz <n>', 'CPU clock rate for the timeline (default: the bundle\'s, the --stats report\'s, or the machine default)')
    .option('--json [file]', 'results as JSON (to the file, or standard output) instead of tables')
    .option('--no-progress', 'no progress bar on a terminal')
    .option('--no-schema-cache', NO_SCHEMA_CACHE_HELP)
    .action(async (input: string, o: Opts) => {
      const spec = parseCacheSpec(o.cache);
      let sweepGrid: ReplayOptions['sweep'];
      if (o.sweep !== undefined && o.sweep !== false) {
        sweepGrid = { sizes: parseSizes(o.sweep === true ? DEFAULT_SWEEP : o.sweep), assocs: parseAssocs(o.assoc), line: spec.line, split: spec.split };
      }
      let hz: number | undefined;
      if (o.hz !== undefined) {
        if (!/^\d+$/.test(o.hz) || Number(o.hz) <= 0) throw new Error(`--hz: '${o.hz}' is not a positive number of cycles per second`);
        hz = Number(o.hz);
      }
      const stats: RunStats | undefined = o.stats ? readRunStats(o.stats) : undefined;
      // The output files are made (under temporary names) before the replay: a bad path fails now.
      const timelineOut = o.timeline !== undefined ? new OutputFile(o.timeline, '--timeline', [input]) : undefined;
      let jsonOut: OutputFile | undefined;
      try {
        if (typeof o.json === 'string') jsonOut = new OutputFile(o.json, '--json', [input]);
        await replayInto(input, o, spec, sweepGrid, hz, stats, timelineOut, jsonOut);
      } catch (e) {
        timelineOut?.abandon();
        jsonOut?.abandon();
        throw e;
      }
    });
}

async function replayInto(
  input: string, o: Opts, spec: ReturnType<typeof parseCacheSpec>, sweepGrid: ReplayOptions['sweep'], hz: number | undefined,
  stats: RunStats | undefined, timelineOut: OutputFile | undefined, jsonOut: OutputFile | undefined,
): Promise<void> {
  let source;
  if (o.truth === true && statSync(input, { throwIfNoEntry: false })?.isDirectory()) {
    // BundleTruthSource checks the ground truth against the manifest's CRCs before reading it.
    const b = new BundleSource(input, { schemaCache: schemaCacheDir(o) });
    source = new BundleTruthSource(b.bundle);
  } else {
    source = openSource(input, { truth: o.truth === true, schemaCache: schemaCacheDir(o) });
  }
  const opts: ReplayOptions = { pidTags: o.pidTags, timeline: o.timeline !== undefined };
  if (sweepGrid) opts.sweep = sweepGrid;
  else opts.cache = spec;
  let bar: cliProgress.SingleBar | undefined;
  if (o.progress && process.stderr.isTTY) {
    bar = new cliProgress.SingleBar({
      format: 'replay [{bar}] {percentage}% | {value}/{total} MiB', stream: process.stderr, clearOnComplete: true, hideCursor: false, linewrap: true,
    }, cliProgress.Presets.shades_classic);
    bar.start(1, 0);
    opts.progress = (done, total) => {
      bar!.setTotal(Math.max(1, Math.round(total / (1 << 20))));
      bar!.update(Math.round(done / (1 << 20)));
    };
  }
  let r;
  const intr = interruptible(() => bar?.stop());
  try {
    r = await replaySliced(source, opts, intr.between);
  } finally {
    intr.dispose();
    bar?.stop();
  }
  process.stderr.write(`${source.file}: ${r.events} references replayed in ${r.seconds.toFixed(2)} s (${(r.events / r.seconds / 1e6).toFixed(1)} M/s)\n`);
  let timelineNote: Record<string, unknown> | undefined;
  if (r.timeline && o.timeline) {
    const cpuHz = hz ?? source.cpuHz ?? stats?.cpuHz ?? MACHINE_DEFAULTS.clock.cpu_hz;
    let endCycle = r.timeline.endCycle;
    let endEstimated = false;
    if (Number.isNaN(endCycle) && stats) endCycle = stats.cycles;
    if (Number.isNaN(endCycle)) {
      // The last interval is closed one cycle per reference after its start (a guess, flagged).
      const iv = r.timeline.intervals(Infinity);
      const last = iv[iv.length - 1];
      endCycle = last ? last.start + last.events : 0;
      endEstimated = true;
      process.stderr.write(`${source.file}: the end of the run is unknown; the timeline's last interval is estimated (pass --stats FILE from emu run --stats FILE)\n`);
    }
    const doc = r.timeline.toChrome(cpuHz, { endCycle, endEstimated, source: source.file });
    timelineOut!.writeAll(`${JSON.stringify(doc)}\n`);
    timelineNote = { file: o.timeline, cpuHz, intervals: doc.otherData['intervals'], processes: doc.otherData['processes'], endCycle, endEstimated };
  }
  if (o.json !== undefined && o.json !== false) {
    const out = {
      input: source.file, source: source.kind, arch: source.arch, events: r.events,
      refs: { I: r.refs[0], L: r.refs[1], S: r.refs[2] },
      ...(r.cache ? { cache: cacheJson(r.cache) } : {}),
      ...(r.sweep ? { sweep: sweepJson(r.sweep) } : {}),
      ...(timelineNote ? { timeline: timelineNote } : {}),
    };
    const text = `${JSON.stringify(out, null, 2)}\n`;
    if (jsonOut) jsonOut.writeAll(text);
    else process.stdout.write(text);
    return;
  }
  const what = source.kind === 'truth' ? 'ground truth' : 'regenerated';
  process.stdout.write(`${source.file}: ${what}, ${source.arch}, ${r.events} references (${r.refs[0]} fetches, ${r.refs[1]} loads, ${r.refs[2]} stores)\n`);
  if (r.cache) process.stdout.write(formatCacheTable(r.cache, o.perProcess === true));
  if (r.sweep) process.stdout.write(formatSweep(r.sweep));
  if (timelineNote) process.stdout.write(`timeline: ${timelineNote['file']}: ${timelineNote['intervals']} run intervals of ${timelineNote['processes']} processes at ${timelineNote['cpuHz']} Hz\n`);
}
