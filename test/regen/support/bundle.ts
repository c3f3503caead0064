/**
 * Test support for the multi-tasking trace: an image assembled from the current builds
 * (images/pack.ts), run traced with ground truth into a temporary bundle (bin/trace_run.ts), and
 * the bundle regenerated and compared with that ground truth (regen/verify_multi.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { BootImage } from '../../../format/image.js';
import { assembleImage } from '../../../images/pack.js';
import { imageSpecs } from '../../../images/specs.js';
import { runTraced, type TraceRunRequest, type TraceRunResult } from '../../../bin/trace_run.js';
import { openBundle, type Bundle } from '../../../format/bundle.js';
import type { RegenTotals } from '../../../regen/multi.js';
import { verifyBundle } from '../../../regen/verify_multi.js';

const images = new Map<string, Promise<BootImage>>();

/** The image of that name (images/specs.ts), assembled once per test file. */
export function imageOf(name: string): Promise<BootImage> {
  let p = images.get(name);
  if (!p) {
    const spec = imageSpecs().find((s) => s.name === name);
    if (!spec) throw new Error(`no image spec ${name}`);
    images.set(name, (p = assembleImage(spec)));
  }
  return p;
}

export interface TraceOptions {
  command?: string;
  trbufSize?: number;
  quantum?: number;
  seed?: number;
  periodic?: boolean;
  truth?: boolean;
  dummy?: boolean;
  store?: { latency_us: number; bandwidth: number };
  /** Keep the bundle directory (the caller removes it). */
  keep?: boolean;
}

export interface Traced {
  run: TraceRunResult;
  stdout: string;
  dir: string;
}

/** Runs an image traced into a temporary bundle. */
export async function traceImage(name: string, o: TraceOptions = {}): Promise<Traced> {
  const img = await imageOf(name);
  const dir = mkdtempSync(join(tmpdir(), `emu-trace-${name}-`));
  const out: Buffer[] = [];
  const req: TraceRunRequest = {
    image: { img, file: `${name}.tar` }, out: join(dir, 'bundle'), truth: o.truth ?? true, log: pino({ level: 'silent' }),
    console: { write: (b) => void out.push(Buffer.from(b)), read: () => new Uint8Array(0) },
  };
  if (o.command !== undefined) req.command = o.command;
  if (o.trbufSize !== undefined) req.trbufSize = o.trbufSize;
  if (o.quantum !== undefined) req.quantum = o.quantum;
  if (o.seed !== undefined) req.seed = o.seed;
  if (o.periodic) req.periodic = true;
  if (o.dummy) req.dummy = true;
  if (o.store) req.store = o.store;
  const run = await runTraced(req);
  return { run, stdout: Buffer.concat(out).toString('latin1'), dir };
}

export interface Verified extends Traced {
  bundle: Bundle;
  totals: RegenTotals;
  events: number;
}

/** Runs traced, regenerates, verifies against the ground truth; removes the bundle unless `keep`. */
export async function traceAndVerify(name: string, o: TraceOptions = {}): Promise<Verified> {
  const t = await traceImage(name, o);
  try {
    const bundle = openBundle(join(t.dir, 'bundle'));
    const { totals, events } = verifyBundle(bundle);
    return { ...t, bundle, totals, events };
  } finally {
    if (!o.keep) rmSync(t.dir, { recursive: true, force: true });
  }
}

/** Small commands per workload for the many-configuration matrix (CI time). */
export const SMALL: Record<string, string | undefined> = {
  demo: "textgen 20000 | egrep 'zebra|quux' | wc -l & cs 60; wait",
  cs: 'cs 40',
  pipeline: "textgen 20000 | egrep 'kernel|trace' | wc",
  pmake: [
    "echo 'all: a b c' > /tmp/m.mk",
    "echo 'a:' >> /tmp/m.mk",
    "echo '\tsh -c \"textgen 3000 42 | compress -c | compress -d | wc -c\"' >> /tmp/m.mk",
    "echo 'b:' >> /tmp/m.mk",
    "echo '\tsh -c \"textgen 3000 42 | egrep -c kernel\"' >> /tmp/m.mk",
    "echo 'c: a' >> /tmp/m.mk",
    "echo '\tcs 30' >> /tmp/m.mk",
    "echo '\tsigtest kill sigchld' >> /tmp/m.mk",
    'pmake -j 4 -f /tmp/m.mk',
  ].join('; '),
  sigtest: undefined,
  li: 'li /usr/share/li/queens.lsp 4',
  cc1: 'cc1 -k 1 /usr/share/cc1/input.mc',
  egrep: "textgen 30000 > /tmp/t.txt; egrep -c 'zebra.*quux' /tmp/t.txt",
  compress: 'compress 20000',
  sgefa: 'sgefa 30 1',
  pdp: 'pdp 2',
  jmptest: undefined,
};
