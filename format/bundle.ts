/**
 * Trace bundles (docs/trace-bundle.md section 1): the manifest's types, the block checksums of its
 * streams, the writer `BundleWriter` (`emu run --trace`: bin/trace_run.ts) and the reader
 * `openBundle`, which validates everything a regeneration relies on and names the file (and byte
 * offset) of the first problem.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { oneLine, shown } from './errtext.js';
import { decodeSchedule, SchedError, type DecodedSchedule } from './sched.js';
import { sha256, type Schema } from './schema.js';
import { openSchema } from './schema_cache.js';
import { FileSink, type ByteSink } from './sink.js';
import type { TargetName } from './target.js';

export const BUNDLE_FORMAT = 'emu-trace-bundle';
export const BUNDLE_VERSION = 1;
/** Bytes per checksummed block of a stream file. */
export const CRC_BLOCK = 65536;

export interface StreamInfo {
  file: string;
  bytes: number;
  block: number;
  crc32: number[];
}

export interface BundleProgram {
  /** Guest path of the traced executable. */
  path: string;
  original: { sha256: string; size: number };
  instrumented: { sha256: string; size: number };
  /** Schema file, relative to the bundle. */
  schema: string;
  /** sha256 of the schema file as stored (absent in bundles written before it was recorded). */
  schemaSha256?: string;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  /** The boot image that ran (`emu run IMAGE --trace`), or ... */
  image?: { name: string; file: string; sha256: string };
  /** ... the bare executable (`emu run PROG --trace`): its guest path, host file name (no directory: bundles do not depend on where they were made) and sha256. */
  executable?: { name: string; file: string; sha256: string };
  arch: TargetName;
  command: string;
  options: {
    quantum: number;
    seed: number | null;
    trbufSize: number;
    periodic: boolean;
    store: { latency_us: number; bandwidth: number };
    memory: number;
    /** With an executable: the exec'ed programs traced (emu run --trace-exec). */
    traceExec?: 'all' | 'none' | string[];
  };
  cpuHz: number;
  programs: BundleProgram[];
  streams: { trace: StreamInfo; sched: StreamInfo; truth?: StreamInfo };
  run: {
    exitCode: number;
    haltReason: string | null;
    cycles: number;
    instructions: number;
    overflows: number;
    schedBlocks: number;
    requests: number;
    blockedCycles: number;
    rollbacks: number;
    lostBytes: number;
    storeBytes: number;
    storeBusyCycles: number;
  };
  consumer: string;
}

export class BundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleError';
  }
}

/** CRC-32 of every CRC_BLOCK bytes of a stream, computed as the bytes arrive. */
export class BlockCrc {
  readonly crcs: number[] = [];
  private cur = 0;
  private fill = 0;
  bytes = 0;

  update(b: Uint8Array): void {
    let off = 0;
    while (off < b.length) {
      const n = Math.min(CRC_BLOCK - this.fill, b.length - off);
      this.cur = crc32(b.subarray(off, off + n), this.cur);
      this.fill += n;
      off += n;
      if (this.fill === CRC_BLOCK) {
        this.crcs.push(this.cur >>> 0);
        this.cur = 0;
        this.fill = 0;
      }
    }
    this.bytes += b.length;
  }

  info(file: string): StreamInfo {
    const crcs = [...this.crcs];
    if (this.fill > 0) crcs.push(this.cur >>> 0);
    return { file, bytes: this.bytes, block: CRC_BLOCK, crc32: crcs };
  }
}

/**
 * Checks a stream's bytes against its manifest entry. Returns the offset of the first damaged
 * block (its start), or -1 when everything agrees; throws for a size mismatch (truncation) only
 * when `strictSize`.
 */
export function checkStream(bytes: Uint8Array, info: StreamInfo): { damagedAt: number } {
  const n = Math.ceil(bytes.length / info.block);
  for (let i = 0; i < n; i++) {
    const c = crc32(bytes.subarray(i * info.block, Math.min(bytes.length, (i + 1) * info.block))) >>> 0;
    if (info.crc32[i] !== c) {
      // A last partial block of a truncated file differs only because it is short.
      if (i === n - 1 && bytes.length < info.bytes) break;
      return { damagedAt: i * info.block };
    }
  }
  return { damagedAt: -1 };
}

/** A stream file of a bundle, checksummed by block as its bytes arrive. */
export class BundleStream implements ByteSink {
  private readonly crc = new BlockCrc();
  private readonly sink: FileSink;
  constructor(dir: string, readonly name: string) {
    this.sink = new FileSink(join(dir, name));
  }
  write(b: Uint8Array): void {
    this.crc.update(b);
    this.sink.write(b);
  }
  close(): void {
    this.sink.close();
  }
  /** The manifest's entry (streams.<name>). */
  info(): StreamInfo {
    return this.crc.info(this.name);
  }
}

/**
 * Writes a bundle directory (an existing one there is replaced): the streams as the run delivers
 * them, the schemas and the other files, the manifest last.
 */
export class BundleWriter {
  constructor(readonly dir: string) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'schemas'), { recursive: true });
  }

  stream(name: 'trace' | 'sched' | 'truth'): BundleStream {
    return new BundleStream(this.dir, name);
  }

  /** Writes a program's schema as stored (gzip JSON): schemas/<H>.json.gz, H = the instrumented executable's sha256. */
  program(path: string, original: Uint8Array, instrumented: Uint8Array, schema: Schema, stored: Uint8Array): BundleProgram {
    const h = schema.instrumented.sha256;
    const file = `schemas/${h}.json.gz`;
    writeFileSync(join(this.dir, file), stored);
    return {
      path, original: { sha256: schema.original.sha256, size: original.length }, instrumented: { sha256: h, size: instrumented.length },
      schema: file, schemaSha256: sha256(stored),
    };
  }

  /** Any other file of the bundle (console.out, stats.json). */
  file(name: string, bytes: Uint8Array | string): void {
    writeFileSync(join(this.dir, name), bytes);
  }

  finish(m: BundleManifest): void {
    writeFileSync(join(this.dir, 'manifest.json'), `${JSON.stringify(m, null, 1)}\n`);
  }
}

export interface Bundle {
  dir: string;
  manifest: BundleManifest;
  /** Programs by the sha256 of the instrumented executable. */
  programs: Map<string, { info: BundleProgram; schema: Schema; file: string }>;
  trace: Uint8Array;
  traceFile: string;
  /**
   * Bytes of the trace regeneration may use: the whole stream, or up to the first damaged block
   * or the end of a truncated file (reading past it is reported with the event index).
   */
  traceUsable: number;
  /** Why traceUsable is short of the stream ('' when it is not). */
  traceProblem: string;
  sched: DecodedSchedule;
  schedFile: string;
  /** Why the schedule is incomplete ('' when it is not): reported when regeneration gets there. */
  schedProblem: string;
  truthFile: string | null;
}

function readJson(file: string): unknown {
  if (!existsSync(file)) throw new BundleError(`${file}: missing`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new BundleError(`${file}: not valid JSON: ${oneLine((e as Error).message)}`);
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
/** A file name inside the bundle: relative, no '..' component, no NUL. */
const isInside = (x: unknown): x is string =>
  typeof x === 'string' && x !== '' && !x.startsWith('/') && !x.includes('\0') && !x.split('/').some((c) => c === '..' || c === '');

/**
 * Validates a parsed manifest: every field a reader uses has its type and range (the fields of
 * `run` other than `cycles` are statistics, shown as they are). Throws BundleError naming `file`
 * and the field.
 */
function validateManifest(j: unknown, file: string): BundleManifest {
  const bad = (m: string): never => {
    throw new BundleError(`${file}: ${m}`);
  };
  const m = j as Partial<BundleManifest> | null;
  if (!m || typeof m !== 'object' || m.format !== BUNDLE_FORMAT) bad(`not a trace bundle manifest ("format" must be "${BUNDLE_FORMAT}")`);
  if (m!.version !== BUNDLE_VERSION) bad(`unsupported bundle version ${shown(m!.version)}`);
  if (m!.arch !== 'mipsel' && m!.arch !== 'mips' && m!.arch !== 'sparc') bad('"arch" must be mipsel, mips or sparc');
  if (!Array.isArray(m!.programs)) bad('"programs" must be an array');
  m!.programs!.forEach((p: Partial<BundleProgram> | null, i) => {
    const where = `"programs[${i}]"`;
    if (!p || typeof p !== 'object' || typeof p.path !== 'string') bad(`${where} needs a "path" string`);
    if (!isInside(p!.schema)) bad(`${where}.schema must name a file inside the bundle`);
    if (!p!.instrumented || typeof p!.instrumented.sha256 !== 'string' || !SHA256.test(p!.instrumented.sha256)) bad(`${where}.instrumented.sha256 must be 64 hex digits`);
    if (p!.schemaSha256 !== undefined && (typeof p!.schemaSha256 !== 'string' || !SHA256.test(p!.schemaSha256))) bad(`${where}.schemaSha256 must be 64 hex digits`);
  });
  const s = m!.streams;
  for (const k of ['trace', 'sched', 'truth'] as const) {
    const x = s?.[k];
    if (k === 'truth' && x === undefined) continue;
    if (!x || !isInside(x.file) || !isCount(x.bytes) || !Array.isArray(x.crc32) || x.block !== CRC_BLOCK) {
      bad(`"streams.${k}" needs file, bytes, block (${CRC_BLOCK}) and crc32`);
    }
    if (x!.crc32.length !== Math.ceil(x!.bytes / CRC_BLOCK) || !x!.crc32.every((c) => typeof c === 'number' && c >>> 0 === c)) {
      bad(`"streams.${k}.crc32" must hold ${Math.ceil(x!.bytes / CRC_BLOCK)} CRC-32 values, one per ${CRC_BLOCK} bytes of ${x!.bytes}`);
    }
  }
  if (typeof m!.cpuHz !== 'number' || !(m!.cpuHz > 0) || !Number.isFinite(m!.cpuHz)) bad('"cpuHz" must be a positive number');
  if (!m!.run || typeof m!.run !== 'object' || !isCount(m!.run.cycles)) bad('"run.cycles" must be a count of cycles');
  return m as BundleManifest;
}

/** A stream file's bytes (missing: BundleError). */
function readStreamFile(dir: string, info: StreamInfo): { bytes: Uint8Array; file: string } {
  const file = join(dir, info.file);
  if (!existsSync(file) || !statSync(file).isFile()) throw new BundleError(`${file}: missing`);
  return { bytes: new Uint8Array(readFileSync(file)), file };
}

/** Checks a stream's bytes against the manifest: what regeneration may use of it, and why not more. */
function checkStreamBytes(bytes: Uint8Array, file: string, info: StreamInfo): { bytes: Uint8Array; file: string; usable: number; problem: string } {
  let usable = bytes.length;
  let problem = '';
  if (bytes.length > info.bytes) {
    throw new BundleError(`${file}: ${bytes.length} bytes, the manifest says ${info.bytes}: data after the end`);
  }
  const { damagedAt } = checkStream(bytes, info);
  if (damagedAt >= 0) {
    usable = damagedAt;
    problem = `bytes ${damagedAt}-${Math.min(bytes.length, damagedAt + info.block) - 1} are damaged (checksum of block ${damagedAt / info.block} differs from the manifest)`;
  } else if (bytes.length < info.bytes) {
    problem = `truncated: ${bytes.length} of the ${info.bytes} bytes the manifest lists`;
  }
  return { bytes, file, usable, problem };
}

/** What a bundle is before its streams: the validated manifest and the schemas. */
export interface BundleHead {
  dir: string;
  manifestFile: string;
  manifest: BundleManifest;
  programs: Bundle['programs'];
}

/** How a bundle is opened. */
export interface OpenBundleOptions {
  /**
   * The schema cache's directory (format/schema_cache.ts): schemas are taken from it when it
   * holds them and written to it when not. Absent: every schema is parsed and checked whole.
   */
  schemaCache?: string;
}

/** Reads and validates a bundle's manifest and schemas. Throws BundleError naming the file and the problem. */
export function openBundleHead(dir: string, opts: OpenBundleOptions = {}): BundleHead {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new BundleError(`${dir}: not a trace bundle directory`);
  const mfile = join(dir, 'manifest.json');
  const manifest = validateManifest(readJson(mfile), mfile);
  const programs: Bundle['programs'] = new Map();
  for (const p of manifest.programs) {
    const file = join(dir, p.schema);
    if (!existsSync(file)) throw new BundleError(`${file}: missing (schema of ${p.path})`);
    const raw = new Uint8Array(readFileSync(file));
    const sha = sha256(raw);
    if (p.schemaSha256 !== undefined && sha !== p.schemaSha256) {
      throw new BundleError(`${file}: schema hash mismatch: the file's sha256 is ${sha}, ${mfile} lists ${p.schemaSha256} (schema of ${p.path})`);
    }
    let schema: Schema;
    try {
      schema = openSchema(raw, sha, file, opts.schemaCache);
    } catch (e) {
      // parseSchema's message names the file and what is wrong (damaged gzip data included).
      throw new BundleError((e as Error).message);
    }
    if (schema.instrumented.sha256 !== p.instrumented.sha256) {
      throw new BundleError(`${file}: schema hash mismatch: it describes the instrumented executable ${schema.instrumented.sha256}, ${mfile} lists ${p.path} as ${p.instrumented.sha256}`);
    }
    if (schema.arch !== manifest.arch) throw new BundleError(`${file}: a ${schema.arch} schema in a ${manifest.arch} bundle`);
    programs.set(p.instrumented.sha256, { info: p, schema, file });
  }
  return { dir, manifestFile: mfile, manifest, programs };
}

/**
 * A bundle from its head and the bytes of its trace and schedule streams, checked against the
 * manifest (sizes, block checksums) and against each other. Throws BundleError.
 */
export function assembleBundle(head: BundleHead, traceBytes: Uint8Array, schedBytes: Uint8Array): Bundle {
  const { dir, manifest, programs } = head;
  const tr = checkStreamBytes(traceBytes, join(dir, manifest.streams.trace.file), manifest.streams.trace);
  const sc = checkStreamBytes(schedBytes, join(dir, manifest.streams.sched.file), manifest.streams.sched);
  // The schedule decodes up to its first damaged block or its end; what is missing is reported
  // when regeneration reaches it.
  let sched: DecodedSchedule;
  let schedProblem = sc.problem;
  try {
    sched = decodeSchedule(sc.bytes.subarray(0, sc.usable), sc.file);
  } catch (e) {
    if (!(e instanceof SchedError)) throw e;
    if (sc.usable === sc.bytes.length && e.message.includes('truncated') === false) throw new BundleError(e.message);
    // A cut record at the damage or truncation point: decode what precedes it. Damage in the
    // first block leaves nothing readable (offset -1: not even the magic): regeneration cannot
    // start, so the bundle is refused here, at event 0.
    const unreadable = (): BundleError => new BundleError(`${sc.file}: ${sc.problem || e.message}: no schedule record is readable before it; regeneration cannot start (event 0)`);
    if (e.offset < 0) throw unreadable();
    try {
      sched = decodeSchedule(sc.bytes.subarray(0, e.offset), sc.file);
    } catch (e2) {
      if (e2 instanceof SchedError) throw unreadable();
      throw e2;
    }
    schedProblem ||= e.message;
  }
  if (!sched.header) throw new BundleError(`${sc.file}: no HEADER record`);
  if (sched.header.arch !== manifest.arch) throw new BundleError(`${sc.file}: a ${sched.header.arch} schedule in a ${manifest.arch} bundle`);
  if (sched.end === null && !schedProblem) schedProblem = `truncated: no END record after byte ${sched.length}`;
  if (sched.end !== null && sched.end !== tr.bytes.length && !tr.problem) {
    throw new BundleError(`${tr.file}: ${tr.bytes.length} bytes, the schedule's END record counts ${sched.end}`);
  }
  for (let i = 0; i < sched.markers.length; i++) {
    const m = sched.markers[i]!;
    if (m.kind === 'start' && !programs.has(m.hash ?? '')) {
      throw new BundleError(`${sc.file}: byte ${sched.offsets[i]}: pid ${m.pid} starts the program ${m.hash}, which no schema of the bundle describes (schema hash mismatch)`);
    }
  }
  const truthFile = manifest.streams.truth ? join(dir, manifest.streams.truth.file) : null;
  return {
    dir, manifest, programs, trace: tr.bytes, traceFile: tr.file, traceUsable: tr.usable, traceProblem: tr.problem, sched,
    schedFile: sc.file, schedProblem, truthFile,
  };
}

/** Opens and validates a bundle directory. Throws BundleError naming the file and the problem. */
export function openBundle(dir: string, opts: OpenBundleOptions = {}): Bundle {
  const head = openBundleHead(dir, opts);
  const tr = readStreamFile(dir, head.manifest.streams.trace);
  const sc = readStreamFile(dir, head.manifest.streams.sched);
  return assembleBundle(head, tr.bytes, sc.bytes);
}

/**
 * The bundle's ground-truth file, checked against the manifest's `streams.truth` (size and the
 * CRC-32 of every block, read a block at a time) before anyone compares with it: a damaged
 * oracle would blame regeneration for its own damage. Throws BundleError naming the file, the
 * block and its bytes, or that the bundle has no ground truth.
 */
export function checkedTruthFile(b: Bundle): string {
  const info = b.manifest.streams.truth;
  if (!b.truthFile || !info) throw new BundleError(`${b.dir}: the bundle has no ground truth (record it with emu run --trace --truth)`);
  const file = b.truthFile;
  if (!existsSync(file) || !statSync(file).isFile()) throw new BundleError(`${file}: missing (the manifest lists a ground truth of ${info.bytes} bytes)`);
  const size = statSync(file).size;
  if (size > info.bytes) throw new BundleError(`${file}: ${size} bytes, the manifest says ${info.bytes}: data after the end`);
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(info.block);
    for (let i = 0, off = 0; off < size; i++, off += info.block) {
      const n = readSync(fd, buf, 0, Math.min(info.block, size - off), off);
      if (off + n === size && size < info.bytes) break; // the short last block of a truncated file
      if ((crc32(buf.subarray(0, n)) >>> 0) !== info.crc32[i]) {
        throw new BundleError(`${file}: damaged: block ${i} (bytes ${off}-${off + n - 1}) does not match its CRC-32 in the manifest`);
      }
    }
  } finally {
    closeSync(fd);
  }
  if (size < info.bytes) throw new BundleError(`${file}: truncated: ${size} of the ${info.bytes} bytes the manifest lists`);
  return file;
}
