/**
 * A cache of many ways per set (fully associative ones above all): the same LRU, write-back,
 * write-allocate cache as regen/cachesim.ts's `Cache`, with the same counters and the same
 * answers, but O(1) per access whatever the associativity: a hash table finds a line's way, and
 * each set keeps its ways in a doubly-linked recency list (head: most recent, tail: least).
 * Everything lives in typed arrays; an access allocates nothing.
 *
 * The hash table is open addressing with linear probing over twice as many slots as lines;
 * removal shifts the following entries of the probe run back (no tombstones), so lookups never
 * slow down however long the replay.
 */
/** A cache's size, line and associativity in bytes, bytes and ways (regen/cachesim.ts parses them). */
export interface CacheGeometry {
  size: number;
  line: number;
  assoc: number;
}

export class WideCache {
  readonly sets: number;
  readonly assoc: number;
  readonly lineShift: number;
  readonly setMask: number;
  private readonly tags: Float64Array;
  private readonly dirty: Uint8Array;
  private readonly owner: Int32Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly hkeys: Float64Array;
  private readonly hways: Int32Array;
  private readonly hmask: number;
  private readonly hshift: number;

  misses = 0;
  writeMisses = 0;
  evictions = 0;
  writebacks = 0;
  victimOwner = -1;
  victimDirty = false;

  constructor(readonly geometry: CacheGeometry) {
    const lines = geometry.size / geometry.line;
    this.assoc = geometry.assoc;
    this.sets = lines / geometry.assoc;
    this.setMask = this.sets - 1;
    this.lineShift = Math.log2(geometry.line);
    this.tags = new Float64Array(lines).fill(-1);
    this.dirty = new Uint8Array(lines);
    this.owner = new Int32Array(lines).fill(-1);
    this.prev = new Int32Array(lines);
    this.next = new Int32Array(lines);
    this.head = new Int32Array(this.sets);
    this.tail = new Int32Array(this.sets);
    // Set s owns ways [s*assoc, (s+1)*assoc), linked in order; all invalid, so the first fills
    // take the tail end and move to the head.
    for (let s = 0; s < this.sets; s++) {
      const b = s * this.assoc;
      for (let w = 0; w < this.assoc; w++) {
        this.prev[b + w] = w === 0 ? -1 : b + w - 1;
        this.next[b + w] = w === this.assoc - 1 ? -1 : b + w + 1;
      }
      this.head[s] = b;
      this.tail[s] = b + this.assoc - 1;
    }
    let bits = 1;
    while (1 << bits < 2 * lines) bits++;
    this.hkeys = new Float64Array(1 << bits).fill(-1);
    this.hways = new Int32Array(1 << bits);
    this.hmask = (1 << bits) - 1;
    this.hshift = 32 - bits;
  }

  private hash(key: number): number {
    const lo = key >>> 0;
    const hi = (key - lo) / 4294967296;
    return Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> this.hshift;
  }

  private find(key: number): number {
    const keys = this.hkeys;
    let i = this.hash(key);
    for (;;) {
      const k = keys[i]!;
      if (k === key) return this.hways[i]!;
      if (k === -1) return -1;
      i = (i + 1) & this.hmask;
    }
  }

  private insert(key: number, way: number): void {
    let i = this.hash(key);
    while (this.hkeys[i] !== -1) i = (i + 1) & this.hmask;
    this.hkeys[i] = key;
    this.hways[i] = way;
  }

  /** Removes a present key, moving later entries of its probe run back into the hole. */
  private remove(key: number): void {
    const keys = this.hkeys;
    const mask = this.hmask;
    let i = this.hash(key);
    while (keys[i] !== key) i = (i + 1) & mask;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const k = keys[j]!;
      if (k === -1) break;
      const h = this.hash(k);
      // The entry at j may move to the hole at i unless its home h lies cyclically in (i, j].
      const inRange = i <= j ? h > i && h <= j : h > i || h <= j;
      if (!inRange) {
        keys[i] = k;
        this.hways[i] = this.hways[j]!;
        i = j;
      }
    }
    keys[i] = -1;
  }

  private toHead(set: number, w: number): void {
    const h = this.head[set]!;
    if (h === w) return;
    const p = this.prev[w]!;
    const n = this.next[w]!;
    this.next[p] = n;
    if (n === -1) this.tail[set] = p;
    else this.prev[n] = p;
    this.prev[w] = -1;
    this.next[w] = h;
    this.prev[h] = w;
    this.head[set] = w;
  }

  /** The contract of Cache.access. */
  access(key: number, lineAddr: number, write: boolean, owner: number): boolean {
    const set = lineAddr & this.setMask;
    const w = this.find(key);
    if (w >= 0) {
      if (write) this.dirty[w] = 1;
      this.toHead(set, w);
      return true;
    }
    this.misses++;
    if (write) this.writeMisses++;
    const v = this.tail[set]!;
    const old = this.tags[v]!;
    if (old !== -1) {
      this.evictions++;
      this.victimOwner = this.owner[v]!;
      this.victimDirty = this.dirty[v] === 1;
      if (this.victimDirty) this.writebacks++;
      this.remove(old);
    } else {
      this.victimOwner = -1;
      this.victimDirty = false;
    }
    this.tags[v] = key;
    this.dirty[v] = write ? 1 : 0;
    this.owner[v] = owner;
    this.insert(key, v);
    this.toHead(set, v);
    return false;
  }

  dirtyLines(): number {
    let n = 0;
    for (let i = 0; i < this.tags.length; i++) if (this.tags[i] !== -1 && this.dirty[i] === 1) n++;
    return n;
  }

  validLines(): number {
    let n = 0;
    for (let i = 0; i < this.tags.length; i++) if (this.tags[i] !== -1) n++;
    return n;
  }
}
