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
import type { Isa } from './isa.js';

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
  srcs: number[] | null;
  freq: number;
  /** Unsigned bit width of the value (32: unknown), or negative: signed narrow load. */
  bits: number;
  recordable: boolean;
}

/**
 * A node's key: (definition site, canonical register) packed in one number, site × 2^24 + register
 * + 2^23 (canonical registers lie within ±2^23: tracer/isa.ts, tracer/slots.ts SLOT_BASE), so >= 0;
 * the bundle, sum and predicate nodes have negative keys (bundleKey, sumKey, predKey).
 */
const key = (site: number, reg: number): number => site * 0x1000000 + reg + 0x800000;
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

export function chooseCut(cfg: Cfg, isa: Isa, df: Dataflow, roots: Root[], bundles: readonly Bundle[], sums: readonly SumRoot[],
  freq: readonly number[], preds: readonly PredRoot[] = []): Cut {
  // freq: block frequencies, the static estimate (tracer/frequency.ts).
  const siteFreq = (s: Site): number => Math.max(freq[s.block] ?? 1, 1e-6);

  const recordableReg = (canonReg: number): boolean => {
    const r = isa.uncanon(canonReg).reg;
    return r > 0 && r < 32 && !isa.reserved.includes(r);
  };

  // The slice graph.
  const nodes = new Map<number, Node>();
  const list: Node[] = [];
  const addNode = (n: Node): void => {
    nodes.set(n.key, n);
    list.push(n);
  };
  const rootKeys: number[] = [];
  const expand = (state: State, reg: number, into: number[]): void => {
    for (const id of df.reaching(state, reg)) into.push(key(id, reg));
  };
  const pending: number[] = [];
  const noRecord = new Set<number>();
  /** The definitions reaching root r, appended to `into` and queued; a value the delay slot of
   * r's call defines cannot be recorded for the call. */
  const expandRoot = (r: Root, into: number[]): void => {
    for (const id of df.reaching(r.state, r.reg)) {
      const k = key(id, r.reg);
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
  while (pending.length > 0) {
    const k = pending.pop()!;
    if (nodes.has(k)) continue;
    const sid = Math.floor(k / 0x1000000);
    const reg = k - sid * 0x1000000 - 0x800000;
    const site = df.sites[sid]!;
    const c = site.insn ? df.computeOf(site.insn) : undefined;
    // A value a delay slot defines is recorded after the slot on the out-edges: impossible where
    // control leaves the function, too late for what a call needs at the call.
    const leaves = site.kind === 'ds' && cfg.blocks[site.block]!.succ.some((e) => {
      const t = cfg.blocks[e.to]!.term;
      return t === 'exit' || t === 'tail';
    });
    const node: Node = { key: k, idx: list.length, site, reg, srcs: null, freq: siteFreq(site), bits: 32, recordable: recordableReg(reg) && !leaves && !noRecord.has(k) };
    addNode(node);
    if (df.knows(site, reg)) {
      // Regeneration knows it (a callee's return value, a register carried into an entry): free,
      // never recorded here.
      node.srcs = [];
    } else if (c && df.computes(site, reg)) {
      const o = df.operands(site);
      node.srcs = [];
      for (const r of o.regs) expand(o.state, r, node.srcs);
      for (const s of node.srcs) pending.push(s);
    } else if (site.insn?.mem && site.insn.mem.kind === 'load' && site.insn.mem.size < 4) {
      node.bits = site.insn.mem.signed ? -site.insn.mem.size * 8 : site.insn.mem.size * 8;
    }
  }

  // No gate on where a sum may be offered: with the Ball–Larus equal split the failing side of a
  // guard that never fails (li's `eval` pushes) priced error-path loads as half of all runs, and a
  // sum gate was needed against that; the static estimate prices those paths as rare itself, and
  // the gate only lost sums there (SPARC li: 1.263 bytes/ref with it, 1.235 without, docs/tracer.md).

  // Bit widths of computable nodes (a fixed point from "unknown" downwards is unsafe with
  // cycles: nodes on cycles stay 32).
  const bitsMemo = new Map<number, number>();
  const bitsOf = (k: number, depth: number): number => {
    const n = nodes.get(k)!;
    if (!n.srcs || !n.site.insn) return n.bits;
    const m = bitsMemo.get(k);
    if (m !== undefined) return m;
    if (depth > 40) return 32;
    bitsMemo.set(k, 32); // cycles: unknown
    const c = df.computeOf(n.site.insn!)!;
    const srcBits = (x: typeof c.a): number => {
      if (!x) return 0;
      if ('k' in x) return bitsOfConst(x.k);
      if (x.r === 0) return 0;
      // The value of a source is whichever definition reaches: the widest.
      const b = n.site.kind === 'insn' ? cfg.blocks[n.site.block]! : cfg.blocks[n.site.block]!;
      void b;
      const canon = isa.canon(x.r, n.site.depth);
      let mx = 0;
      for (const sk of n.srcs!) {
        if (nodes.get(sk)!.reg !== canon) continue;
        const v = bitsOf(sk, depth + 1);
        mx = Math.max(mx, v < 0 ? 32 : v);
      }
      return mx;
    };
    const a = srcBits(c.a);
    const bb = srcBits(c.b);
    const shift = c.b && 'k' in c.b ? c.b.k & 31 : -1;
    let r = 32;
    switch (c.op) {
      case 'const': r = bitsOfConst(c.b && 'k' in c.b ? c.b.k : -1); break;
      case 'and': r = Math.min(a, bb); break;
      case 'or': case 'xor': r = Math.max(a, bb); break;
      case 'add': r = a < 32 && bb < 32 ? Math.min(32, Math.max(a, bb) + 1) : 32; break;
      case 'slt': case 'sltu': r = 1; break;
      case 'ldro': { const m = n.site.insn!.mem!; r = m.size < 4 && !m.signed ? 8 * m.size : 32; break; }
      case 'srl': r = shift < 0 ? 32 : a < 32 ? Math.max(0, a - shift) : 32 - shift; break;
      case 'sra': r = shift >= 0 && a < 32 ? Math.max(0, a - shift) : 32; break;
      case 'sll': r = shift >= 0 && a < 32 ? Math.min(32, a + shift) : 32; break;
      default: r = 32;
    }
    bitsMemo.set(k, r);
    return r;
  };
  for (const n of list) if (n.srcs && n.reg >= 0) n.bits = bitsOf(n.key, 0);
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
  const flow = new MaxFlow(N);
  // Each source once, in order of first appearance (stamp: the node whose sources saw it last).
  const stamp = new Int32Array(list.length).fill(-1);
  for (let i = 0; i < list.length; i++) {
    const n = list[i]!;
    flow.add(2 * i, 2 * i + 1, Math.min(recCost(n), INF));
    if (n.srcs) {
      for (const s2 of n.srcs) {
        const j = nodes.get(s2)!.idx;
        if (stamp[j] === i) continue;
        stamp[j] = i;
        flow.add(2 * j + 1, 2 * i, INF);
      }
    } else flow.add(S, 2 * i, INF);
  }
  for (const k of new Set(rootKeys)) flow.add(2 * nodes.get(k)!.idx + 1, T, INF);
  flow.run(S, T);
  const side = flow.reachable(S);
  const record = new Set<number>();
  for (let i = 0; i < list.length; i++) if (side[2 * i] && !side[2 * i + 1]) record.add(list[i]!.key);

  // What the roots need.
  const provided = new Set<number>();
  bundleKeys.forEach((k, i) => {
    if (!record.has(k)) provided.add(i);
  });
  const sumSet = new Set<number>();
  sumKeys.forEach((k, i) => {
    if (record.has(k)) sumSet.add(i);
  });
  const computed = new Set<number>();
  const recorded = new Map<number, Map<number, number>>();
  const done = new Set<number>();
  const work = [...rootKeys];
  while (work.length > 0) {
    const k = work.pop()!;
    if (done.has(k)) continue;
    done.add(k);
    const n = nodes.get(k)!;
    if (n.reg === BUNDLE || n.reg === SUM || n.reg === PRED) {
      if (!record.has(k)) for (const s of n.srcs!) work.push(s);
      continue;
    }
    if (n.srcs && !record.has(k)) {
      computed.add(n.site.id);
      for (const s of n.srcs) work.push(s);
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

/** Dinic's maximum flow on a small graph with real capacities. */
class MaxFlow {
  private readonly head: Int32Array;
  private readonly to: number[] = [];
  private readonly cap: number[] = [];
  private readonly next: number[] = [];
  constructor(readonly n: number) {
    this.head = new Int32Array(n).fill(-1);
  }
  /** Edge u -> v of capacity c, and its residual v -> u (the edge's id xor 1). */
  add(u: number, v: number, c: number): void {
    this.arc(u, v, c);
    this.arc(v, u, 0);
  }
  private arc(a: number, b: number, x: number): void {
    this.to.push(b);
    this.cap.push(x);
    this.next.push(this.head[a]!);
    this.head[a] = this.to.length - 1;
  }
  run(s: number, t: number): number {
    let total = 0;
    const level = new Int32Array(this.n);
    const it = new Int32Array(this.n);
    for (;;) {
      level.fill(-1);
      level[s] = 0;
      const q = [s];
      for (let qi = 0; qi < q.length; qi++) {
        const u = q[qi]!;
        for (let e = this.head[u]!; e >= 0; e = this.next[e]!) {
          if (this.cap[e]! > 1e-9 && level[this.to[e]!]! < 0) {
            level[this.to[e]!] = level[u]! + 1;
            q.push(this.to[e]!);
          }
        }
      }
      if (level[t]! < 0) return total;
      it.set(this.head);
      for (;;) {
        const f = this.push(s, t, Infinity, level, it);
        if (f <= 1e-9) break;
        total += f;
      }
    }
  }
  /** Iterative blocking-flow augmentation along level-increasing edges. */
  private push(s: number, t: number, limit: number, level: Int32Array, it: Int32Array): number {
    const path: number[] = [];
    let u = s;
    for (;;) {
      if (u === t) {
        let f = limit;
        for (const e of path) f = Math.min(f, this.cap[e]!);
        for (const e of path) {
          this.cap[e]! -= f;
          this.cap[e ^ 1]! += f;
        }
        return f;
      }
      let e = it[u]!;
      while (e >= 0 && !(this.cap[e]! > 1e-9 && level[this.to[e]!] === level[u]! + 1)) e = this.next[e]!;
      it[u] = e;
      if (e < 0) {
        if (path.length === 0) return 0;
        level[u] = -1; // dead end
        const back = path.pop()!;
        u = this.to[back ^ 1]!;
        continue;
      }
      path.push(e);
      u = this.to[e]!;
    }
  }
  /** Vertices reachable from s in the residual graph (the source side of a minimum cut). */
  reachable(s: number): boolean[] {
    const seen = new Array<boolean>(this.n).fill(false);
    seen[s] = true;
    const q = [s];
    for (let qi = 0; qi < q.length; qi++) {
      const u = q[qi]!;
      for (let e = this.head[u]!; e >= 0; e = this.next[e]!) {
        if (this.cap[e]! > 1e-9 && !seen[this.to[e]!]) {
          seen[this.to[e]!] = true;
          q.push(this.to[e]!);
        }
      }
    }
    return seen;
  }
}
