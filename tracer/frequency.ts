/**
 * Static block- and edge-frequency estimate for the cut's cost model (tracer/cut.ts) and the
 * price of a predicate's witnesses (tracer/pred_cost.ts) only: the witness placement itself keeps
 * the Ball–Larus weighting of tracer/weight.ts (issue 6).
 *
 * Branch probabilities (ball-larus-1993 "Branch prediction for free", section 3; combined as in
 * wu-larus-1994 with Dempster–Shafer, p ⊕ q = pq / (pq + (1-p)(1-q))), for a block with exactly
 * two out-edges:
 *   - no-return: a successor from which every path ends in a call to a function that does not
 *     return (exit, abort, longjmp, an error routine that longjmps), a halt, or a longjmp is
 *     taken with probability P_NORETURN;
 *   - loop branch: a back edge is taken with P_LOOP_BRANCH against a non-back edge;
 *   - loop exit: an edge that leaves the innermost loop of the block, against one that stays in
 *     it, is taken with 1 - P_LOOP_EXIT;
 *   - call: a successor that is a call block and does not postdominate the branch is taken with
 *     1 - P_CALL;
 *   - return: a successor that returns, or passes control unconditionally to a block that
 *     returns (a chain of up to RETURN_CHAIN blocks: an error path storing its message and
 *     jumping to the shared epilogue), is taken with 1 - P_RETURN;
 *   - opcode (MIPS bltz/blez/bgez/bgtz): "less than zero" is taken with 1 - P_OPCODE.
 * Other blocks split equally among their out-edges (jump tables, recorded jumps).
 *
 * Block frequencies (after wu-larus-1994 section 4): loops from the innermost out, each propagated
 * with its header at frequency 1; a header then receives LOOP_MULTIPLIER times what enters it,
 * as in the Ball–Larus weighting (the heuristics' own trip counts, 1 / (1 - the probability of
 * coming back), are 1.5 to 5 for loops with several exits and measured worse: compress's
 * `lzw_decompress` main loop ran 1.4 times), and the loop's exit edges are scaled so that they
 * carry out what entered. The probabilities distribute each loop's frequency inside it and among
 * its exits. Entries receive 1 each (the virtual EXIT -> entry edges). Deterministic: only the
 * graph's order is used.
 *
 * Which functions do not return is found over the whole program (`noReturnCallees`): a function
 * returns if its root reaches a `return` block (or a tail jump to a function that returns, or an
 * unknown one) without passing through a call to a function that does not return; the least
 * fixed point from "none returns". A callee whose call the compiler followed by padding (a halt
 * vertex, tracer/cfg.ts) is taken not to return as well: the CFG already ends those calls there
 * (the C library declared it noreturn: `exit`, whose `_exit` wrapper has a return path after its
 * system call). `strict` (what the dataflow may rely on, tracer/dataflow.ts
 * DataflowOptions.noReturn) trusts nothing else: a function with a role (setjmp, longjmp, ...),
 * a conservative one, or one reaching an indirect jump (a tail call through a register) may
 * return.
 */
import type { Block, Cfg } from './cfg.js';
import type { Program } from './program.js';
import { backEdges, LOOP_MULTIPLIER, naturalLoops, type PGraph } from './weight.js';

export const P_NORETURN = 0.999;
export const P_LOOP_BRANCH = 0.88;
export const P_LOOP_EXIT = 0.8;
export const P_CALL = 0.78;
export const P_RETURN = 0.72;
export const P_OPCODE = 0.84;
/** Blocks followed to find a return behind a successor (its unconditional chain). */
export const RETURN_CHAIN = 3;

/** Which heuristics apply (all by default; the bench and the tests switch them). */
export interface FrequencyOptions {
  noReturn?: boolean;
  loop?: boolean;
  call?: boolean;
  ret?: boolean;
  opcode?: boolean;
}

/** Dempster–Shafer combination of two probabilities of the same outcome. */
export function combine(p: number, q: number): number {
  const a = p * q;
  const b = (1 - p) * (1 - q);
  return a / (a + b);
}

function pgraph(cfg: Cfg): PGraph {
  return {
    n: cfg.blocks.length, exit: cfg.exit, entries: cfg.blocks.filter((b) => b.entry).map((b) => b.id),
    edges: cfg.edges.map((e) => ({ from: e.from, to: e.to })),
  };
}

/** The callee function start of a direct call block, if it is one. */
function calleeOf(prog: Program, b: Block): number | undefined {
  if (b.term !== 'call' || b.target === undefined) return undefined;
  const g = prog.funcAt(b.target);
  return g && g.addr === b.target ? g.addr : undefined;
}

/**
 * Start addresses of the functions that do not return (see the header). `cfgs` is indexed like
 * prog.funcs.
 */
export function noReturnCallees(prog: Program, cfgs: readonly Cfg[], opts: { strict?: boolean; conservative?: ReadonlySet<number> } = {}): Set<number> {
  const declared = new Set<number>();
  for (const cfg of cfgs) {
    for (const b of cfg.blocks) {
      const c = calleeOf(prog, b);
      if (c === undefined) continue;
      if (b.succ.length === 1 && cfg.blocks[b.succ[0]!.to]!.term === 'halt') declared.add(c);
    }
  }
  const returns = new Set<number>();
  for (;;) {
    let changed = false;
    for (const cfg of cfgs) {
      const f = cfg.func;
      if (returns.has(f.addr) || declared.has(f.addr) || (f.role === 'longjmp' && !opts.strict)) continue;
      if ((opts.strict && (f.role !== undefined || opts.conservative?.has(f.index))) || reachesReturn(prog, cfg, returns, declared, opts.strict === true)) {
        returns.add(f.addr);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const none = new Set<number>();
  for (const cfg of cfgs) if (!returns.has(cfg.func.addr)) none.add(cfg.func.addr);
  return none;
}

function reachesReturn(prog: Program, cfg: Cfg, returns: Set<number>, declared: Set<number>, strict: boolean): boolean {
  const returning = (addr: number | undefined): boolean => {
    if (addr === undefined) return true;
    const g = prog.funcAt(addr);
    if (!g || g.addr !== addr) return true;
    return returns.has(addr) && !declared.has(addr);
  };
  const seen = new Uint8Array(cfg.blocks.length);
  const work = [0];
  seen[0] = 1;
  while (work.length > 0) {
    const b = cfg.blocks[work.pop()!]!;
    if (b.term === 'return' || (strict && (b.term === 'ijump' || b.term === 'table'))) return true;
    if (b.term === 'tail' && returning(b.target)) return true;
    if (b.term === 'halt' || b.term === 'longjmp' || b.term === 'tail') continue;
    const c = calleeOf(prog, b);
    if (c !== undefined && !returning(c)) continue;
    for (const e of b.succ) {
      // A call whose only edge is to EXIT is a tail call: it returns if its callee does.
      if (e.to === cfg.exit) {
        if ((b.term === 'call' || b.term === 'icall') && returning(c)) return true;
        continue;
      }
      if (!seen[e.to]) {
        seen[e.to] = 1;
        work.push(e.to);
      }
    }
  }
  return false;
}

/** Blocks from which every path ends without returning (least fixed point from the sinks). */
export function doomedBlocks(prog: Program, cfg: Cfg, noReturn: ReadonlySet<number>): boolean[] {
  const doomed = cfg.blocks.map((b) => {
    if (b.term === 'halt' || b.term === 'longjmp') return true;
    const c = calleeOf(prog, b);
    return c !== undefined && noReturn.has(c);
  });
  const left = cfg.blocks.map((b) => b.succ.length);
  const work: number[] = [];
  doomed.forEach((d, i) => d && work.push(i));
  while (work.length > 0) {
    const v = work.pop()!;
    for (const e of cfg.blocks[v]!.pred) {
      const u = e.from;
      if (doomed[u]) continue;
      if (--left[u]! === 0) {
        doomed[u] = true;
        work.push(u);
      }
    }
  }
  return doomed;
}

/** Immediate postdominators (Cooper–Harvey–Kennedy on the reverse graph from EXIT); -1: none. */
export function postDominators(cfg: Cfg): number[] {
  const n = cfg.blocks.length;
  // Reverse postorder of the reverse graph from EXIT.
  const order: number[] = [];
  const seen = new Uint8Array(n);
  const stack: { v: number; k: number }[] = [{ v: cfg.exit, k: 0 }];
  seen[cfg.exit] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const preds = cfg.blocks[top.v]!.pred;
    if (top.k < preds.length) {
      const u = preds[top.k++]!.from;
      if (!seen[u]) {
        seen[u] = 1;
        stack.push({ v: u, k: 0 });
      }
    } else {
      order.push(top.v);
      stack.pop();
    }
  }
  order.reverse();
  const rank = new Array<number>(n).fill(-1);
  order.forEach((v, i) => (rank[v] = i));
  const ipdom = new Array<number>(n).fill(-1);
  ipdom[cfg.exit] = cfg.exit;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rank[a]! > rank[b]!) a = ipdom[a]!;
      while (rank[b]! > rank[a]!) b = ipdom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const v of order) {
      if (v === cfg.exit) continue;
      let nd = -1;
      for (const e of cfg.blocks[v]!.succ) {
        if (ipdom[e.to]! === -1) continue;
        nd = nd === -1 ? e.to : intersect(e.to, nd);
      }
      if (nd !== ipdom[v]) {
        ipdom[v] = nd;
        changed = true;
      }
    }
  }
  ipdom[cfg.exit] = -1;
  return ipdom;
}

/** Only read: findLoops hands the same one to every caller of the same CFG. */
export interface Loops {
  readonly back: ReadonlySet<number>;
  /** Natural loop per header (union over its back edges). */
  readonly loops: ReadonlyMap<number, ReadonlySet<number>>;
  /** Innermost loop header of each block, or -1. */
  readonly inner: readonly number[];
}

/** findLoops' result per CFG: a CFG's blocks and edges do not change once built, and callers only read it. */
const loopsOf = new WeakMap<Cfg, Loops>();

/** The back edges and natural loops of a CFG (made once per CFG: the frequencies, the pricing and every slicing pass ask). */
export function findLoops(cfg: Cfg): Loops {
  const known = loopsOf.get(cfg);
  if (known) return known;
  const g = pgraph(cfg);
  const back = backEdges(g);
  const loops = naturalLoops(g, [...back].sort((a, b) => a - b));
  const inner = new Array<number>(cfg.blocks.length).fill(-1);
  const size = (h: number): number => (h === -1 ? Infinity : loops.get(h)!.size);
  for (const [h, loop] of loops) for (const v of loop) if (size(h) < size(inner[v]!) || (size(h) === size(inner[v]!) && h < inner[v]!)) inner[v] = h;
  const out = { back, loops, inner };
  loopsOf.set(cfg, out);
  return out;
}

/** Probability of each edge (indexed like cfg.edges). */
export function edgeProbabilities(prog: Program, cfg: Cfg, noReturn: ReadonlySet<number>, opts: FrequencyOptions = {}, loops = findLoops(cfg)): number[] {
  const o = { noReturn: true, loop: true, call: true, ret: true, opcode: true, ...opts };
  const prob = new Array<number>(cfg.edges.length).fill(0);
  const doomed = o.noReturn ? doomedBlocks(prog, cfg, noReturn) : [];
  const ipdom = o.call ? postDominators(cfg) : [];
  const postdominates = (s: number, v: number): boolean => {
    for (let x = v; x !== -1; x = ipdom[x]!) if (x === s) return true;
    return false;
  };
  /** Ball–Larus: the block returns, or passes control unconditionally to a block that does. */
  const returns = (t: Block): boolean => {
    for (let k = 0; k < RETURN_CHAIN; k++) {
      if (t.term === 'return') return true;
      if (t.succ.length !== 1 || (t.term !== 'fall' && t.term !== 'branch')) return false;
      t = cfg.blocks[t.succ[0]!.to]!;
    }
    return t.term === 'return';
  };
  for (const b of cfg.blocks) {
    const n = b.succ.length;
    if (n === 0) continue;
    if (n !== 2 || b.term !== 'branch') {
      for (const e of b.succ) prob[e.id] = 1 / n;
      continue;
    }
    const [a, c] = b.succ as [typeof b.succ[0], typeof b.succ[0]];
    const ta = cfg.blocks[a.to]!;
    const tc = cfg.blocks[c.to]!;
    let p = 0.5; // probability of a
    const apply = (pa: number): void => {
      p = combine(p, pa);
    };
    if (o.noReturn && doomed[a.to] !== doomed[c.to]) apply(doomed[a.to] ? 1 - P_NORETURN : P_NORETURN);
    if (o.loop) {
      const ba = loops.back.has(a.id);
      const bc = loops.back.has(c.id);
      if (ba !== bc) apply(ba ? P_LOOP_BRANCH : 1 - P_LOOP_BRANCH);
      else {
        const h = loops.inner[b.id]!;
        if (h !== -1) {
          const L = loops.loops.get(h)!;
          const xa = !L.has(a.to);
          const xc = !L.has(c.to);
          if (xa !== xc) apply(xa ? 1 - P_LOOP_EXIT : P_LOOP_EXIT);
        }
      }
    }
    if (o.call) {
      const ca = (ta.term === 'call' || ta.term === 'icall') && !postdominates(a.to, b.id);
      const cc = (tc.term === 'call' || tc.term === 'icall') && !postdominates(c.to, b.id);
      if (ca !== cc) apply(ca ? 1 - P_CALL : P_CALL);
    }
    if (o.ret) {
      const ra = returns(ta);
      const rc = returns(tc);
      if (ra !== rc) apply(ra ? 1 - P_RETURN : P_RETURN);
    }
    if (o.opcode && a.to !== c.to) {
      const name = b.insns[b.insns.length - 1]?.name ?? '';
      const taken = a.kind === 'taken' ? a : c.kind === 'taken' ? c : undefined;
      const negTaken = name === 'bltz' || name === 'blez';
      const posTaken = name === 'bgez' || name === 'bgtz';
      if (taken && (negTaken || posTaken)) {
        const pt = negTaken ? 1 - P_OPCODE : P_OPCODE;
        apply(taken === a ? pt : 1 - pt);
      }
    }
    prob[a.id] = p;
    prob[c.id] = 1 - p;
  }
  return prob;
}

/** Block frequencies from edge probabilities (see the header), indexed like cfg.blocks. */
export function propagateFrequencies(cfg: Cfg, prob: readonly number[], loops = findLoops(cfg)): number[] {
  return propagate(cfg, prob, loops).block;
}

/** Block and edge frequencies (see the header): an edge carries its block's frequency times its
 * probability, a loop's exit edges scaled so that they carry out what entered the loop. */
export interface Frequencies {
  block: number[];
  edge: number[];
}

function propagate(cfg: Cfg, prob: readonly number[], loops: Loops): Frequencies {
  const n = cfg.blocks.length;
  // Topological order of the back-edge-free graph (Kahn, smallest id first).
  const indeg = new Array<number>(n).fill(0);
  for (const e of cfg.edges) if (!loops.back.has(e.id)) indeg[e.to]!++;
  const topo: number[] = [];
  const ready: number[] = [];
  for (let v = n - 1; v >= 0; v--) if (indeg[v] === 0) ready.push(v);
  while (ready.length > 0) {
    const v = ready.pop()!;
    topo.push(v);
    const next: number[] = [];
    for (const e of cfg.blocks[v]!.succ) if (!loops.back.has(e.id) && --indeg[e.to]! === 0) next.push(e.to);
    next.sort((x, y) => y - x);
    ready.push(...next);
  }
  // Cyclic probability per loop header already propagated (inner loops first).
  const cp = new Map<number, number>();
  // Per loop header: the factor its exit edges are scaled by so that, with its header at
  // LOOP_MULTIPLIER times its entries, they carry out exactly what entered.
  const factor = new Map<number, number>();
  const exitsOf: number[][] = cfg.edges.map(() => []);
  for (const [h, L] of loops.loops) for (const v of L) for (const e of cfg.blocks[v]!.succ) if (!L.has(e.to)) exitsOf[e.id]!.push(h);
  const scale = (ei: number): number => {
    let k = 1;
    for (const h of exitsOf[ei]!) k *= factor.get(h) ?? 1;
    return k;
  };
  const all = new Array<number>(cfg.edges.length).fill(0);
  const rank = new Int32Array(n).fill(-1);
  topo.forEach((v, i) => (rank[v] = i));
  // A loop's run visits its members in topological order (those in it). An edge's frequency is
  // read only after its source, a member earlier in that order, has set it in the same run, so
  // one array serves every run; block frequencies are those of the whole function's run.
  const bf = new Array<number>(n).fill(0);
  const ef = new Array<number>(cfg.edges.length).fill(0);
  const run = (head: number, members: ReadonlySet<number> | null): void => {
    let exitSum = 0;
    const order = members ? [...members].filter((v) => rank[v]! >= 0).sort((x, y) => rank[x]! - rank[y]!) : topo;
    for (const v of order) {
      let f: number;
      if (members && v === head) f = 1;
      else {
        f = !members && cfg.blocks[v]!.entry ? 1 : 0;
        for (const e of cfg.blocks[v]!.pred) if (!loops.back.has(e.id) && (!members || members.has(e.from))) f += ef[e.id]!;
        const c = cp.get(v);
        if (c !== undefined) f /= 1 - c;
      }
      if (!members) bf[v] = f;
      for (const e of cfg.blocks[v]!.succ) {
        const x = f * prob[e.id]! * scale(e.id);
        if (!loops.back.has(e.id)) ef[e.id] = x;
        if (!members) all[e.id] = x;
        if (members && !members.has(e.to)) exitSum += x;
      }
    }
    if (members) {
      const c = 1 - 1 / LOOP_MULTIPLIER;
      cp.set(head, c);
      if (exitSum > 0) factor.set(head, (1 - c) / exitSum);
    }
  };
  const headers = [...loops.loops.keys()].sort((x, y) => loops.loops.get(x)!.size - loops.loops.get(y)!.size || x - y);
  for (const h of headers) run(h, loops.loops.get(h)!);
  // The whole function last: every block's frequency is set afresh.
  run(-1, null);
  return { block: bf, edge: all };
}

/** The cut's block frequencies for one function. */
export function blockFrequencies(prog: Program, cfg: Cfg, noReturn: ReadonlySet<number>, opts: FrequencyOptions = {}): number[] {
  return frequencies(prog, cfg, noReturn, opts).block;
}

/** The cut's block and edge frequencies for one function. */
export function frequencies(prog: Program, cfg: Cfg, noReturn: ReadonlySet<number>, opts: FrequencyOptions = {}): Frequencies {
  const loops = findLoops(cfg);
  return propagate(cfg, edgeProbabilities(prog, cfg, noReturn, opts, loops), loops);
}
