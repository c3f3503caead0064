/**
 * What `emu run IMAGE --trace` does (docs/trace-bundle.md section 2): instrument the programs the
 * image marks as traced (cached by executable hash), put the instrumented executables and the
 * consumer bdump into the guest filesystem, attach /dev/trbuf and the store device, run the
 * workload under bdump, and write the trace bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR, buildProgram, variant } from '../images/build.js';
import { MACHINE_DEFAULTS, writeImage, type BootImage } from '../format/image.js';
import { missingTools } from '../images/toolchain.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BundleWriter, type BundleManifest, type BundleStream } from '../format/bundle.js';
import { sha256 } from '../format/schema.js';
import type { Console } from '../os/dev.js';
import type { Kernel } from '../os/kernel.js';
import { finish, prepare, type RunRequest, type RunResult } from '../os/run.js';
import { TrbufDevice } from '../os/trbuf.js';
import { StoreDevice, type StoreSink } from '../os/trbuf_store.js';

import { instrumentCached, type Instrumented } from './qpt_cache.js';

export { QPT_CACHE_DIR, instrumentCached, type Instrumented } from './qpt_cache.js';

/** The consumer's executable for an image: its own /bin/bdump, or this tree's BSD build. */
export async function bdumpFor(img: BootImage): Promise<Uint8Array> {
  const own = img.files.get('/bin/bdump');
  if (own) return own.data;
  const target = img.manifest.arch;
  const built = join(BUILD_DIR, `bsd-${target}`, 'bin', 'bdump');
  if (missingTools().length === 0) return new Uint8Array(readFileSync(await buildProgram(variant(target, 'bsd'), 'bdump')));
  if (existsSync(built)) return new Uint8Array(readFileSync(built));
  throw new Error(`the image has no /bin/bdump and ${built} does not exist (build it: emu images build -t ${target} -f bsd -p bdump)`);
}

/** sh's single-quoted form of a string. */
function shQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

export interface TraceRunRequest extends Omit<RunRequest, 'exe' | 'image' | 'truth' | 'files' | 'setup'> {
  image: { img: BootImage; file: string };
  /** The bundle directory (created; an existing bundle there is replaced). */
  out: string;
  /** Record the ground truth of the traced run into the bundle. */
  truth?: boolean;
  /** bdump -p: drain every virtual second when more than 16 KiB are unsaved. */
  periodic?: boolean;
  /** Dummy run (mazieres-smith-1994 Figure 11): the streams go to /dev/null, no bundle streams. */
  dummy?: boolean;
  /** The store device's model (default: the manifest's devices.store). */
  store?: { latency_us: number; bandwidth: number };
  /** Where instrumented programs are cached. */
  cacheDir?: string;
  /** Instrument every traced program afresh (bin/qpt_cache.ts). */
  noCache?: boolean;
}

export interface TraceRunResult extends RunResult {
  bundle: string;
  manifest: BundleManifest | null;
  trbuf: TrbufDevice;
  store: StoreDevice;
}

/** A console that also keeps what the guests wrote (the bundle's console.out). */
class TeeConsole implements Console {
  readonly chunks: Buffer[] = [];
  writeErr?: (b: Uint8Array) => void;
  readonly terminals?: Console['terminals'];
  constructor(private readonly inner: Console) {
    if (inner.terminals) this.terminals = inner.terminals;
    if (inner.writeErr) {
      this.writeErr = (b) => {
        this.chunks.push(Buffer.from(b));
        inner.writeErr!(b);
      };
    }
  }
  write(b: Uint8Array): void {
    this.chunks.push(Buffer.from(b));
    this.inner.write(b);
  }
  read(max: number): Uint8Array {
    return this.inner.read(max);
  }
}

/** Runs an image traced and writes the bundle. */
export async function runTraced(req: TraceRunRequest): Promise<TraceRunResult> {
  const img = req.image.img;
  const m = img.manifest;
  const traced: Instrumented[] = [];
  for (const path of m.traced) {
    const f = img.files.get(path);
    if (!f) throw new Error(`${req.image.file}: the traced program ${path} is not in the image`);
    traced.push(instrumentCached(new Uint8Array(f.data), path, { ...(req.cacheDir ? { cacheDir: req.cacheDir } : {}), ...(req.noCache ? { noCache: true } : {}) }));
  }
  const bdump = await bdumpFor(img);
  const out = req.out;
  const bw = new BundleWriter(out);
  const trace = req.dummy ? null : bw.stream('trace');
  const sched = req.dummy ? null : bw.stream('sched');
  const truthSink = req.truth ? bw.stream('truth') : null;
  const tee = new TeeConsole(req.console);
  const store = req.store ?? m.devices.store ?? MACHINE_DEFAULTS.devices.store;
  const flags = req.periodic ? '-p ' : '';
  const outputs = req.dummy ? '/dev/null /dev/null' : '/dev/store0 /dev/store1';
  const workload = req.command !== undefined ? `-c ${shQuote(req.command)}` : '/bin/sh /etc/rc';
  const consumer = `/bin/bdump ${flags}${outputs} ${workload}`;
  let dev: TrbufDevice | null = null;
  let st: StoreDevice | null = null;
  const { truth: _t, out: _o, periodic: _p, dummy: _d, store: _s, cacheDir: _c, noCache: _n, ...base } = req;
  const run: RunRequest = {
    ...base,
    image: req.image,
    command: `exec ${consumer}`,
    files: [...traced.map((t) => ({ path: t.path, data: t.elf, mode: 0o755 })), { path: '/bin/bdump', data: bdump, mode: 0o755 }],
    console: tee,
    setup: (k: Kernel) => {
      dev = TrbufDevice.attach(k);
      const sink = (s: BundleStream | null): StoreSink => s ?? { write() {} };
      st = StoreDevice.attach(k, store, [sink(trace), sink(sched)]);
    },
  };
  if (truthSink) run.truth = { sink: truthSink, format: 'bin' };
  let r: RunResult;
  try {
    r = finish(prepare(run), run);
  } finally {
    trace?.close();
    sched?.close();
  }
  const trbuf = dev as unknown as TrbufDevice;
  const storeDev = st as unknown as StoreDevice;
  bw.file('console.out', Buffer.concat(tee.chunks));
  bw.file('stats.json', `${JSON.stringify(r.stats, null, 2)}\n`);
  let manifest: BundleManifest | null = null;
  if (!req.dummy) {
    const programs = traced.map((t) => bw.program(t.path, t.original, t.elf, t.schema, t.schemaGz));
    const k = r.kernel;
    const s = trbuf.stats;
    manifest = {
      format: BUNDLE_FORMAT, version: BUNDLE_VERSION,
      image: { name: m.name, file: req.image.file, sha256: sha256(writeImage(img)) },
      arch: m.arch,
      command: req.command ?? m.command,
      options: {
        quantum: k.quantumCycles, seed: req.seed ?? null, trbufSize: k.trbufSize, periodic: req.periodic === true, store: { ...store },
        memory: k.md.mem.size,
      },
      cpuHz: k.cpuHz,
      programs,
      streams: {
        trace: trace!.info(),
        sched: sched!.info(),
        ...(truthSink ? { truth: truthSink.info() } : {}),
      },
      run: {
        exitCode: r.exitCode, haltReason: k.haltReason, cycles: k.clock.now, instructions: k.insns, overflows: s.overflows,
        schedBlocks: s.schedBlocks, requests: s.requests, blockedCycles: s.blockedCycles, rollbacks: s.rollbacks, lostBytes: s.lostBytes,
        storeBytes: storeDev.stats.bytes, storeBusyCycles: storeDev.stats.busyCycles,
      },
      consumer,
    };
    bw.finish(manifest);
  }
  return { ...r, bundle: out, manifest, trbuf, store: storeDev };
}
