/**
 * One cache: set-associative, LRU replacement, write-back with write-allocate (docs/replay.md).
 *
 * Geometry `SIZE:LINE:ASSOC` — total bytes, line (block) bytes, ways per set; sizes take K and M
 * suffixes (powers of 1024); ASSOC may be `full` (one set). The line size and the number of sets
 * must be powers of two (the set index is the low bits of the line address, as in hardware);
 * the associativity need not be.
 *
 * The cache knows nothing of processes beyond two numbers per access: the `key` that identifies a
 * line (the line address, optionally combined with an address-space number by the caller) and
 * the `owner` recorded with a line that is filled (so the caller can see whose line a miss
 * evicted). State lives in typed arrays; an access allocates nothing.
 *
 * Caches of more than WIDE_ASSOC ways use regen/cachesim_wide.ts instead (same contract, O(1)
 * per access).
 *
 * Layout: the ways of set s are entries [s*assoc, (s+1)*assoc) of `tags`, kept in recency order
 * (most recently used first), so a hit in way 0 — the common case of sequential fetches within a
 * line — costs one compare, and LRU replacement evicts the last way. Invalid ways hold -1.
 */
import { WideCache, type CacheGeometry } from './cachesim_wide.js';

export type { CacheGeometry };

export interface CacheSpec extends CacheGeometry {
  /** Separate instruction and data caches, each of this geometry. */
  split: boolean;
}

export class GeometryError extends Error {
  constructor(spec: string, what: string) {
    super(`cache geometry '${spec}': ${what}`);
    this.name = 'GeometryError';
  }
}

const isPow2 = (n: number): boolean => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;

/** "64K" → 65536; K and M are powers of 1024. Returns NaN when it is not such a number. */
export function parseBytes(s: string): number {
  const m = /^(\d+)([kKmM]?)$/.exec(s.trim());
  if (!m) return NaN;
  const v = Number(m[1]) * (m[2] === '' ? 1 : m[2]!.toLowerCase() === 'k' ? 1024 : 1024 * 1024);
  return Number.isSafeInteger(v) ? v : NaN;
}

/** Formats a byte count the way geometries are written (65536 → 64K). */
export function fmtBytes(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)}M`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024}K`;
  return String(n);
}

export function fmtGeometry(g: CacheGeometry): string {
  const lines = g.size / g.line;
  return `${fmtBytes(g.size)}:${g.line}:${g.assoc === lines && lines > 1 ? 'full' : g.assoc}`;
}

/** Checks a geometry; throws GeometryError saying what is wrong. */
export function checkGeometry(g: CacheGeometry, spec: string = fmtGeometry(g)): CacheGeometry {
  if (!(g.size > 0)) throw new GeometryError(spec, 'the size must be a positive number of bytes (K and M suffixes allowed)');
  if (!isPow2(g.line)) throw new GeometryError(spec, `the line size ${g.line} is not a power of two`);
  if (g.line > g.size) throw new GeometryError(spec, `the line size ${g.line} is larger than the cache (${g.size} bytes)`);
  if (!(Number.isInteger(g.assoc) && g.assoc >= 1)) throw new GeometryError(spec, 'the associativity must be a positive integer or "full"');
  if (g.size % g.line !== 0) throw new GeometryError(spec, `the size ${g.size} is not a multiple of the line size ${g.line}`);
  const lines = g.size / g.line;
  if (lines % g.assoc !== 0) throw new GeometryError(spec, `${lines} lines cannot be divided into sets of ${g.assoc} ways`);
  const sets = lines / g.assoc;
  if (!isPow2(sets)) throw new GeometryError(spec, `${sets} sets (${lines} lines / ${g.assoc} ways) is not a power of two`);
  if (lines > 1 << 24) throw new GeometryError(spec, `${lines} lines is more than this simulator holds (2^24)`);
  return g;
}

/** Parses `SIZE:LINE:ASSOC[,split]` (e.g. `64K:32:4`, `8K:16:full,split`). */
export function parseCacheSpec(spec: string): CacheSpec {
  const [geo, ...flags] = spec.split(',');
  let split = false;
  for (const f of flags) {
    if (f === 'split') split = true;
    else if (f === 'unified') split = false;
    else throw new GeometryError(spec, `unknown option '${f}' (split or unified)`);
  }
  const parts = geo!.split(':');
  if (parts.length !== 3) throw new GeometryError(spec, 'expected SIZE:LINE:ASSOC, e.g. 64K:32:4');
  const size = parseBytes(parts[0]!);
  if (Number.isNaN(size)) throw new GeometryError(spec, `the size '${parts[0]}' is not a number of bytes (K and M suffixes allowed)`);
  const line = parseBytes(parts[1]!);
  if (Number.isNaN(line)) throw new GeometryError(spec, `the line size '${parts[1]}' is not a number of bytes`);
  let assoc: number;
  if (parts[2] === 'full') {
    if (!(line > 0) || size % line !== 0) throw new GeometryError(spec, `the size ${size} is not a multiple of the line size ${line}`);
    assoc = size / line;
  } else if (/^\d+$/.test(parts[2]!)) {
    assoc = Number(parts[2]);
  } else {
    throw new GeometryError(spec, `the associativity '${parts[2]}' is not a positive integer or "full"`);
  }
  checkGeometry({ size, line, assoc }, spec);
  return { size, line, assoc, split };
}

/** Above this many ways a set's linear scan costs more than a hash lookup: makeCache picks WideCache. */
export const WIDE_ASSOC = 16;

/** Either cache implementation: the same contract, the same counters. */
export type LineCache = Cache | WideCache;

export function makeCache(g: CacheGeometry): LineCache {
  checkGeometry(g);
  return g.assoc > WIDE_ASSOC ? new WideCache(g) : new Cache(g);
}

export class Cache {
  readonly sets: number;
  readonly assoc: number;
  readonly lineShift: number;
  readonly setMask: number;
  /** Line keys by way, recency order within each set; -1: invalid. */
  private readonly tags: Float64Array;
  private readonly dirty: Uint8Array;
  private readonly owner: Int32Array;

  /** Misses (writes among them), lines evicted, dirty lines evicted. Hits are not counted here: callers count accesses. */
  misses = 0;
  writeMisses = 0;
  evictions = 0;
  writebacks = 0;
  /** Of the last miss: the owner of the line it evicted (-1: it filled an invalid way) and whether that line was dirty. */
  victimOwner = -1;
  victimDirty = false;

  constructor(readonly geometry: CacheGeometry) {
    checkGeometry(geometry);
    const lines = geometry.size / geometry.line;
    this.assoc = geometry.assoc;
    this.sets = lines / geometry.assoc;
    this.setMask = this.sets - 1;
    this.lineShift = Math.log2(geometry.line);
    this.tags = new Float64Array(lines).fill(-1);
    this.dirty = new Uint8Array(lines);
    this.owner = new Int32Array(lines).fill(-1);
  }

  /**
   * One access to the line `lineAddr` (address >>> lineShift) identified by `key` (equal to
   * lineAddr, or lineAddr plus an address-space number times 2^32). Returns true on a hit. A miss
   * fills the line (write-allocate) as `owner`, evicting the least recently used way; a write
   * marks the line dirty (write-back).
   */
  access(key: number, lineAddr: number, write: boolean, owner: number): boolean {
    const assoc = this.assoc;
    const base = (lineAddr & this.setMask) * assoc;
    const tags = this.tags;
    if (tags[base] === key) {
      if (write) this.dirty[base] = 1;
      return true;
    }
    const end = base + assoc;
    let w = base + 1;
    while (w < end && tags[w] !== key) w++;
    if (w < end) {
      const d = this.dirty[w]!;
      const o = this.owner[w]!;
      this.shiftDown(base, w);
      tags[base] = key;
      this.dirty[base] = write ? 1 : d;
      this.owner[base] = o;
      return true;
    }
    return this.missSlow(base, end - 1, key, write, owner);
  }

  /** Moves ways [base, w) one place towards the LRU end (way w is overwritten). */
  private shiftDown(base: number, w: number): void {
    const tags = this.tags;
    const dirty = this.dirty;
    const own = this.owner;
    for (let i = w; i > base; i--) {
      tags[i] = tags[i - 1]!;
      dirty[i] = dirty[i - 1]!;
      own[i] = own[i - 1]!;
    }
  }

  private missSlow(base: number, lru: number, key: number, write: boolean, owner: number): boolean {
    this.misses++;
    if (write) this.writeMisses++;
    if (this.tags[lru] !== -1) {
      this.evictions++;
      this.victimOwner = this.owner[lru]!;
      this.victimDirty = this.dirty[lru] === 1;
      if (this.victimDirty) this.writebacks++;
    } else {
      this.victimOwner = -1;
      this.victimDirty = false;
    }
    this.shiftDown(base, lru);
    this.tags[base] = key;
    this.dirty[base] = write ? 1 : 0;
    this.owner[base] = owner;
    return false;
  }

  /** Dirty lines still in the cache (they would be written back by a flush). */
  dirtyLines(): number {
    let n = 0;
    for (let i = 0; i < this.dirty.length; i++) if (this.tags[i] !== -1 && this.dirty[i] === 1) n++;
    return n;
  }

  /** Valid lines (for tests and reports). */
  validLines(): number {
    let n = 0;
    for (let i = 0; i < this.tags.length; i++) if (this.tags[i] !== -1) n++;
    return n;
  }
}
