/**
 * What `emu replay INPUT` reads: a ground-truth file (format/truth.ts, recognised by its magic) or a
 * trace bundle (docs/trace-bundle.md), and the optional `emu run --stats FILE` report that gives
 * a ground-truth file the clock rate and the end of the run.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { oneLine } from '../../format/errtext.js';
import { BundleSource, BundleTruthSource } from './bundle_source.js';
import type { ReplaySource } from './consumer.js';
import { isTruthFile, TruthSource } from './truth_source.js';

export interface OpenOptions {
  /** Replay the bundle's ground truth instead of regenerating it. */
  truth?: boolean;
  /** The schema cache's directory (format/schema_cache.ts; absent: none). */
  schemaCache?: string;
}

function head(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(16);
    const n = readSync(fd, b, 0, 16, 0);
    return b.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * A directory is a bundle (regenerated, or with `truth` its ground truth mapped back); a file is
 * a ground-truth file (`truth` changes nothing: it is one already).
 */
export function openSource(input: string, opts: OpenOptions = {}): ReplaySource {
  if (!existsSync(input)) throw new Error(`${input}: no such file or directory`);
  if (statSync(input).isDirectory()) {
    const b = new BundleSource(input, { schemaCache: opts.schemaCache });
    return opts.truth ? new BundleTruthSource(b.bundle) : b;
  }
  if (isTruthFile(head(input))) return new TruthSource(input);
  throw new Error(`${input}: not a ground-truth file (emu run --truth) nor a trace bundle (emu run --trace)`);
}

/** The parts of an `emu run --stats FILE` report replay uses. */
export interface RunStats {
  cpuHz: number;
  /** The cycle the run ended at. */
  cycles: number;
  arch: string;
}

export function readRunStats(file: string): RunStats {
  let j: unknown;
  try {
    j = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not a JSON statistics report (emu run --stats FILE): ${oneLine((e as Error).message)}`);
  }
  const m = (j as { machine?: Record<string, unknown> } | null)?.machine;
  if (!m || typeof m !== 'object') throw new Error(`${file}: no "machine" object (expected the JSON of emu run --stats FILE)`);
  const cpuHz = m['cpuHz'];
  const cycles = m['cycles'];
  if (typeof cpuHz !== 'number' || !(cpuHz > 0) || !Number.isFinite(cpuHz)) throw new Error(`${file}: machine.cpuHz is not a positive number`);
  if (typeof cycles !== 'number' || !(cycles >= 0) || !Number.isFinite(cycles)) throw new Error(`${file}: machine.cycles is not a non-negative number`);
  return { cpuHz, cycles, arch: String(m['arch'] ?? '?') };
}
