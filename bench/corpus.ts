/**
 * `npm run corpus` (node dist/bench/corpus.js): GCC's execution torture tests built for mipsel,
 * mips and sparc with both C libraries at -O0 and -O2 (-O1, -O3, -Os on request), run under
 * qemu-user (Linux flavour) and on emu (BSD flavour); those that pass on emu are instrumented,
 * run traced and regenerated against ground truth; the table of docs/corpus.md (markdown and JSON). Per-test records with
 * per-stage results (bench/corpus_stages.ts) make a rerun cheap and an interrupted run resumable.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Option } from 'commander';
import { variant } from '../images/build.js';
import { CORPUS_DIR, configId, extractTorture, plan, tortureTests, type CorpusConfig, type TortureTest } from '../images/corpus.js';
import { LIBCS, linkRuntime, type Libc } from '../images/runtime.js';
import { TARGET_NAMES, type TargetName } from '../format/target.js';
import { benchCommand, checkNames, list, positiveInt } from './cli.js';
import { summarize, toMarkdown, type CorpusSummary } from './corpus_report.js';
import { STAGES, buildStillThere, type CorpusRecord, type RunOptions, type StageContext, type StageResult } from './corpus_stages.js';
import { EmuPool } from './corpus_worker.js';

export const OPT_LEVELS: readonly string[] = ['O0', 'O1', 'O2', 'O3', 'Os'];

export interface CorpusRequest {
  targets: readonly TargetName[];
  libcs: readonly Libc[];
  /** Optimisation levels without the dash. */
  opts: readonly string[];
  /** Keep every Nth test (in name order, from the first): the CI sample's stable rule. */
  sample?: number;
  /** Only these tests (by name). */
  only?: readonly string[];
  /** Stage names to run, in STAGES order (default all). Results of other stages are kept. */
  stages?: readonly string[];
  /** Where the per-test records go (default images/build/corpus/results). */
  results?: string;
  options: RunOptions;
  /** emu worker processes (default: one per core). */
  workers?: number;
  /** Records processed at once (their stages queue for the cores). */
  concurrency?: number;
  log?: (msg: string) => void;
  /** Called after each record, with the records done and the total. */
  progress?: (done: number, total: number, rec: CorpusRecord) => void;
}

export const DEFAULT_OPTIONS: RunOptions = { maxInstructions: 4_000_000_000, qemuTimeoutMs: 60_000 };

/** Tests by the sample rule: name order, every Nth from the first. */
export function sampleTests(tests: readonly TortureTest[], every: number): TortureTest[] {
  return tests.filter((_, i) => i % every === 0);
}

function recordPath(dir: string, c: CorpusConfig, name: string): string {
  return join(dir, configId(c), `${name}.json`);
}

function loadRecord(file: string): CorpusRecord | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CorpusRecord;
  } catch {
    return undefined;
  }
}

function saveRecord(file: string, rec: CorpusRecord): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(rec, null, 1)}\n`);
  renameSync(tmp, file);
}

/** Runs the corpus and returns every record (finished ones reused). */
export async function runCorpus(req: CorpusRequest): Promise<CorpusRecord[]> {
  const log = req.log ?? (() => undefined);
  const dir = await extractTorture(log);
  let tests = tortureTests(dir);
  if (req.only) {
    const known = new Set(tests.map((t) => t.name));
    for (const n of req.only) if (!known.has(n)) throw new Error(`no torture test '${n}' in ${dir}`);
    tests = tests.filter((t) => req.only!.includes(t.name));
  }
  if (req.sample) tests = sampleTests(tests, req.sample);
  const configs: CorpusConfig[] = [];
  for (const target of req.targets) for (const libc of req.libcs) for (const opt of req.opts) configs.push({ target, libc, opt });
  // The runtimes first, one at a time (newlib's builds are long and use every core).
  for (const target of req.targets) for (const libc of req.libcs) for (const f of ['bsd', 'linux'] as const) await linkRuntime(variant(target, f), libc, log);

  const results = req.results ?? join(CORPUS_DIR, 'results');
  for (const c of configs) mkdirSync(join(results, configId(c)), { recursive: true });
  const stages = STAGES.filter((s) => !req.stages || req.stages.includes(s.name));
  const emu = new EmuPool(req.workers ?? cpus().length, 600_000);
  const jobs = tests.flatMap((test) => configs.map((config) => ({ test, config })));
  const records: CorpusRecord[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const { test, config } = jobs[i]!;
      const file = recordPath(results, config, test.name);
      const p = plan(test, config);
      const old = loadRecord(file);
      const rec: CorpusRecord = { program: test.name, config, plan: p, stages: old?.stages ?? {} };
      const ctx: StageContext = { test, emu, options: req.options, log };
      for (const s of stages) {
        if (s.blocked(rec) !== undefined) {
          delete rec.stages[s.name];
          continue;
        }
        let key: string;
        try {
          key = await s.key(rec, ctx);
        } catch (e) {
          rec.stages[s.name] = { key: '', status: 'error', reason: `harness: ${(e as Error).message.split('\n')[0]}` };
          continue;
        }
        const prev = rec.stages[s.name];
        if (prev && prev.key === key && prev.status !== 'error' && (s.name !== 'build' || buildStillThere(prev))) continue;
        let r: StageResult;
        try {
          r = { key, ...(await s.run(rec, ctx)) };
        } catch (e) {
          r = { key, status: 'error', reason: `harness: ${(e as Error).message.split('\n')[0]}` };
        }
        rec.stages[s.name] = r;
        saveRecord(file, rec);
      }
      saveRecord(file, rec);
      records[i] = rec;
      req.progress?.(++done, jobs.length, rec);
    }
  };
  try {
    await Promise.all(Array.from({ length: req.concurrency ?? 4 * cpus().length }, worker));
  } finally {
    emu.close();
  }
  return records;
}

/** Writes report.md and report.json into a folder; returns the summary. */
export function writeReport(records: readonly CorpusRecord[], out: string): CorpusSummary {
  const s = summarize(records);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'report.json'), `${JSON.stringify(s, null, 1)}\n`);
  writeFileSync(join(out, 'report.md'), toMarkdown(s));
  return s;
}

interface CliOpts {
  targets: string[];
  libc: string[];
  opt: string[];
  sample?: number;
  only?: string[];
  stages?: string[];
  out: string;
  results?: string;
  maxInstructions: number;
  qemuTimeout: number;
  workers?: number;
}

async function main(): Promise<void> {
  const cmd = benchCommand('corpus.js', "GCC's execution torture tests under qemu-user and emu, both libcs; writes report.md and report.json")
    .option('--targets <list>', 'targets, comma-separated', list, [...TARGET_NAMES])
    .option('--libc <list>', 'C libraries, comma-separated', list, [...LIBCS])
    .option('--opt <list>', 'optimisation levels, comma-separated', list, ['O0', 'O2'])
    .option('--sample <n>', 'every nth test in name order (the CI sample uses 8)', positiveInt)
    .option('--only <list>', 'only these tests, comma-separated', list)
    .option('--stages <list>', `stages to run (default all: ${STAGES.map((s) => s.name).join(',')})`, list)
    .option('--out <dir>', 'folder for report.md and report.json', join(CORPUS_DIR))
    .option('--results <dir>', 'folder of the per-test records (default images/build/corpus/results)')
    .option('--max-instructions <n>', "emu's instruction limit per test", positiveInt, DEFAULT_OPTIONS.maxInstructions)
    .option('--qemu-timeout <s>', "qemu-user's wall-clock limit per test, seconds", positiveInt, DEFAULT_OPTIONS.qemuTimeoutMs / 1000)
    .addOption(new Option('--workers <n>', 'emu worker processes (default: one per core)').argParser(positiveInt));
  cmd.parse();
  const o = cmd.opts<CliOpts>();
  checkNames(cmd, 'target', o.targets, TARGET_NAMES);
  checkNames(cmd, 'libc', o.libc, LIBCS);
  checkNames(cmd, 'optimisation level', o.opt, OPT_LEVELS);
  if (o.stages) checkNames(cmd, 'stage', o.stages, STAGES.map((s) => s.name));
  const t0 = performance.now();
  const counts = { built: 0, qemu: 0, emu: 0, emuFails: 0, traced: 0, traceFails: 0 };
  let last = 0;
  const req: CorpusRequest = {
    targets: o.targets as TargetName[], libcs: o.libc as Libc[], opts: o.opt,
    options: { maxInstructions: o.maxInstructions, qemuTimeoutMs: o.qemuTimeout * 1000 },
    log: (m) => process.stderr.write(`corpus: ${m}\n`),
    progress: (done, total, rec) => {
      if (rec.stages['build']?.status === 'ok') counts.built++;
      if (rec.stages['qemu']?.status === 'pass') counts.qemu++;
      if (rec.stages['emu']?.status === 'pass') counts.emu++;
      if (rec.stages['qemu']?.status === 'pass' && rec.stages['emu'] && rec.stages['emu'].status !== 'pass') {
        counts.emuFails++;
        process.stderr.write(`corpus: ${rec.program} ${configId(rec.config)}: qemu-user passes, emu: ${rec.stages['emu'].reason}\n`);
      }
      const tr = rec.stages['trace'];
      if (tr?.status === 'pass') counts.traced++;
      else if (tr) {
        counts.traceFails++;
        process.stderr.write(`corpus: ${rec.program} ${configId(rec.config)}: passes on emu, tracing: ${tr.reason}\n`);
      }
      const now = performance.now();
      if (now - last > 10_000 || done === total) {
        last = now;
        process.stderr.write(`corpus: ${done}/${total} records, ${counts.built} built, ${counts.qemu} pass under qemu-user, ${counts.emu} on emu, ${counts.emuFails} only under qemu-user, ${counts.traced} traced and verified, ${counts.traceFails} tracing failures; ${((now - t0) / 1000).toFixed(0)} s\n`);
      }
    },
  };
  if (o.sample) req.sample = o.sample;
  if (o.only) req.only = o.only;
  if (o.stages) req.stages = o.stages;
  if (o.results) req.results = o.results;
  if (o.workers) req.workers = o.workers;
  const records = await runCorpus(req);
  const s = writeReport(records, o.out);
  process.stdout.write(toMarkdown({ ...s, bothFail: [], notBuilt: [] }).split('\n### both fail')[0]!.trimEnd() + '\n');
  process.stdout.write(`report: ${join(o.out, 'report.md')}, ${join(o.out, 'report.json')}; ${((performance.now() - t0) / 1000).toFixed(0)} s wall\n`);
}

if (process.argv[1]?.endsWith('corpus.js')) {
  main().catch((e: unknown) => {
    process.stderr.write(`corpus: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
