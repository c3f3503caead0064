/**
 * What `emu run IMAGE --trace` does (docs/trace-bundle.md section 2): instrument the programs the
 * image marks as traced (cached by executable hash), put the instrumented executables and the
 * consumer bdump into the guest filesystem, attach /dev/trbuf and the store device, run the
 * workload under bdump, and write the trace bundle.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BUILD_DIR, buildProgram, variant } from '../images/build.js';
import { MACHINE_DEFAULTS, writeImage, type BootImage } from '../format/image.js';
import { missingTools } from '../images/toolchain.js';
import { BlockCrc, BUNDLE_FORMAT, BUNDLE_VERSION, type BundleManifest, type BundleProgram } from '../regen/bundle.js';
import { instrument } from '../tracer/instrument.js';
import { parseSchema, sha256, type Schema } from '../tracer/schema.js';
import type { Console } from './dev.js';
import type { Kernel } from './kernel.js';
import { finish, prepare, type RunRequest, type RunResult } from './run.js';
import { FileSink, type ByteSink } from './truth.js';
import { TrbufDevice } from './trbuf.js';
import { StoreDevice, type StoreSink } from './trbuf_store.js';

export const QPT_CACHE_DIR = join(BUILD_DIR, 'qpt-cache');

/** A hash of the instrumenter's own code: a cached instrumentation is valid for that code only. */
let instrumenterKey: string | null = null;
function instrumenterHash(): string {
  if (instrumenterKey) return instrumenterKey;
  const dir = fileURLToPath(new URL('../tracer/', import.meta.url));
  const h = createHash('sha256');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.js') || x.endsWith('.ts')).sort()) {
    h.update(f);
    h.update(readFileSync(join(dir, f)));
  }
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
  const schemaGz = new Uint8Array(gzipSync(Buffer.from(JSON.stringify(r.schema))));
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

/** A stream file of the bundle: written as the store device delivers it, checksummed by block. */
class StreamFile implements StoreSink {
  readonly crc = new BlockCrc();
  private readonly sink: FileSink;
  constructor(readonly path: string) {
    this.sink = new FileSink(path);
  }
  write(b: Uint8Array): void {
    this.crc.update(b);
    this.sink.write(b);
  }
  close(): void {
    this.sink.close();
  }
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

/** A ByteSink that checksums what it writes (the truth stream). */
class CrcSink implements ByteSink {
  readonly crc = new BlockCrc();
  constructor(private readonly inner: ByteSink) {}
  write(b: Uint8Array): void {
    this.crc.update(b);
    this.inner.write(b);
  }
  close(): void {
    this.inner.close();
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
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'schemas'), { recursive: true });

  const trace = req.dummy ? null : new StreamFile(join(out, 'trace'));
  const sched = req.dummy ? null : new StreamFile(join(out, 'sched'));
  const truthSink = req.truth ? new CrcSink(new FileSink(join(out, 'truth'))) : null;
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
      const sink = (s: StreamFile | null): StoreSink => s ?? { write() {} };
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
  writeFileSync(join(out, 'console.out'), Buffer.concat(tee.chunks));
  writeFileSync(join(out, 'stats.json'), `${JSON.stringify(r.stats, null, 2)}\n`);
  let manifest: BundleManifest | null = null;
  if (!req.dummy) {
    const programs: BundleProgram[] = traced.map((t) => {
      const h = t.schema.instrumented.sha256;
      const schema = `schemas/${h}.json.gz`;
      writeFileSync(join(out, schema), t.schemaGz);
      return {
        path: t.path, original: { sha256: t.schema.original.sha256, size: t.original.length }, instrumented: { sha256: h, size: t.elf.length }, schema,
        schemaSha256: sha256(t.schemaGz),
      };
    });
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
        trace: trace!.crc.info('trace'),
        sched: sched!.crc.info('sched'),
        ...(truthSink ? { truth: truthSink.crc.info('truth') } : {}),
      },
      run: {
        exitCode: r.exitCode, haltReason: k.haltReason, cycles: k.clock.now, instructions: k.insns, overflows: s.overflows,
        schedBlocks: s.schedBlocks, requests: s.requests, blockedCycles: s.blockedCycles, rollbacks: s.rollbacks, lostBytes: s.lostBytes,
        storeBytes: storeDev.stats.bytes, storeBusyCycles: storeDev.stats.busyCycles,
      },
      consumer,
    };
    writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  }
  mkdirSync(dirname(out), { recursive: true });
  return { ...r, bundle: out, manifest, trbuf, store: storeDev };
}
