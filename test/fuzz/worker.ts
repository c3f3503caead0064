/**
 * One fuzzing session of one target, in a worker thread (engine.ts has the loop's parts, run.ts
 * the watchdog). Before each input it publishes the input's bytes in shared memory and counts
 * executions there, so the main thread can name the input that hung or ran out of memory.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { check, Coverage, minimize, mutateBytes, mutateJson, Rng, signature, type Target } from './engine.js';
import { TARGETS } from './targets.js';

export interface WorkerData {
  target: string;
  seconds: number;
  seed: number;
  /** The corpus of this target: kept across runs (new inputs are added to it). */
  corpusDir: string;
  /** Signatures already reported by an earlier worker of this run. */
  known: string[];
  ctrl: SharedArrayBuffer;
  input: SharedArrayBuffer;
}

const wd = workerData as WorkerData;
const t: Target = TARGETS.find((x) => x.name === wd.target)!;
const ctrl = new Int32Array(wd.ctrl); // [0] executions, [1] length of the input in `inbuf`
const inbuf = new Uint8Array(wd.input);
const rng = new Rng(wd.seed);
const dict = (t.dict ?? []).map((d) => (typeof d === 'string' ? new Uint8Array(Buffer.from(d, 'latin1')) : d));
const known = new Set(wd.known);

function exec(input: Uint8Array): ReturnType<typeof check> {
  const n = Math.min(input.length, inbuf.length);
  inbuf.set(input.subarray(0, n));
  Atomics.store(ctrl, 1, n);
  const f = check(t, input);
  Atomics.add(ctrl, 0, 1);
  if (f) {
    const sig = signature(f);
    if (!known.has(sig)) {
      known.add(sig);
      const small = minimize(t, input, sig, () => Atomics.add(ctrl, 0, 1));
      parentPort!.postMessage({ type: 'finding', sig, finding: { ...f, input: small } });
    }
  }
  return f;
}

const cov = new Coverage(t.cover);
const corpus: Uint8Array[] = [];
mkdirSync(wd.corpusDir, { recursive: true });
const saved = readdirSync(wd.corpusDir).sort().map((f) => new Uint8Array(readFileSync(join(wd.corpusDir, f))));
cov.take(false);
for (const s of [...t.seeds(), ...saved]) {
  const x = s.length > t.maxLen ? s.slice(0, t.maxLen) : s;
  exec(x);
  if (cov.take(true) > 0 || corpus.length === 0) corpus.push(x);
}
if (corpus.length === 0) {
  // No seed file exists yet (the guest images are not built): mutation starts from nothing.
  parentPort!.postMessage({ type: 'note', text: `${t.name}: no seed inputs; starting from an empty input (build the images first for a useful run)` });
  corpus.push(new Uint8Array(0));
}
const add = (x: Uint8Array): void => {
  corpus.push(x);
  writeFileSync(join(wd.corpusDir, createHash('sha1').update(x).digest('hex')), x);
};

const deadline = Date.now() + wd.seconds * 1000;
let lastStats = Date.now();
const BATCH = 64;
while (Date.now() < deadline) {
  const batch: Uint8Array[] = [];
  for (let i = 0; i < BATCH; i++) {
    const parent = rng.pick(corpus);
    const other = rng.pick(corpus);
    const x = (t.json && rng.chance(0.8) ? mutateJson(rng, parent, other, t.maxLen) : null) ?? mutateBytes(rng, parent, other, dict, t.maxLen);
    exec(x);
    batch.push(x);
  }
  // Most batches reach nothing new; only those that do are run again one by one.
  if (cov.take(false) > 0) {
    for (const x of batch) {
      exec(x);
      if (cov.take(true) > 0) add(x);
    }
  }
  if (Date.now() - lastStats > 2000) {
    lastStats = Date.now();
    parentPort!.postMessage({ type: 'stats', corpus: corpus.length, features: cov.features });
  }
}
parentPort!.postMessage({ type: 'stats', corpus: corpus.length, features: cov.features });
