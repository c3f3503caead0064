/**
 * Replay benchmark (a script, not a test): references per second of
 *   - decoding a ground-truth file alone (the references only counted),
 *   - the cache simulator alone (references already decoded into typed arrays, fed in a loop),
 *   - decoding + simulating (what `emu replay TRUTH` does),
 *   - regeneration of a trace bundle alone, and regeneration + simulating (`emu replay BUNDLE`),
 *     when a bundle is given with --bundle,
 * for a few cache geometries, side by side with their ratios to the simulator alone.
 *
 *   npm run build && node dist/bench/replay.js [--target mipsel|sparc] [--command CMD]
 *       [--truth FILE] [--bundle DIR] [--reps N]
 *
 * Without --truth the demo image's command (or --command) runs once in-process with ground truth
 * written to a temporary file (the BSD-flavour builds must exist). Times are host wall-clock
 * medians of --reps passes; reference counts are the trace's (deterministic).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { assembleImage } from '../images/pack.js';
import { imageSpecs } from '../images/specs.js';
import type { Console } from '../os/dev.js';
import { runMachine } from '../os/run.js';
import { FileSink } from '../os/truth.js';
import { parseCacheSpec } from '../regen/cachesim.js';
import { CacheReplay } from '../regen/cachesim_replay.js';
import type { ReplaySource } from '../regen/replay/consumer.js';
import { openSource } from '../regen/replay/open.js';
import { RefCounter } from '../regen/replay/replay.js';
import { TruthSource } from '../regen/replay/truth_source.js';

const GEOMETRIES = ['64K:32:4', '16K:32:2,split', '8K:16:1', '4K:32:full'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median seconds of `reps` runs of f. */
function time(reps: number, f: () => void): number {
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    f();
    t.push((performance.now() - t0) / 1000);
  }
  return median(t);
}

const quiet: Console = { write: () => {}, writeErr: () => {}, read: () => new Uint8Array(0) };

async function main(): Promise<void> {
  const reps = Number(arg('--reps') ?? 3);
  const target = arg('--target') ?? 'mipsel';
  let truthFile = arg('--truth');
  const bundleDir = arg('--bundle');
  let tmp: string | undefined;
  if (!truthFile) {
    const spec = imageSpecs().find((s) => s.name === `demo-${target}`);
    if (!spec) throw new Error(`no demo image for ${target}`);
    tmp = mkdtempSync(join(tmpdir(), 'emu-bench-replay-'));
    truthFile = join(tmp, 'truth.bin');
    const command = arg('--command') ?? "textgen 100000 | egrep 'zebra|quux' | wc -l & cs 500; wait";
    const t0 = performance.now();
    const r = runMachine({
      image: { img: await assembleImage(spec), file: spec.name }, command, console: quiet,
      log: pino({ level: 'silent' }), truth: { sink: new FileSink(truthFile), format: 'bin' },
    });
    process.stdout.write(`workload: demo-${target} '${command}': ${r.stats.machine.instructions} instructions, ` +
      `${r.stats.machine.contextSwitches} switches, emulated with --truth in ${((performance.now() - t0) / 1000).toFixed(2)} s\n`);
  }
  try {
    const src = new TruthSource(truthFile);
    const counter = new RefCounter();
    const n = src.run(counter);
    process.stdout.write(`trace: ${truthFile}: ${n} references (${counter.byKind.join(' / ')} fetch / load / store), medians of ${reps}\n\n`);
    // The stream decoded once into typed arrays: the simulator alone reads them in a loop.
    const P = new Int32Array(n);
    const K = new Uint8Array(n);
    const A = new Uint32Array(n);
    const S = new Uint16Array(n);
    let i = 0;
    src.run({ ref(p, k, a, s) { P[i] = p; K[i] = k; A[i] = a; S[i] = s; i++; } });
    const rate = (s: number): string => `${(n / s / 1e6).toFixed(1).padStart(6)} M/s`;
    const decode = time(reps, () => src.run(new RefCounter()));
    process.stdout.write(`decode ground truth only              ${rate(decode)}\n`);
    let bundle: ReplaySource | undefined;
    let regenAlone = NaN;
    if (bundleDir) {
      bundle = openSource(bundleDir);
      let m = 0;
      regenAlone = time(reps, () => { m = bundle!.run(new RefCounter()); });
      process.stdout.write(`regenerate bundle only                ${(m / regenAlone / 1e6).toFixed(1).padStart(6)} M/s (${m} references)\n`);
    }
    process.stdout.write('\ngeometry           simulator alone   truth+sim (ratio)    regen+sim (ratio)\n');
    for (const g of GEOMETRIES) {
      const spec = parseCacheSpec(g);
      const alone = time(reps, () => {
        const c = new CacheReplay(spec);
        for (let j = 0; j < n; j++) c.ref(P[j]!, K[j]!, A[j]!, S[j]!);
      });
      const withTruth = time(reps, () => src.run(new CacheReplay(spec)));
      let regenCol = '';
      if (bundle) {
        let m = 0;
        const withRegen = time(reps, () => { m = bundle!.run(new CacheReplay(spec)); });
        // Ratio of rates: regeneration + simulation against the simulator alone.
        regenCol = `${(m / withRegen / 1e6).toFixed(1).padStart(6)} M/s (${(m / withRegen / (n / alone)).toFixed(2)})`;
      }
      process.stdout.write(`${g.padEnd(18)} ${rate(alone)}        ${rate(withTruth)} (${(alone / withTruth).toFixed(2)})   ${regenCol}\n`);
    }
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
