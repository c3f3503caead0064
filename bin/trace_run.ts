/**
 * What `emu run IMAGE --trace` does (docs/trace-bundle.md section 2): instrument the programs the
 * image marks as traced (cached by executable hash), put the instrumented executables and the
 * consumer bdump into the guest filesystem, attach /dev/trbuf and the store device, run the
 * workload under bdump, and write the trace bundle.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR, buildProgram, variant } from '../images/build.js';
import { MACHINE_DEFAULTS, writeImage, type BootImage } from '../format/image.js';
import { missingTools } from '../images/toolchain.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BundleWriter, type BundleManifest, type BundleStream } from '../format/bundle.js';
import { instrument } from '../tracer/instrument.js';
import { parseSchema, serializeSchema, sha256, type Schema } from '../format/schema.js';
import type { Console } from '../os/dev.js';
import type { Kernel } from '../os/kernel.js';
import { finish, prepare, type RunRequest, type RunResult } from '../os/run.js';
import { TrbufDevice } from '../os/trbuf.js';
import { StoreDevice, type StoreSink } from '../os/trbuf_store.js';

export const QPT_CACHE_DIR = join(BUILD_DIR, 'qpt-cache');

/**
 * A hash of the instrumenter's code — tracer/ and what it reads: the opcode tables and queries of
 * cpu/, the formats of format/ — so a cached instrumentation is valid for that code only.
 */
let instrumenterKey: string | null = null;
function instrumenterHash(): string {
  if (instrumenterKey) return instrumenterKey;
  const h = createHash('sha256');
  const add = (dir: string, name: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.isDirectory()) add(join(dir, e.name), `${name}/${e.name}`);
      else if (e.name.endsWith('.js') || e.name.endsWith('.ts')) {
        h.update(`${name}/${e.name}`);
        h.update(readFileSync(join(dir, e.name)));
      }
    }
  };
  for (const d of ['tracer', 'cpu', 'format']) add(fileURLToPath(new URL(`../${d}/`, import.meta.url)), d);
  return (instrumenterKey = h.digest('hex').slice(0, 16));
}

export interface Instrumented {
  path: string;
  original: Uint8Array;
  elf: Uint8Array;
  schema: Schema;
  /** The schema as stored (gzip JSON). */
  schemaGz: Uint8Array;
  cached: boolean;
}

/** Instruments an executable, or takes the result from the cache. */
export function instrumentCached(bytes: Uint8Array, path: string, cacheDir = QPT_CACHE_DIR): Instrumented {
  const key = `${sha256(bytes)}-${instrumenterHash()}`;
  const exeF = join(cacheDir, `${key}.qpt`);
  const schF = join(cacheDir, `${key}.schema.json.gz`);
  if (existsSync(exeF) && existsSync(schF)) {
    const elf = new Uint8Array(readFileSync(exeF));
    const schemaGz = new Uint8Array(readFileSync(schF));
    try {
      const schema = parseSchema(schemaGz, schF);
      if (schema.instrumented.sha256 === sha256(elf)) return { path, original: bytes, elf, schema, schemaGz, cached: true };
    } catch {
      // A damaged cache entry is made again.
    }
  }
  const r = instrument(bytes, path);
  const schemaGz = serializeSchema(r.schema, true);
  mkdirSync(cacheDir, { recursive: true });
  // Written under temporary names and renamed, so a concurrent run never reads half a file.
  const tmp = `.${process.pid}`;
  writeFileSync(exeF + tmp, r.elf);
  writeFileSync(schF + tmp, schemaGz);
  renameSync(exeF + tmp, exeF);
  renameSync(schF + tmp, schF);
  return { path, original: bytes, elf: r.elf, schema: r.schema, schemaGz, cached: false };
}

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
  constructor(private readonly inner: Console) {
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
    traced.push(instrumentCached(new Uint8Array(f.data), path, req.cacheDir));
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
  const { truth: _t, out: _o, periodic: _p, dummy: _d, store: _s, cacheDir: _c, ...base } = req;
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
