/**
 * The replay cache: one cache (unified) or two (split I/D) of regen/cachesim.ts shared by every
 * process of a multi-process reference stream, with per-process accounting (docs/replay.md).
 *
 * Contracts:
 *   - A reference touching bytes [addr, addr+size) accesses every line it overlaps, in address
 *     order: it counts once as a reference and once per line as a line access; each line that
 *     misses counts as a miss. Miss ratios are misses / line accesses.
 *   - Instruction fetches go to the I-cache, loads and stores to the D-cache (split); a unified
 *     cache takes all three. Stores write-allocate and mark the line dirty; a dirty line evicted
 *     is a write-back, charged to the process whose miss evicted it.
 *   - Address spaces (`pidTags`, the default): the trace holds virtual addresses, so each process
 *     instance gets an address-space number that tags its lines — equal addresses of two
 *     processes are different lines, as in a physically addressed cache with no sharing.
 *     Processes still share the sets, so one evicts the other's lines: `stolen` counts the
 *     misses of a process that evicted another process's line, `lost` the lines a process lost
 *     that way. A pid that exits and is used again later is a new instance with a new number.
 *     Without pidTags all processes share one address space, as a din trace (which has no pids)
 *     sees them.
 *   - Per-process rows are in pid order (a reused pid's instances in their order); `program` is the last exec'd path
 *     (a forked child inherits its parent's until it execs). Processes that made no reference
 *     are left out.
 */
import { type CacheSpec, type LineCache, makeCache } from './cachesim.js';
import { REF_I, REF_I_RUN, REF_S, type RefConsumer, type ScheduleConsumer } from './replay/consumer.js';

/** Counter layout per process instance. Line accesses are the refs plus the extra lines of crossing refs. */
const C_REFS = 0; // + kind
const C_EXTRA = 3; // + kind
const C_MISS = 6; // + kind
const C_WB = 9;
const C_LOST = 10;
const C_STOLEN = 11;
const STRIDE = 12;
const MAX_SLOTS = 1 << 20;
const ASID_UNIT = 4294967296;

export interface RefCounts {
  /** Indexed by kind: I, L, S. */
  refs: [number, number, number];
  lines: [number, number, number];
  misses: [number, number, number];
  writebacks: number;
  /** Lines of this process evicted by another process's miss. */
  lost: number;
  /** Misses of this process that evicted another process's line. */
  stolen: number;
}

export interface ProcRow extends RefCounts {
  pid: number;
  program: string;
}

export interface CacheSummary {
  /** The geometry as given, e.g. "64K:32:4,split". */
  spec: CacheSpec;
  pidTags: boolean;
  total: RefCounts;
  processes: ProcRow[];
  /** Per cache (one when unified): accesses, misses, evictions, write-backs, dirty lines left. */
  caches: { name: string; accesses: number; misses: number; evictions: number; writebacks: number; dirtyAtEnd: number }[];
}

export function missRatio(c: RefCounts, kinds: readonly number[] = [0, 1, 2]): number {
  let l = 0;
  let m = 0;
  for (const k of kinds) {
    l += c.lines[k]!;
    m += c.misses[k]!;
  }
  return l === 0 ? 0 : m / l;
}

export class CacheReplay implements RefConsumer, ScheduleConsumer {
  readonly icache: LineCache;
  readonly dcache: LineCache;
  private counts = new Float64Array(64 * STRIDE);
  private readonly slotPid: number[] = [];
  private readonly slotProgram: string[] = [];
  private readonly pidSlot = new Map<number, number>();
  private curPid = -1;
  private curSlot = -1;
  private cBase = 0;
  private asid = 0;

  constructor(readonly spec: CacheSpec, readonly pidTags = true) {
    const g = { size: spec.size, line: spec.line, assoc: spec.assoc };
    this.icache = makeCache(g);
    this.dcache = spec.split ? makeCache(g) : this.icache;
  }

  private slotFor(pid: number, program: string): number {
    let s = this.pidSlot.get(pid);
    if (s === undefined) {
      s = this.slotPid.length;
      if (s >= MAX_SLOTS) throw new Error(`more than ${MAX_SLOTS} process instances`);
      this.slotPid.push(pid);
      this.slotProgram.push(program);
      this.pidSlot.set(pid, s);
      if ((s + 1) * STRIDE > this.counts.length) {
        const n = new Float64Array(this.counts.length * 2);
        n.set(this.counts);
        this.counts = n;
      }
    }
    return s;
  }

  private select(pid: number): void {
    const s = this.slotFor(pid, '?');
    this.curPid = pid;
    this.curSlot = s;
    this.cBase = s * STRIDE;
    this.asid = this.pidTags ? s * ASID_UNIT : 0;
  }

  ref(pid: number, kind: number, addr: number, size: number): void {
    if (pid !== this.curPid) this.select(pid);
    this.ref1(kind, addr, size);
  }

  refBatch(pid: number, n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
    if (pid !== this.curPid) this.select(pid);
    const c = this.icache;
    const shift = c.lineShift;
    if (shift < 2) {
      // Lines shorter than an instruction: every fetch crosses.
      for (let i = 0; i < n; i++) {
        const k = kind[i]!;
        if (k !== REF_I_RUN) this.ref1(k, addr[i]!, size[i]!);
        else for (let j = 0, a = addr[i]!, m = size[i]!; j < m; j++) this.ref1(REF_I, (a + 4 * j) >>> 0, 4);
      }
      return;
    }
    // A run of m fetches: each line it touches is accessed once, by its first fetch. The
    // fetches after it in the same line hit the way that fetch made most recent and change
    // nothing (a fetch neither dirties a line nor moves its owner), so only their count is
    // added (once per batch).
    const lineBytes = c.geometry.line;
    const offset = lineBytes - 1;
    let fetches = 0;
    for (let i = 0; i < n; i++) {
      const k = kind[i]!;
      if (k !== REF_I_RUN) {
        this.ref1(k, addr[i]!, size[i]!);
        continue;
      }
      let m = size[i]!;
      let p = addr[i]!;
      fetches += m;
      while (m > 0) {
        this.line(c, p >>> shift, REF_I);
        const inLine = (lineBytes - (p & offset)) / 4;
        const take = m < inLine ? m : inLine;
        m -= take;
        p = (p + 4 * take) >>> 0;
      }
    }
    this.counts[this.cBase + C_REFS + REF_I] += fetches;
  }

  private ref1(kind: number, addr: number, size: number): void {
    const c = kind === REF_I ? this.icache : this.dcache;
    const shift = c.lineShift;
    const first = addr >>> shift;
    this.counts[this.cBase + C_REFS + kind]++;
    if (size <= 1 || (addr + size - 1) >>> shift === first) this.line(c, first, kind);
    else this.crossing(c, addr, size, kind);
  }

  private line(c: LineCache, lineAddr: number, kind: number): void {
    const b = this.cBase;
    const counts = this.counts;
    if (c.access(this.asid + lineAddr, lineAddr, kind === REF_S, this.curSlot)) return;
    counts[b + C_MISS + kind]++;
    if (c.victimDirty) counts[b + C_WB]++;
    const v = c.victimOwner;
    if (v >= 0 && v !== this.curSlot) {
      counts[b + C_STOLEN]++;
      counts[v * STRIDE + C_LOST]++;
    }
  }

  /** A reference overlapping several lines: each, in address order (wrapping at 2^32). */
  private crossing(c: LineCache, addr: number, size: number, kind: number): void {
    const shift = c.lineShift;
    const first = Math.floor(addr / 2 ** shift);
    const last = Math.floor((addr + size - 1) / 2 ** shift);
    const lineMask = 2 ** (32 - shift) - 1;
    this.counts[this.cBase + C_EXTRA + kind] += last - first;
    for (let l = first; l <= last; l++) this.line(c, l & lineMask, kind);
  }

  switchTo(): void {}
  fork(parent: number, child: number): void {
    const ps = this.pidSlot.get(parent);
    this.slotFor(child, ps === undefined ? '?' : this.slotProgram[ps]!);
  }
  exec(pid: number, path: string): void {
    this.slotProgram[this.slotFor(pid, path)] = path;
  }
  exit(pid: number, _status?: number): void {
    // The next process with this pid is a new address space.
    this.pidSlot.delete(pid);
    if (pid === this.curPid) this.curPid = -1;
  }
  end(): void {}

  private row(s: number): RefCounts {
    const c = this.counts;
    const b = s * STRIDE;
    return {
      refs: [c[b + C_REFS]!, c[b + C_REFS + 1]!, c[b + C_REFS + 2]!],
      lines: [c[b]! + c[b + C_EXTRA]!, c[b + 1]! + c[b + C_EXTRA + 1]!, c[b + 2]! + c[b + C_EXTRA + 2]!],
      misses: [c[b + C_MISS]!, c[b + C_MISS + 1]!, c[b + C_MISS + 2]!],
      writebacks: c[b + C_WB]!,
      lost: c[b + C_LOST]!,
      stolen: c[b + C_STOLEN]!,
    };
  }

  summary(): CacheSummary {
    // Stable sort: the instances of a reused pid stay in their order.
    const processes: ProcRow[] = this.slotPid
      .map((pid, s) => ({ pid, program: this.slotProgram[s]!, ...this.row(s) }))
      .filter((p) => p.refs[0] + p.refs[1] + p.refs[2] > 0)
      .sort((a, b) => a.pid - b.pid);
    const total: RefCounts = { refs: [0, 0, 0], lines: [0, 0, 0], misses: [0, 0, 0], writebacks: 0, lost: 0, stolen: 0 };
    for (const p of processes) {
      for (let k = 0; k < 3; k++) {
        total.refs[k] += p.refs[k]!;
        total.lines[k] += p.lines[k]!;
        total.misses[k] += p.misses[k]!;
      }
      total.writebacks += p.writebacks;
      total.lost += p.lost;
      total.stolen += p.stolen;
    }
    const l = total.lines;
    const cs = this.spec.split
      ? [['I', this.icache, l[0]], ['D', this.dcache, l[1] + l[2]]] as const
      : [['unified', this.icache, l[0] + l[1] + l[2]]] as const;
    return {
      spec: this.spec,
      pidTags: this.pidTags,
      total,
      processes,
      caches: cs.map(([name, c, accesses]) => ({
        name, accesses, misses: c.misses, evictions: c.evictions, writebacks: c.writebacks, dirtyAtEnd: c.dirtyLines(),
      })),
    };
  }
}
