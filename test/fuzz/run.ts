/**
 * `npm run fuzz [-- --time S] [--target a,b] [--seed N] [--dir D] [--bound MS]`: coverage-guided
 * fuzzing of every reader of untrusted input (test/fuzz/targets.ts), one target at a time, each
 * for S seconds (default 60) in a worker thread (worker.ts). The main thread is the watchdog: an
 * input that takes longer than the bound (default 5000 ms) is a hang, a worker that exceeds its
 * heap is out of memory; both are findings, and the target goes on in a new worker.
 *
 * Findings are written to D/<target>/findings/ (the input, minimised, and a .txt with the error);
 * the corpus grows in D/<target>/corpus/ (D defaults to images/build/fuzz, git-ignored).
 * `--repro FILE --target T` runs one input and prints what the target did. Exit status 1 when a
 * run found anything.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { check, type Finding } from './engine.js';
import { prepareSeeds, ROOT, TARGETS } from './targets.js';
import type { WorkerData } from './worker.js';

interface Args { time: number; targets: string[]; seed: number; dir: string; bound: number; repro?: string; list: boolean }

function usage(): never {
  process.stdout.write(`usage: npm run fuzz -- [--time SECONDS] [--target NAME,...] [--seed N] [--dir DIR] [--bound MS]
       npm run fuzz -- --repro FILE --target NAME
       npm run fuzz -- --list
Fuzzes each target for SECONDS (default 60), one after the other; exit status 1 when anything is found.
Targets: ${TARGETS.map((t) => t.name).join(', ')}
`);
  process.exit(0);
}

function parseArgs(argv: string[]): Args {
  const a: Args = { time: 60, targets: TARGETS.map((t) => t.name), seed: Date.now() % 2 ** 31, dir: join(ROOT, 'images/build/fuzz'), bound: 5000, list: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = (): string => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`fuzz: ${k} needs a value`);
      return x;
    };
    const num = (): number => {
      const s = v();
      const n = Number(s);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`fuzz: ${k} needs a positive number, not '${s}'`);
      return n;
    };
    if (k === '--time') a.time = num();
    else if (k === '--target') a.targets = v().split(',');
    else if (k === '--seed') a.seed = num();
    else if (k === '--dir') a.dir = v();
    else if (k === '--bound') a.bound = num();
    else if (k === '--repro') a.repro = v();
    else if (k === '--list') a.list = true;
    else if (k === '--help' || k === '-h') usage();
    else throw new Error(`fuzz: unknown option ${k} (see --help)`);
  }
  for (const t of a.targets) if (!TARGETS.some((x) => x.name === t)) throw new Error(`fuzz: no target '${t}' (targets: ${TARGETS.map((x) => x.name).join(', ')})`);
  return a;
}

interface Result { target: string; execs: number; seconds: number; corpus: number; features: number; findings: Finding[]; restarts: number }

function save(dir: string, f: Finding): string {
  mkdirSync(dir, { recursive: true });
  const h = createHash('sha1').update(f.input).digest('hex').slice(0, 16);
  const base = join(dir, `${f.kind}-${h}`);
  writeFileSync(base, f.input);
  writeFileSync(`${base}.txt`, `${f.summary}\n${f.stack}\n`);
  return base;
}

/** Fuzzes one target for `seconds`, restarting its worker after a hang or an out-of-memory. */
async function fuzzTarget(name: string, a: Args): Promise<Result> {
  const res: Result = { target: name, execs: 0, seconds: 0, corpus: 0, features: 0, findings: [], restarts: 0 };
  const known: string[] = [];
  const start = Date.now();
  const t = TARGETS.find((x) => x.name === name)!;
  while ((Date.now() - start) / 1000 < a.time - 0.5) {
    const ctrl = new SharedArrayBuffer(8);
    const input = new SharedArrayBuffer(t.maxLen);
    const c = new Int32Array(ctrl);
    const data: WorkerData = {
      target: name, seconds: a.time - (Date.now() - start) / 1000, seed: a.seed + res.restarts, corpusDir: join(a.dir, name, 'corpus'), known, ctrl, input,
    };
    const w = new Worker(new URL('./worker.js', import.meta.url), { workerData: data, resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    const lastInput = (): Uint8Array => new Uint8Array(input).slice(0, Atomics.load(c, 1));
    const report = (f: Finding): void => {
      res.findings.push(f);
      process.stdout.write(`fuzz ${name}: ${f.kind}: ${f.summary} -> ${save(join(a.dir, name, 'findings'), f)}\n`);
    };
    await new Promise<void>((resolve) => {
      let execs = 0;
      let since = Date.now();
      const timer = setInterval(() => {
        const n = Atomics.load(c, 0);
        if (n !== execs) {
          execs = n;
          since = Date.now();
        } else if (Date.now() - since > a.bound) {
          clearInterval(timer);
          const f: Finding = { kind: 'slow', summary: `no answer within ${a.bound} ms`, stack: '', input: lastInput() };
          known.push(`hang ${f.input.length}`);
          report(f);
          void w.terminate();
        }
      }, 100);
      w.on('message', (m: { type: string; sig?: string; finding?: Finding; corpus?: number; features?: number; text?: string }) => {
        if (m.type === 'note') {
          process.stderr.write(`fuzz: ${m.text}\n`);
        } else if (m.type === 'finding') {
          known.push(m.sig!);
          report(m.finding!);
        } else if (m.type === 'stats') {
          res.corpus = m.corpus!;
          res.features = m.features!;
        }
      });
      w.on('error', (e) => {
        report({ kind: 'memory', summary: `worker died: ${e.message}`, stack: e.stack ?? '', input: lastInput() });
      });
      w.on('exit', () => {
        clearInterval(timer);
        res.execs += Atomics.load(c, 0);
        resolve();
      });
    });
    res.restarts++;
  }
  res.seconds = (Date.now() - start) / 1000;
  return res;
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  if (a.list) {
    for (const t of TARGETS) process.stdout.write(`${t.name.padEnd(16)} ${t.about}\n`);
    return;
  }
  prepareSeeds((m) => process.stderr.write(`fuzz: ${m}\n`));
  if (a.repro) {
    const t = TARGETS.find((x) => x.name === a.targets[0])!;
    const f = check(t, new Uint8Array(readFileSync(a.repro)));
    process.stdout.write(f ? `${f.kind}: ${f.summary}\n${f.stack}\n` : `${t.name}: the contract holds for ${a.repro}\n`);
    process.exit(f ? 1 : 0);
  }
  process.stderr.write(`fuzz: ${a.targets.length} targets, ${a.time} s each, seed ${a.seed}, per-input bound ${a.bound} ms\n`);
  const results: Result[] = [];
  for (const name of a.targets) {
    const r = await fuzzTarget(name, a);
    results.push(r);
    process.stdout.write(`fuzz ${name}: ${r.execs} executions in ${r.seconds.toFixed(0)} s (${(r.execs / r.seconds).toFixed(0)}/s), corpus ${r.corpus}, ${r.features} coverage features, ${r.findings.length} findings\n`);
  }
  const total = results.reduce((s, r) => s + r.findings.length, 0);
  process.stdout.write(`\n| target | executions | exec/s | corpus | features | findings |\n|---|---:|---:|---:|---:|---:|\n`);
  for (const r of results) process.stdout.write(`| ${r.target} | ${r.execs} | ${(r.execs / r.seconds).toFixed(0)} | ${r.corpus} | ${r.features} | ${r.findings.length} |\n`);
  process.stdout.write(`fuzz: ${results.reduce((s, r) => s + r.execs, 0)} executions, ${total} findings\n`);
  process.exit(total > 0 ? 1 : 0);
}

main().catch((e: Error) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(2);
});
