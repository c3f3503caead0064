/**
 * The oracle for regen/cachesim*.ts: a deliberately naive cache simulator written from the
 * definitions in docs/replay.md, sharing no code or representation with the real one. Each set
 * is a Map whose insertion order is the recency order (a hit deletes and re-inserts the key, the
 * first key is the least recently used); the lines a reference touches are found by walking its
 * bytes one by one; address spaces are strings.
 */
export interface RefLine {
  dirty: boolean;
  owner: number;
}

export class RefCache {
  readonly sets: Map<string, RefLine>[];
  accesses = 0;
  misses = 0;
  evictions = 0;
  writebacks = 0;

  constructor(readonly size: number, readonly line: number, readonly assoc: number) {
    const nsets = size / line / assoc;
    this.sets = Array.from({ length: nsets }, () => new Map<string, RefLine>());
  }

  /** Returns null on a hit, else what the miss evicted (owner -1: nothing). */
  access(space: string, lineNo: number, write: boolean, owner: number): null | { owner: number; dirty: boolean } {
    this.accesses++;
    const set = this.sets[lineNo % this.sets.length]!;
    const key = `${space}/${lineNo}`;
    const hit = set.get(key);
    if (hit) {
      set.delete(key);
      set.set(key, { dirty: hit.dirty || write, owner: hit.owner });
      return null;
    }
    this.misses++;
    let victim = { owner: -1, dirty: false };
    if (set.size === this.assoc) {
      const [lruKey, lru] = set.entries().next().value as [string, RefLine];
      set.delete(lruKey);
      this.evictions++;
      if (lru.dirty) this.writebacks++;
      victim = { owner: lru.owner, dirty: lru.dirty };
    }
    set.set(key, { dirty: write, owner });
    return victim;
  }

  dirtyLines(): number {
    let n = 0;
    for (const s of this.sets) for (const l of s.values()) if (l.dirty) n++;
    return n;
  }
}

export interface RefRow {
  pid: number;
  program: string;
  refs: number[];
  lines: number[];
  misses: number[];
  writebacks: number;
  lost: number;
  stolen: number;
}

/** The whole replay: process instances, kinds, the shared cache(s). Kinds: 0 I, 1 L, 2 S. */
export class RefReplay {
  readonly icache: RefCache;
  readonly dcache: RefCache;
  readonly rows: RefRow[] = [];
  private readonly live = new Map<number, number>();

  constructor(size: number, line: number, assoc: number, readonly split: boolean, readonly pidTags: boolean) {
    this.icache = new RefCache(size, line, assoc);
    this.dcache = split ? new RefCache(size, line, assoc) : this.icache;
  }

  private inst(pid: number, program = '?'): number {
    let i = this.live.get(pid);
    if (i === undefined) {
      i = this.rows.length;
      this.rows.push({ pid, program, refs: [0, 0, 0], lines: [0, 0, 0], misses: [0, 0, 0], writebacks: 0, lost: 0, stolen: 0 });
      this.live.set(pid, i);
    }
    return i;
  }

  ref(pid: number, kind: number, addr: number, size: number): void {
    const i = this.inst(pid);
    const row = this.rows[i]!;
    row.refs[kind]!++;
    const cache = kind === 0 ? this.icache : this.dcache;
    const lines: number[] = [];
    for (let b = 0; b < Math.max(1, size); b++) {
      const l = Math.floor(((addr + b) >>> 0) / cache.line);
      if (!lines.includes(l)) lines.push(l);
    }
    for (const l of lines) {
      row.lines[kind]!++;
      const v = cache.access(this.pidTags ? `#${i}` : 'all', l, kind === 2, i);
      if (v === null) continue;
      row.misses[kind]!++;
      if (v.dirty) row.writebacks++;
      if (v.owner >= 0 && v.owner !== i) {
        row.stolen++;
        this.rows[v.owner]!.lost++;
      }
    }
  }

  fork(parent: number, child: number): void {
    const p = this.live.get(parent);
    this.inst(child, p === undefined ? '?' : this.rows[p]!.program);
  }
  exec(pid: number, path: string): void {
    this.rows[this.inst(pid, path)]!.program = path;
  }
  exit(pid: number): void {
    this.live.delete(pid);
  }
}
