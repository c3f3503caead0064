/**
 * The translation cache: the fast engines' generated code kept on disk between processes, so a
 * run of a program that ran before takes its blocks' functions from V8's code cache instead of
 * generating and parsing them again (issue 21, item 2: translation and `new Function` were a
 * fifth of a cold CoreMark run's main thread; docs/cpu-mips.md, "The translation cache").
 *
 * Contracts:
 *   - An entry is named by a key that holds every input its source was generated from (the
 *     engine puts the guest instruction words, the virtual pc and the mode flags in it), and a
 *     file holds only entries made by one version of the generator (`version`, given by the
 *     command: the bundle's size and modification time). A hit therefore returns a function made
 *     from the very source a translation would make now: the guest runs the same, instruction
 *     for instruction (determinism), whether the cache is there, cold, damaged or absent.
 *   - One file per engine and bucket (the command names the bucket after a hash of the program
 *     or boot image it runs). The file is a JSON header line (magic, version, parameter names,
 *     keys, source length, whether the code cache was made after the code ran, CRC-32 of the
 *     rest), the entries' source as one script (an array of factory functions, each
 *     `function (params) { src }`, what `new Function(params, src)` makes), then V8's code cache
 *     of that script. V8 checks a code cache against its source's length only, hence the CRC.
 *   - Written under a name of its own (pid) and renamed into place at the end of a run that
 *     translated something new, or whose code cache was made before its functions had run (the
 *     next run then stores the bytecode of every function it compiled): concurrent runs see a
 *     whole file or none, the last writer wins. A file that does not parse, is of another
 *     version, or whose code cache V8 rejects costs only its reading. Files may be deleted at
 *     any time.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

const MAGIC = 'EMUJIT1';
/**
 * Entries a file keeps at most: past it, a run writes only the entries it used or added, so a
 * program that generates code (or many inputs of one program) cannot grow a file without bound.
 */
export const MAX_ENTRIES = 32768;

export interface JitCacheConfig {
  /** Directory of the files (made if missing). */
  dir: string;
  /** Version of the code generators (entries of another version are never used). */
  version: string;
  /** Name of the program or image the process runs (file names: `${engine}-${bucket}.jit`). */
  bucket: string;
}

type Factory = (...a: unknown[]) => unknown;

interface Header {
  magic: string;
  version: string;
  params: string[];
  keys: string[];
  srcBytes: number;
  warm: boolean;
  /** CRC-32 of everything after the header line. */
  crc: number;
}

let config: JitCacheConfig | null = null;
const open = new Map<string, JitCache>();

/** Turns the cache on for this process (a command does, before the machine is made); null: off. */
export function configureJitCache(c: JitCacheConfig | null): void {
  config = c;
  open.clear();
}

/** The cache of an engine whose factories take `params`; null when the process has none. */
export function jitCache(engine: string, params: readonly string[]): JitCache | null {
  if (config === null) return null;
  let c = open.get(engine);
  if (c === undefined) {
    c = new JitCache(join(config.dir, `${engine}-${config.bucket}.jit`), config.version, params);
    open.set(engine, c);
  }
  return c;
}

/** The cache jitCache opened for an engine in this process, if any (statistics, tests). */
export function openJitCache(engine: string): JitCache | undefined {
  return open.get(engine);
}

/** Writes every cache of this process that has something new (at the end of a run). */
export function saveJitCaches(): void {
  for (const c of open.values()) c.save();
}

export class JitCache {
  private readonly index = new Map<string, number>();
  private factories: Factory[] = [];
  private srcs: string[] = [];
  private keys: string[] = [];
  private script: Script | null = null;
  private warm = false;
  /** Entries added by this run (translations the file did not have). */
  added = 0;
  /** Per entry: used or added by this run. */
  private used: boolean[] = [];
  /** V8 rejected the file's code cache (the source was compiled instead). */
  rejected = false;
  /** Look-ups served from the file. */
  hits = 0;

  constructor(
    readonly file: string,
    readonly version: string,
    readonly params: readonly string[],
  ) {
    this.load();
  }

  private load(): void {
    let b: Buffer;
    try {
      b = readFileSync(this.file);
    } catch {
      return;
    }
    try {
      const nl = b.indexOf(10);
      const h = JSON.parse(b.subarray(0, nl).toString('latin1')) as Header;
      if (h.magic !== MAGIC || h.version !== this.version || h.params.join(',') !== this.params.join(',')) return;
      if (crc32(b.subarray(nl + 1)) !== h.crc) return;
      const src = b.subarray(nl + 1, nl + 1 + h.srcBytes).toString('utf8');
      const script = new Script(src, { filename: this.file, cachedData: b.subarray(nl + 1 + h.srcBytes) });
      const fs = script.runInThisContext() as Factory[];
      if (!Array.isArray(fs) || fs.length !== h.keys.length) return;
      const srcs = splitSources(src, this.params);
      if (srcs.length !== fs.length) return;
      this.factories = fs;
      this.srcs = srcs;
      this.keys = h.keys;
      this.used = h.keys.map(() => false);
      h.keys.forEach((k, i) => this.index.set(k, i));
      this.script = script;
      this.rejected = script.cachedDataRejected === true;
      this.warm = h.warm && !this.rejected;
    } catch {
      this.factories = [];
      this.srcs = [];
      this.keys = [];
      this.used = [];
      this.index.clear();
      this.script = null;
    }
  }

  /** The factory of key, if the file had it. */
  get(key: string): Factory | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    this.hits++;
    this.used[i] = true;
    return this.factories[i];
  }

  /** Compiles src as `new Function(params, src)` does and keeps it under key. */
  add(key: string, src: string): Factory {
    const f = new Function(...this.params, src) as Factory;
    this.index.set(key, this.factories.length);
    this.factories.push(f);
    this.srcs.push(src);
    this.keys.push(key);
    this.used.push(true);
    this.added++;
    return f;
  }

  save(): void {
    if (this.added === 0 && (this.warm || this.script === null)) return;
    try {
      let src: string;
      let data: Buffer;
      let warm: boolean;
      if (this.added === 0) {
        // Every function came from this script: its code cache now holds what this run compiled.
        src = joinSources(this.srcs, this.params);
        data = this.script!.createCachedData();
        warm = true;
      } else {
        if (this.keys.length > MAX_ENTRIES) {
          const keep = this.keys.map((_, i) => i).filter((i) => this.used[i]);
          this.keys = keep.map((i) => this.keys[i]!);
          this.srcs = keep.map((i) => this.srcs[i]!);
        }
        src = joinSources(this.srcs, this.params);
        data = new Script(src, { filename: this.file }).createCachedData();
        warm = false;
      }
      const body = Buffer.from(src, 'utf8');
      const rest = Buffer.concat([body, data]);
      const h: Header = { magic: MAGIC, version: this.version, params: [...this.params], keys: this.keys, srcBytes: body.length, warm, crc: crc32(rest) };
      mkdirSync(join(this.file, '..'), { recursive: true });
      const tmp = `${this.file}.${process.pid}`;
      writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(h)}\n`, 'latin1'), rest]));
      renameSync(tmp, this.file);
    } catch {
      // no cache this time (directory not writable)
    }
  }
}

const SEP = '\n/*EMUJIT*/';

function joinSources(srcs: readonly string[], params: readonly string[]): string {
  const p = params.join(', ');
  return `[${srcs.map((s) => `${SEP}(function (${p}) {\n${s}\n})`).join(',')}\n]`;
}

/** The sources joinSources joined (generated code never contains SEP). */
function splitSources(src: string, params: readonly string[]): string[] {
  const head = `(function (${params.join(', ')}) {\n`;
  const parts = src.split(SEP).slice(1);
  return parts.map((s, i) => {
    const end = i === parts.length - 1 ? s.lastIndexOf('\n})\n]') : s.lastIndexOf('\n}),');
    return s.slice(head.length, end);
  });
}
