/**
 * Where to cut a function's data-address slices: which definitions regeneration recomputes and
 * which it reads from the trace (larus-1990 section 3: "each instruction in a slice can either be
 * reexecuted by the regeneration program or its value can be recorded in the trace file").
 *
 * The slice graph has a node per (definition site, register) reachable from the roots through
 * computable operations. Impossible definitions (loads, call and system-call results, values
 * live on entry) must be recorded; a computable one may be recorded too when that is cheaper
 * than providing its inputs — `andi v1, v1, 0xff` is one byte, where its inputs may be a loaded
 * byte and a checksum computed from loaded words. Costs are bytes times the estimated frequency
 * of the definition's block (tracer/frequency.ts: static branch prediction, where the Ball–Larus
 * weighting of ball-larus-1994 section 5 splits branches equally); a value is recorded in as few bytes as
 * its range needs (a bit-width analysis over the operations: masks, byte and halfword loads,
 * comparisons, shifts). The choice is a minimum vertex cut (every path from an impossible
 * definition to a root crosses a recorded node); an induction variable, whose cycle no impossible
 * definition feeds, is never cut. Any valid cut is correct; this one minimises the estimate.
 */
import type { Cfg } from './cfg.js';
import type { Dataflow, Site, State } from './dataflow.js';
import type { Decoded, Isa } from './isa.js';

type Src = NonNullable<Decoded['compute']>['a'];

export interface Cut {
  /** Sites regeneration computes. */
  computed: Set<number>;
  /** Bundles (by index) the caller provides: the call enters the callee past its entry records. */
  provided: Set<number>;
  /** Address sums (by index) recorded as one value instead of their two registers. */
  sums: Set<number>;
  /** Site -> canonical register -> recorded width (1, 2, 4; negative: sign-extended). */
  recorded: Map<number, Map<number, number>>;
  width(site: number, reg: number): number;
}

interface Node {
  /** Its key in `nodes`, and its index in insertion order (`list`, the flow network's numbering). */
  key: number;
  idx: number;
  site: Site;
  /** Canonical register, or BUNDLE, or SUM, or PRED. */
  reg: number;
  /** Computable: the keys of the definitions its sources need (all reaching ones). */
  srcs: readonly number[] | null;
  freq: number;
  /** Unsigned bit width of the value (32: unknown), or negative: signed narrow load. */
  bits: number;
  recordable: boolean;
}

/**
 * A node's key: (definition site, canonical register) packed in one number, register × the
 * dataflow's site count + site, where the register is numbered densely per dataflow (Keys.dense, in
 * order of first use), so that keys stay small integers; >= 0. The bundle, sum and predicate nodes
 * have negative keys (bundleKey, sumKey, predKey).
 */
const bundleKey = (i: number): number => -1 - 3 * i;
const sumKey = (i: number): number => -2 - 3 * i;
const predKey = (i: number): number => -3 - 3 * i;
/** Node.reg of a call's bundle (its cost is the callee's entry records, `bits` / 8 bytes). */
const BUNDLE = -1;
/** Node.reg of an address sum (recorded: 4 bytes at the memory reference's frequency). */
const SUM = -2;
/** Node.reg of a predicate (cut: witnessed, at PredRoot.cost). */
const PRED = -3;

function bitsOfConst(v: number): number {
  if (v < 0) return 32;
  let b = 0;
  while (b < 32 && v >>> b !== 0) b++;
  return b;
}

/** A register regeneration needs; `atCall`: needed when a call or a jump out happens (a value
 * its delay slot defines cannot be recorded after the slot for it). */
export interface Root {
  state: State;
  reg: number;
  /** The block whose call (or jump out) needs the register. */
  atCall?: number;
}

/**
 * The registers a direct call's callee records at its entry (tracer/instrument.ts): either the
 * callee records them (the call enters through the entry's records, `bytes` per call), or the
 * caller provides them all at the call (after its delay slot) and the call enters past the
 * records. One node of the slice graph whose recording cost is the callee's records.
 */
export interface Bundle {
  /** The call block and the registers (canonical) as they reach the call. */
  block: number;
  roots: Root[];
  /** Bytes the callee's entry records per call. */
  bytes: number;
}

/**
 * A register + register memory reference (SPARC `[rs1 + rs2]`): regeneration needs either both
 * registers, or their sum recorded right before the reference (one 4-byte record, where
 * recording both would take two). One node of the slice graph whose sources are the definitions
 * of the two registers.
 */
export interface SumRoot {
  /** The block of the reference, and the two registers (canonical) as they reach it. */
  block: number;
  roots: [Root, Root];
}

/**
 * A two-way predicate regeneration decides when its operands are known at the branch
 * (tracer/decide.ts): either the cut makes them known (computes or records their definitions),
 * or the predicate stays witnessed at `cost` (estimated witness bytes × frequency). One node of
 * the slice graph whose sources are the operands' definitions and whose "record" is the witness.
 */
export interface PredRoot {
  roots: Root[];
  cost: number;
}

/**
 * What the slice graph holds for the node of (definition site, canonical register) `k`, from the
 * dataflow alone: the site and register, its sources (the keys of the definitions its operands
 * need, all reaching ones; [] when regeneration knows the value; null when it is impossible),
 * its bit width before the widths of computable nodes are found, and whether a record of it is
 * possible at all (a register regeneration may write, not defined by a delay slot on an edge
 * that leaves the function). Read only once made.
 */
interface Expansion {
  readonly site: Site;
  readonly reg: number;
  readonly srcs: readonly number[] | null;
  readonly bits: number;
  readonly recordable: boolean;
  /** The cut (cutSerial) whose slice graph holds the node, and its index there. */
  cut: number;
  idx: number;
}

/** Numbers the calls of chooseCut (Expansion.cut). */
let cutSerial = 0;

/** Per dataflow: the keys' register numbering and the expansions made, kept for the later cuts over the same one (the slicing passes, tracer/slice.ts). */
interface Keys {
  /** Canonical register -> dense number, and back. */
  dense: Map<number, number>;
  regOf: number[];
  /** By dense number: 1 when regeneration may record the register (a general register it does not reserve). */
  recordable: number[];
  isa: Isa;
  /** The dataflow's site count. */
  sites: number;
  known: Map<number, Expansion>;
}
const keysOf = new WeakMap<Dataflow, Keys>();

function keys(df: Dataflow, isa: Isa): Keys {
  let t = keysOf.get(df);
  if (!t) keysOf.set(df, (t = { dense: new Map(), regOf: [], recordable: [], isa, sites: df.sites.length, known: new Map() }));
  return t;
}

/** The key of (site 0, canonical register): a site's key adds the site's id. */
function regKey(t: Keys, reg: number): number {
  let d = t.dense.get(reg);
  if (d === undefined) {
    t.dense.set(reg, (d = t.regOf.length));
    t.regOf.push(reg);
    const r = t.isa.uncanon(reg).reg;
    t.recordable.push(r > 0 && r < 32 && !t.isa.reserved.includes(r) ? 1 : 0);
  }
  return d * t.sites;
}

/** The expansion of node key `k` (of `t`, the keys of `df`). */
function expansion(cfg: Cfg, df: Dataflow, t: Keys, k: number): Expansion {
  const sid = k % t.sites;
  const reg = t.regOf[(k - sid) / t.sites]!;
  const site = df.sites[sid]!;
  const c = site.insn ? df.computeOf(site.insn) : undefined;
  // A value a delay slot defines is recorded after the slot on the out-edges: impossible where
  // control leaves the function, too late for what a call needs at the call.
  let leaves = false;
  if (site.kind === 'ds') {
    for (const e of cfg.blocks[site.block]!.succ) {
      const t = cfg.blocks[e.to]!.term;
      if (t === 'exit' || t === 'tail') leaves = true;
    }
  }
  const recordable = !leaves && t.recordable[(k - sid) / t.sites] === 1;
  let srcs: number[] | null = null;
  let bits = 32;
  // Dataflow.knows: only a call's or an entry's definitions may be known.
  if ((site.kind === 'call' || site.kind === 'entry') && df.knows(site, reg)) {
    // Regeneration knows it (a callee's return value, a register carried into an entry): free,
    // never recorded here.
    srcs = [];
  } else if (c && df.computes(site, reg)) {
    const o = df.operands(site);
    srcs = [];
    for (let j = 0; j < o.regs.length; j++) {
      const x = o.regs[j]!;
      const ids = df.reaching(o.state, x);
      const base = regKey(t, x);
      for (let i = 0; i < ids.length; i++) srcs.push(base + ids[i]!);
    }
  } else if (site.insn?.mem && site.insn.mem.kind === 'load' && site.insn.mem.size < 4) {
    bits = site.insn.mem.signed ? -site.insn.mem.size * 8 : site.insn.mem.size * 8;
  }
  return { site, reg, srcs, bits, recordable, cut: -1, idx: -1 };
}

export function chooseCut(cfg: Cfg, isa: Isa, df: Dataflow, roots: Root[], bundles: readonly Bundle[], sums: readonly SumRoot[],
  freq: readonly number[], preds: readonly PredRoot[] = []): Cut {
  // freq: block frequencies, the static estimate (tracer/frequency.ts).
  const siteFreq = (s: Site): number => Math.max(freq[s.block] ?? 1, 1e-6);

  // The slice graph.
  const kt = keys(df, isa);
  const serial = ++cutSerial;
  // Nodes by index; a (site, register) node's index is in its expansion (Expansion.cut, idx), a
  // bundle's, sum's or predicate's in `special`.
  const list: Node[] = [];
  const special = new Map<number, number>();
  const addNode = (n: Node): void => {
    if (n.key < 0) special.set(n.key, n.idx);
    list.push(n);
  };
  const idxOf = (k: number): number => (k < 0 ? special.get(k)! : kt.known.get(k)!.idx);
  const rootKeys: number[] = [];
  const pending: number[] = [];
  const noRecord = new Set<number>();
  /** The definitions reaching root r, appended to `into` and queued; a value the delay slot of
   * r's call defines cannot be recorded for the call. */
  const expandRoot = (r: Root, into: number[]): void => {
    const ids = df.reaching(r.state, r.reg);
    const base = regKey(kt, r.reg);
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j]!;
      const k = base + id;
      into.push(k);
      pending.push(k);
      const site = df.sites[id]!;
      if (r.atCall !== undefined && site.kind === 'ds' && site.block === r.atCall) noRecord.add(k);
    }
  };
  for (const r of roots) expandRoot(r, rootKeys);
  // A bundle node: "computable" from the definitions of its registers, recorded (the callee's
  // entry records) at the call's frequency.
  const bundleKeys = bundles.map((bd, i) => {
    const k = bundleKey(i);
    const srcs: number[] = [];
    for (const r of bd.roots) expandRoot(r, srcs);
    addNode({ key: k, idx: list.length, site: df.sites[0]!, reg: BUNDLE, srcs, freq: Math.max(freq[bd.block] ?? 1, 1e-6), bits: 8 * bd.bytes, recordable: true });
    rootKeys.push(k);
    return k;
  });
  // A sum node: "computable" from the definitions of its two registers, recorded (4 bytes) at the
  // reference's frequency.
  const sumKeys = sums.map((sr, i) => {
    const k = sumKey(i);
    const srcs: number[] = [];
    for (const r of sr.roots) expandRoot(r, srcs);
    addNode({ key: k, idx: list.length, site: df.sites[0]!, reg: SUM, srcs, freq: Math.max(freq[sr.block] ?? 1, 1e-6), bits: 32, recordable: true });
    rootKeys.push(k);
    return k;
  });
  // A predicate node: "computable" from its operands' definitions, "recorded" (witnessed) at its cost.
  preds.forEach((pr, i) => {
    const k = predKey(i);
    const srcs: number[] = [];
    for (const r of pr.roots) expandRoot(r, srcs);
    addNode({ key: k, idx: list.length, site: df.sites[0]!, reg: PRED, srcs, freq: Math.max(pr.cost, 1e-9), bits: 8, recordable: true });
    rootKeys.push(k);
  });
  const known = kt.known;
  while (pending.length > 0) {
    const k = pending.pop()!;
    let x = known.get(k);
    if (x?.cut === serial) continue;
    if (!x) known.set(k, (x = expansion(cfg, df, kt, k)));
    x.cut = serial;
    x.idx = list.length;
    const node: Node = { key: k, idx: list.length, site: x.site, reg: x.reg, srcs: x.srcs, freq: siteFreq(x.site), bits: x.bits, recordable: x.recordable && !noRecord.has(k) };
    addNode(node);
    if (x.srcs) for (let j = 0; j < x.srcs.length; j++) pending.push(x.srcs[j]!);
  }

  // No gate on where a sum may be offered: with the Ball–Larus equal split the failing side of a
  // guard that never fails (li's `eval` pushes) priced error-path loads as half of all runs, and a
  // sum gate was needed against that; the static estimate prices those paths as rare itself, and
  // the gate only lost sums there (SPARC li: 1.263 bytes/ref with it, 1.235 without, docs/tracer.md).

  // Each node's sources as node indices (its srcs, in order).
  const srcIdx: (number[] | null)[] = new Array<number[] | null>(list.length);
  for (let i = 0; i < list.length; i++) {
    const sr = list[i]!.srcs;
    if (!sr) {
      srcIdx[i] = null;
      continue;
    }
    const a = new Array<number>(sr.length);
    for (let j = 0; j < sr.length; j++) a[j] = known.get(sr[j]!)!.idx;
    srcIdx[i] = a;
  }

  // Bit widths of computable nodes (a fixed point from "unknown" downwards is unsafe with
  // cycles: nodes on cycles stay 32). Memo by node index (NO_BITS: not yet).
  const NO_BITS = 127;
  const bitsMemo = scratch.i8(0, list.length).fill(NO_BITS, 0, list.length);
  /** The widest value of register x of node n's operation among its sources (the definition reaching is any of them). */
  const srcBits = (n: Node, si: readonly number[], x: Src, depth: number): number => {
    if (!x) return 0;
    if ('k' in x) return bitsOfConst(x.k);
    if (x.r === 0) return 0;
    const canon = isa.canon(x.r, n.site.depth);
    let mx = 0;
    for (let j = 0; j < si.length; j++) {
      const m = list[si[j]!]!;
      if (m.reg !== canon) continue;
      const v = bitsOf(m.idx, depth + 1);
      mx = Math.max(mx, v < 0 ? 32 : v);
    }
    return mx;
  };
  const bitsOf = (i: number, depth: number): number => {
    const n = list[i]!;
    const si = srcIdx[i];
    if (!si || !n.site.insn) return n.bits;
    const m = bitsMemo[i]!;
    if (m !== NO_BITS) return m;
    if (depth > 40) return 32;
    bitsMemo[i] = 32; // cycles: unknown
    const c = df.computeOf(n.site.insn)!;
    const a = srcBits(n, si, c.a, depth);
    const bb = srcBits(n, si, c.b, depth);
    const shift = c.b && 'k' in c.b ? c.b.k & 31 : -1;
    let r = 32;
    switch (c.op) {
      case 'const': r = bitsOfConst(c.b && 'k' in c.b ? c.b.k : -1); break;
      case 'and': r = Math.min(a, bb); break;
      case 'or': case 'xor': r = Math.max(a, bb); break;
      case 'add': r = a < 32 && bb < 32 ? Math.min(32, Math.max(a, bb) + 1) : 32; break;
      case 'slt': case 'sltu': r = 1; break;
      case 'ldro': { const m = n.site.insn.mem!; r = m.size < 4 && !m.signed ? 8 * m.size : 32; break; }
      case 'srl': r = shift < 0 ? 32 : a < 32 ? Math.max(0, a - shift) : 32 - shift; break;
      case 'sra': r = shift >= 0 && a < 32 ? Math.max(0, a - shift) : 32; break;
      case 'sll': r = shift >= 0 && a < 32 ? Math.min(32, a + shift) : 32; break;
      default: r = 32;
    }
    bitsMemo[i] = r;
    return r;
  };
  for (let i = 0; i < list.length; i++) {
    const n = list[i]!;
    if (n.srcs && n.reg >= 0) n.bits = bitsOf(i, 0);
  }
  const widthOf = (n: Node): number => {
    if (n.bits < 0) return n.bits / 8;
    return n.bits <= 8 ? 1 : n.bits <= 16 ? 2 : 4;
  };
  // An address sum's record is one instruction longer than a 4-byte record of a register (the
  // add): at equal bytes, the registers' records win.
  const recCost = (n: Node): number => (!n.recordable ? Infinity : n.reg === BUNDLE ? (n.bits / 8) * n.freq
    : n.reg === SUM ? 4.001 * n.freq : n.reg === PRED ? n.freq : Math.abs(widthOf(n)) * n.freq);

  // Minimum vertex cut between the impossible definitions and the roots (max-flow, min-cut):
  // a node is available when recorded or when all its sources are, so every path from an
  // impossible definition to a root must cross a recorded node. Node k is split into k_in -> k_out
  // with capacity its recording cost; a computable node's sources feed its k_in; a source S feeds
  // every impossible node; every root feeds the sink T.
  const INF = 1e18;
  const N = 2 * list.length + 2;
  const S = N - 2;
  const T = N - 1;
  // Arcs: two per edge; at most one edge per node, per source of a node (or from S), per root.
  let edges = rootKeys.length;
  for (let i = 0; i < list.length; i++) edges += 1 + (list[i]!.srcs?.length ?? 1);
  const flow = new MaxFlow(N, 2 * edges);
  // Each source once, in order of first appearance (stamp: the node whose sources saw it last).
  const stamp = scratch.i32(0, list.length).fill(-1, 0, list.length);
  for (let i = 0; i < list.length; i++) {
    const n = list[i]!;
    flow.add(2 * i, 2 * i + 1, Math.min(recCost(n), INF));
    const si = srcIdx[i];
    if (si) {
      for (let k = 0; k < si.length; k++) {
        const j = si[k]!;
        if (stamp[j] === i) continue;
        stamp[j] = i;
        flow.add(2 * j + 1, 2 * i, INF);
      }
    } else flow.add(S, 2 * i, INF);
  }
  // The roots, each once, in order of first appearance.
  const rootIdx = rootKeys.map(idxOf);
  const isRoot = scratch.u8(0, list.length).fill(0, 0, list.length);
  for (const i of rootIdx) {
    if (isRoot[i] === 1) continue;
    isRoot[i] = 1;
    flow.add(2 * i + 1, T, INF);
  }
  flow.run(S, T);
  const side = flow.reachable(S);
  // Per node: 1 when recorded (its k_in on the source side, its k_out not).
  const record = scratch.u8(1, list.length).fill(0, 0, list.length);
  for (let i = 0; i < list.length; i++) if (side[2 * i] === 1 && side[2 * i + 1] === 0) record[i] = 1;

  // What the roots need.
  const provided = new Set<number>();
  bundleKeys.forEach((k, i) => {
    if (record[idxOf(k)] === 0) provided.add(i);
  });
  const sumSet = new Set<number>();
  sumKeys.forEach((k, i) => {
    if (record[idxOf(k)] === 1) sumSet.add(i);
  });
  const computed = new Set<number>();
  const recorded = new Map<number, Map<number, number>>();
  const done = scratch.u8(2, list.length).fill(0, 0, list.length);
  const work = rootIdx;
  while (work.length > 0) {
    const i = work.pop()!;
    if (done[i] === 1) continue;
    done[i] = 1;
    const n = list[i]!;
    const si = srcIdx[i];
    if (n.reg === BUNDLE || n.reg === SUM || n.reg === PRED) {
      if (record[i] === 0) for (let k = 0; k < si!.length; k++) work.push(si![k]!);
      continue;
    }
    if (si && record[i] === 0) {
      computed.add(n.site.id);
      for (let k = 0; k < si.length; k++) work.push(si[k]!);
      continue;
    }
    if (!n.recordable) throw new Error(`${cfg.func.name}: ${isa.regName(isa.uncanon(n.reg).reg)} at 0x${(n.site.insn?.addr ?? 0).toString(16)} is needed but can be neither computed nor recorded`);
    let m = recorded.get(n.site.id);
    if (!m) recorded.set(n.site.id, (m = new Map()));
    m.set(n.reg, widthOf(n));
  }
  return {
    computed, recorded, provided, sums: sumSet,
    width: (site, reg) => recorded.get(site)?.get(reg) ?? 4,
  };
}

/**
 * Scratch arrays shared by successive cuts (chooseCut is not reentrant, and keeps none of them
 * past its return): by kind and slot, one array at least as long as any asked for, whose contents
 * are left over; the taker fills or writes the part it uses (indices below the length it asked for).
 */
const scratch = (() => {
  const pools = { i8: [] as Int8Array[], u8: [] as Uint8Array[], i32: [] as Int32Array[], f64: [] as Float64Array[] };
  const take = <T extends Int8Array | Uint8Array | Int32Array | Float64Array>(pool: T[], slot: number, n: number, make: (n: number) => T): T => {
    let a = pool[slot];
    if (!a || a.length < n) pool[slot] = a = make(Math.max(n, 2 * (a?.length ?? 0), 64));
    return a;
  };
  return {
    i8: (slot: number, n: number): Int8Array => take(pools.i8, slot, n, (m) => new Int8Array(m)),
    u8: (slot: number, n: number): Uint8Array => take(pools.u8, slot, n, (m) => new Uint8Array(m)),
    i32: (slot: number, n: number): Int32Array => take(pools.i32, slot, n, (m) => new Int32Array(m)),
    f64: (slot: number, n: number): Float64Array => take(pools.f64, slot, n, (m) => new Float64Array(m)),
  };
})();

/**
 * Dinic's maximum flow on a small graph with real capacities (residual capacities at most 1e-9
 * count as saturated). Arcs are numbered in the order they are added, an edge's residual right
 * after it; the augmenting paths are found in that order, so the same network gives the same flow.
 * The arc tables are typed arrays of a fixed size, `arcs` at most. `open` holds, per arc, whether
 * its residual capacity is above 1e-9 (updated with every change of `cap`): the searches read it
 * instead of the capacity, a double that V8's baseline code boxes on every read.
 */
class MaxFlow {
  private readonly head: Int32Array;
  private readonly to: Int32Array;
  private readonly cap: Float64Array;
  private readonly open: Uint8Array;
  private readonly next: Int32Array;
  private count = 0;
  constructor(readonly n: number, arcs: number) {
    this.head = scratch.i32(1, n).fill(-1, 0, n);
    this.to = scratch.i32(2, arcs);
    this.cap = scratch.f64(0, arcs);
    this.open = scratch.u8(4, arcs);
    this.next = scratch.i32(3, arcs);
  }
  /** Edge u -> v of capacity c, and its residual v -> u (the edge's id xor 1). */
  add(u: number, v: number, c: number): void {
    const { head, to, cap, open, next } = this;
    let a = this.count;
    to[a] = v;
    cap[a] = c;
    open[a] = c > 1e-9 ? 1 : 0;
    next[a] = head[u]!;
    head[u] = a++;
    to[a] = u;
    cap[a] = 0;
    open[a] = 0;
    next[a] = head[v]!;
    head[v] = a++;
    this.count = a;
  }
  run(s: number, t: number): number {
    const { head, to, cap, open, next } = this;
    let total = 0;
    const n = this.n;
    const level = scratch.i32(4, n);
    const it = scratch.i32(5, n);
    const q = scratch.i32(6, n);
    const path = scratch.i32(7, n);
    for (;;) {
      // Levels from s, up to t's: every vertex of a shorter distance has its level when t gets
      // its own, and a vertex as far as t or farther is on no level-increasing path to t (the
      // blocking flow would only find it a dead end).
      level.fill(-1, 0, n);
      level[s] = 0;
      q[0] = s;
      let qn = 1;
      bfs: for (let qi = 0; qi < qn; qi++) {
        const u = q[qi]!;
        const lu = level[u]! + 1;
        for (let e = head[u]!; e >= 0; e = next[e]!) {
          const v = to[e]!;
          if (open[e] === 1 && level[v]! < 0) {
            level[v] = lu;
            if (v === t) break bfs;
            q[qn++] = v;
          }
        }
      }
      if (level[t]! < 0) return total;
      it.set(head.subarray(0, n));
      // Blocking flow: augmenting paths along level-increasing arcs, in depth-first order from s
      // (iteratively). After an augmentation the walk resumes at the tail of the path's first arc
      // left saturated (residual at most 1e-9): a walk from s would take the same arcs up to it,
      // each vertex's current arc (it) being the path's.
      let len = 0;
      let u = s;
      for (;;) {
        if (u === t) {
          let f = Infinity;
          for (let k = 0; k < len; k++) f = Math.min(f, cap[path[k]!]!);
          for (let k = 0; k < len; k++) {
            const e = path[k]!;
            cap[e] -= f;
            cap[e ^ 1] += f;
            open[e] = cap[e]! > 1e-9 ? 1 : 0;
            open[e ^ 1] = cap[e ^ 1]! > 1e-9 ? 1 : 0;
          }
          total += f;
          let k = 0;
          while (open[path[k]!] === 1) k++;
          len = k;
          u = to[path[k]! ^ 1]!;
          continue;
        }
        let e = it[u]!;
        const lu = level[u]! + 1;
        while (e >= 0 && !(open[e] === 1 && level[to[e]!] === lu)) e = next[e]!;
        it[u] = e;
        if (e < 0) {
          if (len === 0) break;
          level[u] = -1; // dead end
          u = to[path[--len]! ^ 1]!;
          continue;
        }
        path[len++] = e;
        u = to[e]!;
      }
    }
  }
  /** Vertices reachable from s in the residual graph (the source side of a minimum cut), 1 each (a scratch array: read it before the next cut). */
  reachable(s: number): Uint8Array {
    const { head, to, open, next } = this;
    const seen = scratch.u8(3, this.n).fill(0, 0, this.n);
    seen[s] = 1;
    const q = scratch.i32(4, this.n);
    q[0] = s;
    let qn = 1;
    for (let qi = 0; qi < qn; qi++) {
      const u = q[qi]!;
      for (let e = head[u]!; e >= 0; e = next[e]!) {
        const v = to[e]!;
        if (open[e] === 1 && seen[v] === 0) {
          seen[v] = 1;
          q[qn++] = v;
        }
      }
    }
    return seen;
  }
}
