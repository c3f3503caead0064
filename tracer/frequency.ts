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

/**
 * Scratch arrays kept across calls (the steps here never nest): slot k of each kind holds an array
 * of at least the length asked, its first `n` entries set to `v`. Typed arrays are allocated
 * outside the heap, at several times the cost of reusing one.
 */
const i32s: Int32Array[] = [];
const u8s: Uint8Array[] = [];
const f64s: Float64Array[] = [];

function scratchI32(k: number, n: number, v: number): Int32Array {
  let a = i32s[k];
  if (!a || a.length < n) i32s[k] = a = new Int32Array(Math.max(n, 256));
  a.fill(v, 0, n);
  return a;
}

function scratchU8(k: number, n: number): Uint8Array {
  let a = u8s[k];
  if (!a || a.length < n) u8s[k] = a = new Uint8Array(Math.max(n, 256));
  a.fill(0, 0, n);
  return a;
}

function scratchF64(k: number, n: number, v: number): Float64Array {
  let a = f64s[k];
  if (!a || a.length < n) f64s[k] = a = new Float64Array(Math.max(n, 256));
  a.fill(v, 0, n);
  return a;
}

/** Dempster–Shafer combination of two probabilities of the same outcome. */
export function combine(p: number, q: number): number {
  const a = p * q;
  const b = (1 - p) * (1 - q);
  return a / (a + b);
}

function pgraph(cfg: Cfg): PGraph {
  const entries: number[] = [];
  for (let i = 0; i < cfg.blocks.length; i++) if (cfg.blocks[i]!.entry) entries.push(i);
  // The CFG's edges serve as they are (from, to): the placement graph only reads them.
  return { n: cfg.blocks.length, exit: cfg.exit, entries, edges: cfg.edges };
}

/** The callee function start of a direct call block, if it is one. */
function calleeOf(prog: Program, b: Block): number | undefined {
  if (b.term !== 'call' || b.target === undefined) return undefined;
  const g = prog.funcAt(b.target);
  return g && g.addr === b.target ? g.addr : undefined;
}

/** Per CFG: each block's calleeOf, -1 for none (the fixed point and the frequencies ask it again and again). */
const calleesByCfg = new WeakMap<Cfg, Float64Array>();

function calleesOf(prog: Program, cfg: Cfg): Float64Array {
  let c = calleesByCfg.get(cfg);
  if (!c) {
    const blocks = cfg.blocks;
    c = new Float64Array(blocks.length).fill(-1);
    for (let i = 0; i < blocks.length; i++) {
      const x = calleeOf(prog, blocks[i]!);
      if (x !== undefined) c[i] = x;
    }
    calleesByCfg.set(cfg, c);
  }
  return c;
}

/**
 * Start addresses of the functions that do not return (see the header). `cfgs` is indexed like
 * prog.funcs.
 */
export function noReturnCallees(prog: Program, cfgs: readonly Cfg[], opts: { strict?: boolean; conservative?: ReadonlySet<number> } = {}): Set<number> {
  const declared = new Set<number>();
  for (const cfg of cfgs) {
    const callees = calleesOf(prog, cfg);
    const blocks = cfg.blocks;
    for (let i = 0; i < blocks.length; i++) {
      const c = callees[i]!;
      if (c === -1) continue;
      const b = blocks[i]!;
      if (b.succ.length === 1 && blocks[b.succ[0]!.to]!.term === 'halt') declared.add(c);
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
  const seen = scratchU8(0, cfg.blocks.length);
  const callees = calleesOf(prog, cfg);
  const work = [0];
  seen[0] = 1;
  while (work.length > 0) {
    const b = cfg.blocks[work.pop()!]!;
    if (b.term === 'return' || (strict && (b.term === 'ijump' || b.term === 'table'))) return true;
    if (b.term === 'tail' && returning(b.target)) return true;
    if (b.term === 'halt' || b.term === 'longjmp' || b.term === 'tail') continue;
    const cc = callees[b.id]!;
    const c = cc === -1 ? undefined : cc;
    if (c !== undefined && !returning(c)) continue;
    const succ = b.succ;
    for (let k = 0; k < succ.length; k++) {
      const e = succ[k]!;
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
  return Array.from(doomedFlags(prog, cfg, noReturn).subarray(0, cfg.blocks.length), (d) => d === 1);
}

/** doomedBlocks as one flag a block (1: doomed; a scratch array, read before the next call). */
function doomedFlags(prog: Program, cfg: Cfg, noReturn: ReadonlySet<number>): Uint8Array {
  const blocks = cfg.blocks;
  const n = blocks.length;
  const doomed = scratchU8(1, n);
  const left = scratchI32(0, n, 0);
  const work: number[] = [];
  const callees = calleesOf(prog, cfg);
  for (let i = 0; i < n; i++) {
    const b = blocks[i]!;
    left[i] = b.succ.length;
    let d = b.term === 'halt' || b.term === 'longjmp';
    if (!d && callees[i] !== -1) d = noReturn.has(callees[i]!);
    if (d) {
      doomed[i] = 1;
      work.push(i);
    }
  }
  while (work.length > 0) {
    const pred = blocks[work.pop()!]!.pred;
    for (let k = 0; k < pred.length; k++) {
      const u = pred[k]!.from;
      if (doomed[u]) continue;
      if (--left[u]! === 0) {
        doomed[u] = 1;
        work.push(u);
      }
    }
  }
  return doomed;
}

/** Immediate postdominators (Cooper–Harvey–Kennedy on the reverse graph from EXIT); -1: none. */
export function postDominators(cfg: Cfg): number[] {
  return Array.from(postDominatorsOf(cfg).subarray(0, cfg.blocks.length));
}

/** postDominators in an Int32Array (a scratch array, read before the next call). */
function postDominatorsOf(cfg: Cfg): Int32Array {
  const blocks = cfg.blocks;
  const n = blocks.length;
  const exit = cfg.exit;
  // Reverse postorder of the reverse graph from EXIT (a depth-first search over the predecessor
  // lists, in their order).
  const order = scratchI32(1, n, 0);
  let no = 0;
  const seen = scratchU8(2, n);
  const sv = scratchI32(2, n, 0);
  const sk = scratchI32(3, n, 0);
  let sp = 0;
  sv[sp] = exit;
  sk[sp++] = 0;
  seen[exit] = 1;
  while (sp > 0) {
    const v = sv[sp - 1]!;
    const preds = blocks[v]!.pred;
    const k = sk[sp - 1]!;
    if (k < preds.length) {
      sk[sp - 1] = k + 1;
      const u = preds[k]!.from;
      if (!seen[u]) {
        seen[u] = 1;
        sv[sp] = u;
        sk[sp++] = 0;
      }
    } else {
      order[no++] = v;
      sp--;
    }
  }
  // order[no - 1] first: the reverse of the postorder.
  const rank = scratchI32(4, n, -1);
  for (let i = 0; i < no; i++) rank[order[no - 1 - i]!] = i;
  // Successor targets of the blocks in `order`, flattened (CSR), read on every round.
  const off = scratchI32(5, no + 1, 0);
  let m = 0;
  for (let i = 0; i < no; i++) {
    off[i] = m;
    m += blocks[order[no - 1 - i]!]!.succ.length;
  }
  off[no] = m;
  const to = scratchI32(6, m, 0);
  for (let i = 0, j = 0; i < no; i++) {
    const succ = blocks[order[no - 1 - i]!]!.succ;
    for (let k = 0; k < succ.length; k++) to[j++] = succ[k]!.to;
  }
  const ipdom = scratchI32(7, n, -1);
  ipdom[exit] = exit;
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < no; i++) {
      const v = order[no - 1 - i]!;
      if (v === exit) continue;
      let nd = -1;
      for (let j = off[i]!; j < off[i + 1]!; j++) {
        const t = to[j]!;
        if (ipdom[t]! === -1) continue;
        if (nd === -1) nd = t;
        else {
          // intersect(t, nd)
          let a = t;
          let b = nd;
          while (a !== b) {
            while (rank[a]! > rank[b]!) a = ipdom[a]!;
            while (rank[b]! > rank[a]!) b = ipdom[b]!;
          }
          nd = a;
        }
      }
      if (nd !== ipdom[v]) {
        ipdom[v] = nd;
        changed = true;
      }
    }
  }
  ipdom[exit] = -1;
  return ipdom;
}

/** Only read: findLoops hands the same one to every caller of the same CFG. */
export interface Loops {
  /** 1 for a back edge (indexed like cfg.edges). */
  readonly isBack: Uint8Array;
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
  const isBack = new Uint8Array(cfg.edges.length);
  for (const ei of back) isBack[ei] = 1;
  const inner = new Array<number>(cfg.blocks.length).fill(-1);
  if (back.size === 0) {
    const out = { isBack, loops: new Map<number, ReadonlySet<number>>(), inner };
    loopsOf.set(cfg, out);
    return out;
  }
  const loops = naturalLoops(g, [...back].sort((a, b) => a - b));
  const size = (h: number): number => (h === -1 ? Infinity : loops.get(h)!.size);
  for (const [h, loop] of loops) for (const v of loop) if (size(h) < size(inner[v]!) || (size(h) === size(inner[v]!) && h < inner[v]!)) inner[v] = h;
  const out = { isBack, loops, inner };
  loopsOf.set(cfg, out);
  return out;
}

/** Probability of each edge (indexed like cfg.edges). */
export function edgeProbabilities(prog: Program, cfg: Cfg, noReturn: ReadonlySet<number>, opts: FrequencyOptions = {}, loops = findLoops(cfg)): number[] {
  const oNoReturn = opts.noReturn ?? true;
  const oLoop = opts.loop ?? true;
  const oCall = opts.call ?? true;
  const oRet = opts.ret ?? true;
  const oOpcode = opts.opcode ?? true;
  const blocks = cfg.blocks;
  const prob = new Array<number>(cfg.edges.length).fill(0);
  const doomed = oNoReturn ? doomedFlags(prog, cfg, noReturn) : undefined;
  // The postdominators only where the call heuristic asks (a call block as a branch's successor).
  let ipdom: Int32Array | undefined;
  const isBack = loops.isBack;
  for (let bi = 0; bi < blocks.length; bi++) {
    const b = blocks[bi]!;
    const succ = b.succ;
    const n = succ.length;
    if (n === 0) continue;
    if (n !== 2 || b.term !== 'branch') {
      for (let k = 0; k < n; k++) prob[succ[k]!.id] = 1 / n;
      continue;
    }
    const a = succ[0]!;
    const c = succ[1]!;
    const ta = blocks[a.to]!;
    const tc = blocks[c.to]!;
    let p = 0.5; // probability of a
    if (doomed && doomed[a.to] !== doomed[c.to]) p = combine(p, doomed[a.to] ? 1 - P_NORETURN : P_NORETURN);
    if (oLoop) {
      const ba = isBack[a.id] === 1;
      const bc = isBack[c.id] === 1;
      if (ba !== bc) p = combine(p, ba ? P_LOOP_BRANCH : 1 - P_LOOP_BRANCH);
      else {
        const h = loops.inner[b.id]!;
        if (h !== -1) {
          const L = loops.loops.get(h)!;
          const xa = !L.has(a.to);
          const xc = !L.has(c.to);
          if (xa !== xc) p = combine(p, xa ? 1 - P_LOOP_EXIT : P_LOOP_EXIT);
        }
      }
    }
    if (oCall) {
      const callA = ta.term === 'call' || ta.term === 'icall';
      const callC = tc.term === 'call' || tc.term === 'icall';
      if (callA || callC) {
        ipdom ??= postDominatorsOf(cfg);
        const ca = callA && !postdominates(ipdom, a.to, b.id);
        const cc = callC && !postdominates(ipdom, c.to, b.id);
        if (ca !== cc) p = combine(p, ca ? 1 - P_CALL : P_CALL);
      }
    }
    if (oRet) {
      const ra = returns(cfg, ta);
      const rc = returns(cfg, tc);
      if (ra !== rc) p = combine(p, ra ? 1 - P_RETURN : P_RETURN);
    }
    if (oOpcode && a.to !== c.to) {
      const name = b.insns[b.insns.length - 1]?.name ?? '';
      const taken = a.kind === 'taken' ? a : c.kind === 'taken' ? c : undefined;
      const negTaken = name === 'bltz' || name === 'blez';
      const posTaken = name === 'bgez' || name === 'bgtz';
      if (taken && (negTaken || posTaken)) {
        const pt = negTaken ? 1 - P_OPCODE : P_OPCODE;
        p = combine(p, taken === a ? pt : 1 - pt);
      }
    }
    prob[a.id] = p;
    prob[c.id] = 1 - p;
  }
  return prob;
}

/** True when block s postdominates block v (ipdom: postDominatorsOf). */
function postdominates(ipdom: Int32Array, s: number, v: number): boolean {
  for (let x = v; x !== -1; x = ipdom[x]!) if (x === s) return true;
  return false;
}

/** Ball–Larus: the block returns, or passes control unconditionally to a block that does. */
function returns(cfg: Cfg, t: Block): boolean {
  for (let k = 0; k < RETURN_CHAIN; k++) {
    if (t.term === 'return') return true;
    if (t.succ.length !== 1 || (t.term !== 'fall' && t.term !== 'branch')) return false;
    t = cfg.blocks[t.succ[0]!.to]!;
  }
  return t.term === 'return';
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
  const blocks = cfg.blocks;
  const edges = cfg.edges;
  const n = blocks.length;
  const m = edges.length;
  const isBack = loops.isBack;
  // Topological order of the back-edge-free graph (Kahn, smallest id first; the successors a
  // block makes ready are taken smallest first, before what was ready already).
  const indeg = scratchI32(8, n, 0);
  for (let i = 0; i < m; i++) if (!isBack[i]) indeg[edges[i]!.to]!++;
  const topo = scratchI32(9, n, 0);
  let nt = 0;
  const ready = scratchI32(10, n, 0);
  let rp = 0;
  for (let v = n - 1; v >= 0; v--) if (indeg[v] === 0) ready[rp++] = v;
  while (rp > 0) {
    const v = ready[--rp]!;
    topo[nt++] = v;
    const succ = blocks[v]!.succ;
    const first = rp;
    for (let k = 0; k < succ.length; k++) {
      const e = succ[k]!;
      if (!isBack[e.id] && --indeg[e.to]! === 0) ready[rp++] = e.to;
    }
    // Descending, so that the smallest is popped first.
    for (let i = first + 1; i < rp; i++) {
      const x = ready[i]!;
      let j = i - 1;
      while (j >= first && ready[j]! < x) {
        ready[j + 1] = ready[j]!;
        j--;
      }
      ready[j + 1] = x;
    }
  }
  const rank = scratchI32(11, n, -1);
  for (let i = 0; i < nt; i++) rank[topo[i]!] = i;
  // Cyclic probability per loop header already propagated (inner loops first; NaN: none yet).
  const cp = scratchF64(0, n, NaN);
  // Per loop header: the factor its exit edges are scaled by so that, with its header at
  // LOOP_MULTIPLIER times its entries, they carry out exactly what entered (NaN: none).
  const factor = scratchF64(1, n, NaN);
  // The headers of the loops each edge leaves, in the loops' order (most edges leave none).
  const exitsOf: (number[] | undefined)[] = new Array(m);
  for (const [h, L] of loops.loops) {
    for (const v of L) {
      const succ = blocks[v]!.succ;
      for (let k = 0; k < succ.length; k++) {
        const e = succ[k]!;
        if (L.has(e.to)) continue;
        const l = exitsOf[e.id];
        if (l) l.push(h);
        else exitsOf[e.id] = [h];
      }
    }
  }
  const all = new Array<number>(m).fill(0);
  // A loop's run visits its members in topological order (those in it). An edge's frequency is
  // read only after its source, a member earlier in that order, has set it in the same run, so
  // one array serves every run; block frequencies are those of the whole function's run.
  const bf = new Array<number>(n).fill(0);
  const ef = scratchF64(2, m, 0);
  const member = scratchU8(3, n);
  const order = scratchI32(12, n, 0);
  const c = 1 - 1 / LOOP_MULTIPLIER;
  const headers = [...loops.loops.keys()].sort((x, y) => loops.loops.get(x)!.size - loops.loops.get(y)!.size || x - y);
  // Each loop (innermost first) with its header at frequency 1, then the whole function (head -1):
  // every block's frequency is set afresh.
  for (let hi = 0; hi <= headers.length; hi++) {
    const whole = hi === headers.length;
    const head = whole ? -1 : headers[hi]!;
    let no = 0;
    if (whole) {
      for (let i = 0; i < nt; i++) order[i] = topo[i]!;
      no = nt;
    } else {
      for (const v of loops.loops.get(head)!) {
        member[v] = 1;
        if (rank[v]! >= 0) order[no++] = v;
      }
      order.subarray(0, no).sort((x, y) => rank[x]! - rank[y]!);
    }
    let exitSum = 0;
    for (let i = 0; i < no; i++) {
      const v = order[i]!;
      const b = blocks[v]!;
      let f: number;
      if (!whole && v === head) f = 1;
      else {
        f = whole && b.entry ? 1 : 0;
        const pred = b.pred;
        for (let k = 0; k < pred.length; k++) {
          const e = pred[k]!;
          if (!isBack[e.id] && (whole || member[e.from] === 1)) f += ef[e.id]!;
        }
        const cv = cp[v]!;
        if (!Number.isNaN(cv)) f /= 1 - cv;
      }
      if (whole) bf[v] = f;
      const succ = b.succ;
      for (let k = 0; k < succ.length; k++) {
        const e = succ[k]!;
        let scale = 1;
        const hs = exitsOf[e.id];
        if (hs) {
          for (let j = 0; j < hs.length; j++) {
            const fh = factor[hs[j]!]!;
            scale *= Number.isNaN(fh) ? 1 : fh;
          }
        }
        const x = f * prob[e.id]! * scale;
        if (!isBack[e.id]) ef[e.id] = x;
        if (whole) all[e.id] = x;
        else if (member[e.to] !== 1) exitSum += x;
      }
    }
    if (!whole) {
      for (const v of loops.loops.get(head)!) member[v] = 0;
      cp[head] = c;
      if (exitSum > 0) factor[head] = (1 - c) / exitSum;
    }
  }
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
