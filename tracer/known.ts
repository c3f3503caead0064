/**
 * Known functions (mazieres-smith-1994 section 5, issue 22): the string and memory functions of
 * the C library (`KNOWN_FUNCTIONS`, the project's libc and newlib name them alike) whose loops
 * stop on the data they read — strlen's word scan, strcpy's copy, strcmp's and memcmp's comparisons —
 * are traced by their stopping values instead of a witness per iteration.
 *
 * A function is recognised by its symbol AND by its code: each of its loops qualifies only when
 * the code has the shape the scheme needs, checked here instruction by instruction; a function
 * whose name is known but whose loops do not qualify is traced as any other.
 *
 * A qualifying loop is a simple cycle of blocks (each has one successor in the cycle), entered
 * through edges only (no block of it is an entry of the function), with no call, trap, register
 * window move, indirect transfer or jump table in it, at most as many data predicates (two-way
 * branches no other rule decides) as KNOWN_FUNCTIONS allows, and an induction register r that the
 * loop defines only by adding constants of one sign (`addiu r, r, c`, `add r, c, r`), at least
 * once per turn. Each data predicate compares once per turn (at the end of its body, before its
 * delay slot), so its values of r are all different in one run of the loop: the value where the
 * loop leaves through it names the stopping turn. The instrumented loop writes nothing inside;
 * every edge leaving it records, first of its code, 4 bytes per data predicate: for the predicate
 * it leaves from, r at its compare point (r minus what the delay slot added); for the others, and
 * on any other exit, r plus one step, beyond every value compared so far. Regeneration reads those
 * bytes AHEAD, at the end of every edge entering the loop (the schema's `a` step, into MIPS k1/k0,
 * SPARC %g5/%g6, which no original instruction of the loop names), and decides each data
 * predicate as `r == value`. When the context holds no more bytes (the process died inside the
 * loop, or a signal handler left it by longjmp), the value is r at the entry minus one step, which
 * no compare point meets: the loop runs on to the marker's instruction count (docs/tracer.md
 * 'Known functions').
 *
 * What the placement and the cut then do is checked afterwards (instrument.ts): a loop whose
 * edges still carry a witness or whose blocks or edges still record a value is given up, and the
 * function traced without it.
 */
import type { Block, Cfg, Edge } from './cfg.js';
import type { Decoded, Isa } from './isa.js';
import type { Decision } from './decide.js';
import { depthAt } from './predicates.js';
import { knownWithoutRecords, type SliceResult } from './slice.js';

/**
 * The C library functions whose data-dependent loops may be traced by their stopping values, with
 * the most data predicates a loop of each may have. Each costs 4 bytes per run of the loop,
 * where witnesses cost about a byte per turn: loops that are typically long (strlen's word scan,
 * a copy up to a NUL, a comparison) pay; strchr's (two data predicates, often a few turns) would
 * not, so only the comparisons (strcmp, strncmp, memcmp, bcmp: a data exit and a count the
 * placement may leave undecided) and strlen (the SPARC build unrolls its word scan twice) may have
 * two: strlen's byte loop after the word scan (two, at most 3 turns) then qualifies too.
 */
export const KNOWN_FUNCTIONS: ReadonlyMap<string, number> = new Map([
  ...['memcpy', 'bcopy', 'memmove', 'memset', 'bzero', 'strnlen', 'strcpy', 'strncpy', 'stpcpy', 'memchr'].map((n) => [n, 1] as const),
  ...['strlen', 'strcmp', 'strncmp', 'memcmp', 'bcmp'].map((n) => [n, 2] as const),
]);

/**
 * The registers regeneration reads a loop's stopping values into, one per data predicate: MIPS
 * k1 and k0, SPARC %g5 and %g6 — registers no compiled code names (docs/abi.md), which
 * regeneration otherwise never sets.
 */
export function aheadRegisters(isa: Isa): readonly number[] {
  return isa.name === 'mips' ? [27, 26] : [5, 6];
}

/** One qualifying loop. */
export interface KnownLoop {
  /** Cycle blocks and the edges between them. */
  blocks: Set<number>;
  edges: Set<number>;
  /** The induction register (as the schema names it) and the sign of its steps. */
  reg: number;
  dir: 1 | -1;
  /** Edges entering the loop: regeneration reads the stopping value ahead at their end. */
  entries: number[];
  /** Edges leaving the loop: the instrumented code records r + add first, one value per data predicate. */
  exits: Map<number, number[]>;
  /** The registers the values are read into, one per data predicate. */
  ahead: number[];
  /** The data predicates, decided by the stopping value. */
  decisions: Map<number, Decision>;
}

/** A function's qualifying loops, by the edges the rewriter gives code or items. */
export interface KnownPlan {
  loops: KnownLoop[];
  /** Exit edge -> [register, constant added] per value, in the order they are written. */
  exitRecord: Map<number, [number, number][]>;
  /** Entry edge -> [register read into, source register, step sign], in the order they run. */
  ahead: Map<number, [number, number, 1 | -1][]>;
}

/** The step of d on register r: c when d is `r = r + c` (c a nonzero constant), 0 when d does not define r, NaN otherwise. */
function stepOf(d: Decoded, r: number): number {
  if (!d.defs.includes(r)) return 0;
  const c = d.compute;
  if (!c || c.d.length !== 1 || c.d[0] !== r || !c.a || !('r' in c.a) || c.a.r !== r || !c.b || !('k' in c.b)) return NaN;
  const k = c.op === 'add' ? c.b.k | 0 : c.op === 'sub' ? -(c.b.k | 0) : NaN;
  return k === 0 ? NaN : k;
}

/**
 * The simple cycles of cfg, each in cycle order: strongly connected sets (Tarjan) in which every
 * block has exactly one successor and one predecessor inside.
 */
function simpleCycles(cfg: Cfg): Block[][] {
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const stack: number[] = [];
  const on = new Set<number>();
  const sccs: number[][] = [];
  const real = (id: number): boolean => cfg.blocks[id]!.term !== 'exit' && cfg.blocks[id]!.term !== 'tail';
  const visit = (v: number): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    on.add(v);
    for (const e of cfg.blocks[v]!.succ) {
      if (!real(e.to)) continue;
      if (!index.has(e.to)) {
        visit(e.to);
        low.set(v, Math.min(low.get(v)!, low.get(e.to)!));
      } else if (on.has(e.to)) low.set(v, Math.min(low.get(v)!, index.get(e.to)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      sccs.push(c);
    }
  };
  for (const b of cfg.blocks) if (real(b.id) && !index.has(b.id)) visit(b.id);
  const out: Block[][] = [];
  for (const c of sccs) {
    const ids = new Set(c);
    const blocks = c.map((id) => cfg.blocks[id]!);
    if (!blocks.every((b) => b.succ.filter((e) => ids.has(e.to)).length === 1 && b.pred.filter((e) => ids.has(e.from)).length === 1)) continue;
    const order: Block[] = [];
    let b = blocks[0]!;
    do {
      order.push(b);
      b = cfg.blocks[b.succ.find((e) => ids.has(e.to))!.to]!;
    } while (b !== blocks[0]);
    out.push(order);
  }
  return out;
}

/**
 * The qualifying loops of a function named in KNOWN_FUNCTIONS (undefined when none), given its
 * slice and the predicates already decided.
 */
export function knownLoops(cfg: Cfg, isa: Isa, s: SliceResult, decided: ReadonlyMap<number, Decision>): KnownPlan | undefined {
  const most = KNOWN_FUNCTIONS.get(cfg.func.name);
  if (most === undefined) return undefined;
  const A = aheadRegisters(isa).slice(0, most);
  const plan: KnownPlan = { loops: [], exitRecord: new Map(), ahead: new Map() };
  for (const cyc of simpleCycles(cfg)) {
    const loop = qualify(cfg, isa, s, decided, cyc, A);
    if (!loop) continue;
    plan.loops.push(loop);
  }
  // Exits first on an edge, reads ahead last; an edge may leave one loop and enter another.
  for (const l of plan.loops) {
    for (const [e, adds] of l.exits) plan.exitRecord.set(e, adds.map((a) => [l.reg, a]));
    for (const e of l.entries) {
      if (plan.ahead.has(e)) return undefined; // two loops entered by one edge would read into the same registers
      plan.ahead.set(e, l.ahead.map((a) => [a, l.reg, l.dir]));
    }
  }
  return plan.loops.length > 0 ? plan : undefined;
}

function qualify(cfg: Cfg, isa: Isa, s: SliceResult, decided: ReadonlyMap<number, Decision>, cyc: Block[], A: readonly number[]): KnownLoop | undefined {
  const ids = new Set(cyc.map((b) => b.id));
  const inner = (b: Block): Edge => b.succ.find((e) => ids.has(e.to))!;
  // Nothing in the loop that regeneration cannot follow, or that names the ahead register.
  for (const b of cyc) {
    if (b.entry || !(b.term === 'fall' || b.term === 'branch')) return undefined;
    for (const d of [...b.insns, ...(b.ds ? [b.ds] : [])]) {
      if (d.window !== 0 || d.syscall || (d.cti !== 'none' && d.cti !== 'branch')) return undefined;
      if (A.some((a) => d.defs.includes(a) || d.uses.includes(a))) return undefined;
    }
  }
  // Data predicates: two-way branches in the loop no decision covers.
  const data = cyc.filter((b) => b.succ.length === 2 && !decided.has(b.id));
  if (data.length === 0 || data.length > A.length) return undefined;
  for (const b of cyc) if (b.succ.length > 2 || (b.succ.length === 2 && b.term !== 'branch')) return undefined;
  // Candidate induction registers: those the loop steps.
  const cands = new Set<number>();
  for (const b of cyc) for (const d of [...b.insns, ...(b.ds ? [b.ds] : [])]) for (const r of d.defs) if (r !== 0 && Number.isFinite(stepOf(d, r)) && stepOf(d, r) !== 0) cands.add(r);
  for (const r of cands) {
    const loop = withRegister(cfg, isa, s, cyc, ids, inner, data, r, A, decided);
    if (loop) return loop;
  }
  return undefined;
}

/**
 * True when a decided exit of the loop tests the low bits of r (`andi x, r, m` with m < 8 in its
 * block, then a comparison of x with zero) and r steps by one: an alignment loop such as strlen's
 * first, which turns at most m times, where witnesses cost less than a stopping value.
 */
function alignmentBounded(cyc: Block[], r: number, decided: ReadonlyMap<number, Decision>): boolean {
  for (const b of cyc) {
    const d = decided.get(b.id);
    if (!d || typeof d.dc[1] !== 'number' || !(d.dc[2] === 0 || (typeof d.dc[2] === 'object' && d.dc[2] !== null && d.dc[2].k === 0))) continue;
    const x = d.dc[1];
    const def = [...b.insns].reverse().find((i) => i.defs.includes(x));
    const c = def?.compute;
    if (!c || c.op !== 'and' || !c.a || !('r' in c.a) || c.a.r !== r || !c.b || !('k' in c.b) || c.b.k >= 8) continue;
    const steps = cyc.flatMap((blk) => [...blk.insns, ...(blk.ds ? [blk.ds] : [])].map((i) => stepOf(i, r)).filter((k) => k !== 0));
    if (steps.every((k) => Math.abs(k) === 1)) return true;
  }
  return false;
}

function withRegister(
  cfg: Cfg, isa: Isa, s: SliceResult, cyc: Block[], ids: Set<number>, inner: (b: Block) => Edge, data: Block[], r: number, A: readonly number[],
  decided: ReadonlyMap<number, Decision>,
): KnownLoop | undefined {
  // Walk the cycle once: every definition of r a step of one sign, at least one step per turn
  // (each data predicate compares once per turn, so its values are all different), the branch
  // itself not defining r.
  let sign = 0;
  const slotStep = new Map<number, number>();
  for (const b of cyc) {
    const n = b.insns.length;
    for (let i = 0; i < n; i++) {
      const k = stepOf(b.insns[i]!, r);
      if (Number.isNaN(k)) return undefined;
      if (k !== 0) {
        if (i === n - 1 && b.term === 'branch') return undefined;
        if (sign !== 0 && Math.sign(k) !== sign) return undefined;
        sign = Math.sign(k);
      }
    }
    if (b.ds) {
      const k = stepOf(b.ds, r);
      if (Number.isNaN(k)) return undefined;
      slotStep.set(b.id, k);
      if (k !== 0) {
        if (sign !== 0 && Math.sign(k) !== sign) return undefined;
        sign = Math.sign(k);
      }
    }
  }
  if (sign === 0) return undefined;
  if (alignmentBounded(cyc, r, decided)) return undefined;
  // A step on every turn: in a body, or in a delay slot on the edge that stays in the loop.
  if (!cyc.some((b) => b.insns.some((d) => stepOf(d, r) !== 0) || (inner(b).ds && (slotStep.get(b.id) ?? 0) !== 0))) return undefined;
  const dir = sign as 1 | -1;
  // r must be known to regeneration at every compare point without a record.
  const decisions = new Map<number, Decision>();
  for (const [j, b] of data.entries()) {
    const i = b.insns.length - 1;
    const st = s.df.stateAt(b, i);
    const sites = new Set<number>();
    if (!knownWithoutRecords(s, isa, st, r, depthAt(s.df, b, i), sites)) return undefined;
    const cont = inner(b);
    const exit = b.succ.find((e) => e !== cont)!;
    decisions.set(b.id, { dc: ['eq', r, A[j]!, exit.id, cont.id], sites });
  }
  const entries: number[] = [];
  const exits = new Map<number, number[]>();
  const edges = new Set<number>();
  for (const b of cyc) {
    for (const e of b.pred) if (!ids.has(e.from)) {
      if (e.kind === 'exit') return undefined;
      entries.push(e.id);
    }
    for (const e of b.succ) {
      if (ids.has(e.to)) {
        edges.add(e.id);
        continue;
      }
      const to = cfg.blocks[e.to]!;
      if (to.term === 'exit' || to.term === 'tail' || e.kind === 'exit') return undefined;
      const slot = e.ds && b.ds ? slotStep.get(b.id) ?? 0 : 0;
      // A data predicate's exit records r at its compare point for that predicate; every other
      // value is r plus one step, beyond every value compared so far.
      exits.set(e.id, data.map((p) => (p === b ? -slot : dir)));
    }
  }
  if (entries.length === 0) return undefined;
  return { blocks: ids, edges, reg: r, dir, entries, exits, ahead: A.slice(0, data.length), decisions };
}

/** True when the placement and the cut left the loop writing nothing inside (see the top). */
export function loopWritesNothing(l: KnownLoop, witness: ReadonlyMap<number, number>, s: SliceResult): boolean {
  for (const e of l.edges) if (witness.has(e) || (s.edgeRecords.get(e)?.length ?? 0) > 0) return false;
  for (const b of l.blocks) {
    for (const recs of s.bodyRecords[b]!.values()) if (recs.length > 0) return false;
    if ((s.entryRecords.get(b)?.length ?? 0) > 0) return false;
  }
  // The exits' and entries' own records come after the stopping value and before the read
  // ahead respectively: the rewriter orders them so.
  return true;
}
