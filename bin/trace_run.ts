/**
 * What `emu run IMAGE --trace` and `emu run PROG --trace` do (docs/trace-bundle.md section 2):
 * instrument the traced programs (cached by executable hash), attach /dev/trbuf and the store
 * device, run the workload under the consumer bdump, and write the trace bundle.
 *
 * Which programs are traced: an image's manifest lists them, and their instrumented executables
 * replace the originals in the guest file system before boot. A bare executable is traced itself,
 * and the programs it execs are instrumented when they are exec'ed: the kernel's exec-image hook
 * (Kernel.execImage) hands this pipeline each executable's bytes, and it answers with the
 * instrumented image or none. The kernel knows nothing of the tracer; this file joins them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR, buildProgram, variant } from '../images/build.js';
import { MACHINE_DEFAULTS, writeImage, type BootImage } from '../format/image.js';
import { ElfError, PT_LOAD, SHF_EXECINSTR, SHT_NOBITS, elfArch, parseElf } from '../format/elf.js';
import type { TargetName } from '../format/target.js';
import { TRBUF_END } from '../os/param.js';
import { missingTools } from '../images/toolchain.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BundleWriter, type BundleManifest, type BundleStream } from '../format/bundle.js';
import { sha256 } from '../format/schema.js';
import type { Console } from '../os/dev.js';
import type { Kernel } from '../os/kernel.js';
import { finish, prepare, type RunRequest, type RunResult } from '../os/run.js';
import { TrbufDevice } from '../os/trbuf.js';
import { StoreDevice, type StoreSink } from '../os/trbuf_store.js';
import { instrumentCached, type CacheOptions, type Instrumented } from './qpt_cache.js';

export { QPT_CACHE_DIR, instrumentCached, type Instrumented } from './qpt_cache.js';

/** The consumer's executable for a target: an image's own /bin/bdump, or this tree's BSD build. */
export async function bdumpFor(target: TargetName, own?: Uint8Array): Promise<Uint8Array> {
  if (own) return own;
  const built = join(BUILD_DIR, `bsd-${target}`, 'bin', 'bdump');
  if (missingTools().length === 0) return new Uint8Array(readFileSync(await buildProgram(variant(target, 'bsd'), 'bdump')));
  if (existsSync(built)) return new Uint8Array(readFileSync(built));
  throw new Error(`no consumer: ${built} does not exist and the toolchain to build it is not installed (emu images build -t ${target} -f bsd -p bdump)`);
}

/** sh's single-quoted form of a string. */
function shQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/** Which programs exec'ed by a traced bare executable are traced (emu run --trace-exec). */
export type TraceExec = 'all' | 'none' | readonly string[];

export interface TraceRunRequest extends Omit<RunRequest, 'exe' | 'image' | 'truth' | 'files' | 'setup' | 'init'> {
  /** A boot image, whose manifest says which programs are traced, or ... */
  image?: { img: BootImage; file: string };
  /** ... a bare executable, traced, run with argv[1..] = args (as `emu run PROG` runs it). */
  exe?: { data: Uint8Array; name: string; args: string[] };
  /** With exe: the programs it (and its descendants) exec that are traced (default 'all'). */
  traceExec?: TraceExec;
  /** With exe: told about an exec'ed program that runs untraced although traceExec asked for it. */
  warn?: (message: string) => void;
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

/**
 * Whether an executable can be instrumented at all: static, with a symbol table and the
 * relocations `ld --emit-relocs` keeps for every code section, and not instrumented already
 * (instrumented code lives above the trace buffer). The instrumenter's own checks decide the rest.
 */
export function instrumentable(bytes: Uint8Array): boolean {
  try {
    const e = parseElf(bytes, 'exec');
    const text = e.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && s.type !== SHT_NOBITS);
    if (e.symbols.length === 0 || text.length === 0) return false;
    if (e.programHeaders.some((ph) => ph.type === PT_LOAD && ph.vaddr >>> 0 >= TRBUF_END)) return false;
    return text.every((t) => e.relocSections.some((r) => r.target === t.index));
  } catch (e) {
    if (e instanceof ElfError) return false;
    throw e;
  }
}

/**
 * The programs a traced bare executable runs: the executable itself, and each exec'ed program
 * `traceExec` selects (by the path it is exec'ed from) that can be instrumented. Instrumented once
 * per distinct file (by hash); the same image array is returned for every exec of it, so they
 * share text as one file's execs do.
 */
class ExecTracer {
  /** Original sha256 -> the instrumented program, or null (it cannot be: runs as it is). */
  private readonly byHash = new Map<string, Instrumented | null>();
  private readonly progHash: string;
  private readonly consumerHash: string;
  /** What was instrumented, in the order of first exec. */
  readonly traced: Instrumented[] = [];

  constructor(
    readonly program: Instrumented,
    consumer: Uint8Array,
    private readonly select: TraceExec,
    private readonly cache: CacheOptions,
    private readonly warn: (message: string) => void,
  ) {
    this.progHash = sha256(program.original);
    this.consumerHash = sha256(consumer);
  }

  /** Kernel.execImage. */
  exec(path: string, file: Uint8Array): Uint8Array | null {
    const h = sha256(file);
    let t: Instrumented | null | undefined;
    if (h === this.progHash) t = this.program;
    else if (h === this.consumerHash) t = null;
    else if (this.select === 'none' || (this.select !== 'all' && !this.select.includes(path))) t = null;
    else {
      t = this.byHash.get(h);
      if (t === undefined) this.byHash.set(h, (t = this.instrument(path, file)));
    }
    if (t && !this.traced.includes(t)) this.traced.push(t);
    return t ? t.elf : null;
  }

  private instrument(path: string, file: Uint8Array): Instrumented | null {
    if (!instrumentable(file)) {
      if (this.select !== 'all') this.warn(`${path}: not traced: not a static executable with symbols and relocations (link with -Wl,--emit-relocs)`);
      return null;
    }
    try {
      return instrumentCached(new Uint8Array(file), path, this.cache);
    } catch (e) {
      this.warn(`${path}: not traced: ${(e as Error).message}`);
      return null;
    }
  }
}

/** The consumer's path in a bare executable's file system (/bin stays the user's). */
const CONSUMER_PATH = '/sbin/bdump';

/** Runs an image or a bare executable traced and writes the bundle. */
export async function runTraced(req: TraceRunRequest): Promise<TraceRunResult> {
  if (!req.image === !req.exe) throw new Error('runTraced: give an image or an executable');
  const cache: CacheOptions = { ...(req.cacheDir ? { cacheDir: req.cacheDir } : {}), ...(req.noCache ? { noCache: true } : {}) };
  const m = req.image?.img.manifest;
  const arch: TargetName = m ? m.arch : elfArch(parseElf(req.exe!.data, req.exe!.name));
  const preinstalled: Instrumented[] = [];
  let execTracer: ExecTracer | null = null;
  let consumerPath = '/bin/bdump';
  const bdump = await bdumpFor(arch, req.image?.img.files.get('/bin/bdump')?.data);
  if (req.image) {
    const img = req.image.img;
    for (const path of m!.traced) {
      const f = img.files.get(path);
      if (!f) throw new Error(`${req.image.file}: the traced program ${path} is not in the image`);
      preinstalled.push(instrumentCached(new Uint8Array(f.data), path, cache));
    }
  } else {
    const exe = req.exe!;
    const sel = req.traceExec ?? 'all';
    if (typeof sel !== 'string') for (const p of sel) if (!p.startsWith('/')) throw new Error(`--trace-exec: '${p}' is not an absolute guest path`);
    const base = exe.name.slice(exe.name.lastIndexOf('/') + 1) || 'prog';
    const prog = instrumentCached(new Uint8Array(exe.data), `/bin/${base}`, cache);
    execTracer = new ExecTracer(prog, bdump, sel, cache, req.warn ?? (() => {}));
    consumerPath = CONSUMER_PATH;
  }
  const out = req.out;
  const bw = new BundleWriter(out);
  const trace = req.dummy ? null : bw.stream('trace');
  const sched = req.dummy ? null : bw.stream('sched');
  const truthSink = req.truth ? bw.stream('truth') : null;
  const tee = new TeeConsole(req.console);
  const store = req.store ?? m?.devices.store ?? MACHINE_DEFAULTS.devices.store;
  const flags = req.periodic ? ['-p'] : [];
  const outputs = req.dummy ? ['/dev/null', '/dev/null'] : ['/dev/store0', '/dev/store1'];
  // The workload, bdump's child: the image's command (sh -c) or /etc/rc; or the executable itself.
  const imageWorkload = req.command !== undefined ? `-c ${shQuote(req.command)}` : '/bin/sh /etc/rc';
  const exeArgv = req.exe ? [execTracer!.program.path, ...req.exe.args] : [];
  const consumerArgv = [consumerPath, ...flags, ...outputs, ...exeArgv];
  const consumer = req.exe ? consumerArgv.map(shQuote).join(' ') : `${[consumerPath, ...flags, ...outputs].join(' ')} ${imageWorkload}`;
  let dev: TrbufDevice | null = null;
  let st: StoreDevice | null = null;
  const { truth: _t, out: _o, periodic: _p, dummy: _d, store: _s, cacheDir: _c, noCache: _n, traceExec: _x, warn: _w, ...base } = req;
  const run: RunRequest = {
    ...base,
    files: [...preinstalled.map((t) => ({ path: t.path, data: t.elf, mode: 0o755 })), { path: consumerPath, data: bdump, mode: 0o755 }],
    console: tee,
    setup: (k: Kernel) => {
      dev = TrbufDevice.attach(k);
      const sink = (s: BundleStream | null): StoreSink => s ?? { write() {} };
      st = StoreDevice.attach(k, store, [sink(trace), sink(sched)]);
      if (execTracer) k.execImage = (path, file) => execTracer!.exec(path, file);
    },
  };
  if (req.image) run.command = `exec ${consumer}`;
  else run.init = consumerArgv;
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
    const traced = execTracer ? execTracer.traced : preinstalled;
    const programs = traced.map((t) => bw.program(t.path, t.original, t.elf, t.schema, t.schemaGz));
    const k = r.kernel;
    const s = trbuf.stats;
    const source = req.image
      ? { image: { name: m!.name, file: req.image.file, sha256: sha256(writeImage(req.image.img)) } }
      : { executable: { name: execTracer!.program.path, file: req.exe!.name, sha256: sha256(req.exe!.data) } };
    manifest = {
      format: BUNDLE_FORMAT, version: BUNDLE_VERSION,
      ...source,
      arch,
      command: req.image ? req.command ?? m!.command : exeArgv.map(shQuote).join(' '),
      options: {
        quantum: k.quantumCycles, seed: req.seed ?? null, trbufSize: k.trbufSize, periodic: req.periodic === true, store: { ...store },
        memory: k.md.mem.size,
        ...(req.exe ? { traceExec: typeof req.traceExec === 'object' ? [...req.traceExec] : req.traceExec ?? 'all' } : {}),
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
