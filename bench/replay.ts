/**
 * Replay benchmark (a script, not a test): references per second of
 *   - reading the ground truth alone (decoded and, for a bundle, mapped back to the traced
 *     images; the references only counted) and regenerating the bundle alone,
 *   - the cache simulator alone (the same references already decoded into typed arrays, fed in
 *     a loop),
 *   - ground truth + simulator and regeneration + simulator (what `emu replay BUNDLE --truth`
 *     and `emu replay BUNDLE` do),
 * for a few cache geometries, side by side with their ratios to the simulator alone. For a
 * bundle, both sources deliver the same references (the test suite checks it), so the rates
 * compare like with like.
 *
 *   npm run build && node dist/bench/replay.js [--bundle DIR | --truth FILE | --target mipsel|sparc [--command CMD]] [--reps N]
 *
 * With neither --bundle nor --truth the demo image (of --target, default mipsel) runs once
 * in-process with --trace --truth into a temporary bundle (the BSD-flavour builds must exist; the
 * default command is the demo's own /etc/rc). Times are host wall-clock medians of --reps
 * passes; reference counts are the trace's (deterministic).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { assembleImage } from '../images/pack.js';
import { imageSpecs } from '../images/specs.js';
import type { Console } from '../os/dev.js';
import { runTraced } from '../bin/trace_run.js';
import { parseCacheSpec } from '../regen/cachesim.js';
import { CacheReplay } from '../regen/cachesim_replay.js';
import { BundleSource, BundleTruthSource } from '../regen/replay/bundle_source.js';
import type { ReplaySource } from '../regen/replay/consumer.js';
import { RefCounter } from '../regen/replay/replay.js';
import { TruthSource } from '../regen/replay/truth_source.js';
import { benchCommand, positiveInt } from './cli.js';

const GEOMETRIES = ['64K:32:4', '16K:32:2,split', '8K:16:1', '4K:32:full'];

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
const out = (s: string): void => void process.stdout.write(s);

async function main(): Promise<void> {
  const cmd = benchCommand('replay.js', 'Replay speed: ground truth and regeneration alone, the cache simulator alone, and the two together, for a few cache geometries')
    .option('--bundle <dir>', 'a trace bundle to replay (default: trace the demo image into a temporary one)')
    .option('--truth <file>', 'a ground-truth file to replay instead')
    .option('--target <t>', 'target of the demo image traced when neither --bundle nor --truth is given', 'mipsel')
    .option('--command <cmd>', "command line the demo image runs instead of its /etc/rc")
    .option('--reps <n>', 'passes per measurement (medians are printed)', positiveInt, 3)
    .parse(process.argv);
  const o = cmd.opts<{ bundle?: string; truth?: string; target: string; command?: string; reps: number }>();
  const reps = o.reps;
  let bundleDir = o.bundle;
  const truthFile = o.truth;
  let tmp: string | undefined;
  if (!bundleDir && !truthFile) {
    const target = o.target;
    const spec = imageSpecs().find((s) => s.name === `demo-${target}`);
    if (!spec) throw new Error(`no demo image for ${target}`);
    tmp = mkdtempSync(join(tmpdir(), 'emu-bench-replay-'));
    bundleDir = join(tmp, 'demo.trace');
    const command = o.command;
    const t0 = performance.now();
    const r = await runTraced({
      image: { img: await assembleImage(spec), file: spec.name }, out: bundleDir, truth: true, console: quiet,
      log: pino({ level: 'silent' }), ...(command ? { command } : {}),
    });
    out(`workload: demo-${target} ${command ? `'${command}'` : '(its /etc/rc)'}: ${r.stats.machine.instructions} instructions, ` +
      `${r.stats.machine.contextSwitches} switches, traced with ground truth in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  try {
    let truth: ReplaySource;
    let regen: BundleSource | undefined;
    if (bundleDir) {
      regen = new BundleSource(bundleDir);
      truth = new BundleTruthSource(regen.bundle);
    } else {
      truth = new TruthSource(truthFile!);
    }
    const counter = new RefCounter();
    const n = truth.run(counter);
    out(`references: ${n} (${counter.byKind.join(' / ')} fetch / load / store) of ${truth.file}; medians of ${reps}\n\n`);
    // The stream decoded once into typed arrays: the simulator alone reads them in a loop.
    const P = new Int32Array(n);
    const K = new Uint8Array(n);
    const A = new Uint32Array(n);
    const S = new Uint16Array(n);
    let i = 0;
    truth.run({ ref(p, k, a, s) { P[i] = p; K[i] = k; A[i] = a; S[i] = s; i++; } });
    const rate = (s: number): string => `${(n / s / 1e6).toFixed(1).padStart(6)} M/s`;
    out(`ground truth only (decode${regen ? ', map back' : ''})   ${rate(time(reps, () => truth.run(new RefCounter())))}\n`);
    if (regen) {
      let m = 0;
      const s = time(reps, () => { m = regen.run(new RefCounter()); });
      if (m !== n) throw new Error(`regeneration delivered ${m} references, the ground truth ${n}`);
      out(`regeneration only                    ${rate(s)}\n`);
    }
    out(`\ngeometry          simulator alone   truth+sim (ratio)${regen ? '    regen+sim (ratio)' : ''}\n`);
    for (const g of GEOMETRIES) {
      const spec = parseCacheSpec(g);
      const alone = time(reps, () => {
        const c = new CacheReplay(spec);
        for (let j = 0; j < n; j++) c.ref(P[j]!, K[j]!, A[j]!, S[j]!);
      });
      const withTruth = time(reps, () => truth.run(new CacheReplay(spec)));
      let col = '';
      if (regen) {
        const withRegen = time(reps, () => regen.run(new CacheReplay(spec)));
        col = `   ${rate(withRegen)} (${(alone / withRegen).toFixed(2)})`;
      }
      out(`${g.padEnd(17)} ${rate(alone)}       ${rate(withTruth)} (${(alone / withTruth).toFixed(2)})${col}\n`);
    }
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
