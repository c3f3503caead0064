/**
 * Control-flow graphs, one per function (ball-larus-1994 section 2): basic blocks whose delayed
 * transfer owns its delay slot, edges that say whether the slot executes when they are taken
 * (SPARC annul bits, manual 5.5.1.1), call vertices, and one EXIT vertex.
 *
 * Vertices:
 *   - ordinary blocks [start, start + 4n), ending at a transfer (plus its delay slot), a trap,
 *     or before the next leader;
 *   - `tail` vertices: control leaves the function other than by returning — a jump, branch or
 *     fall-through into another function, a tail call (SPARC `call` whose delay slot rewrites
 *     %o7 or is a `restore`), an indirect jump out of the function. Their one edge goes to EXIT;
 *   - EXIT (the last vertex), reached by returns, tail vertices, longjmp and halts (traps after
 *     which no code follows).
 * Call vertices (`call`/`icall` terminators) have one edge, to the return point (call + 8, or
 * + 12 past a struct-return `unimp` word on SPARC).
 *
 * Indirect jumps: a jump table found through the relocations (tracer/switches.ts) makes the
 * block a multiway predicate ('table'); otherwise the target is recorded ('ijump'), and the
 * successors are every block of the function a relocation points at plus a tail vertex.
 */
import type { Decoded } from './isa.js';
import { InstrumentError, type Func, type Program } from './program.js';

export type TermKind =
  | 'fall' // no transfer: falls into the next block
  | 'branch' // conditional or always PC-relative branch, or MIPS j inside the function
  | 'call' // direct call
  | 'icall' // call through a register (target recorded or computed)
  | 'return'
  | 'table' // indirect jump through a jump table (multiway predicate)
  | 'ijump' // indirect jump whose target is recorded
  | 'trap' // syscall, break, Ticc, unimp: execution continues after it
  | 'halt' // a trap with no code after it
  | 'longjmp' // the indirect transfer that ends _longjmp
  | 'tail' // virtual: leaves the function (target in `tail`)
  | 'exit'; // virtual EXIT vertex

export type EdgeKind = 'taken' | 'fall' | 'case' | 'return' | 'exit';

export interface Edge {
  id: number;
  from: number;
  to: number;
  kind: EdgeKind;
  /** The source's delay slot executes when this edge is taken. */
  ds: boolean;
  weight: number;
  /** Witness value written when the edge is traversed (placement). */
  witness?: number;
  /** Jump-table words (addresses) that select this edge. */
  tableWords?: number[];
}

export interface Block {
  id: number;
  /** Address of the first instruction (virtual vertices: the address they stand for, or 0). */
  start: number;
  insns: Decoded[];
  ds?: Decoded;
  term: TermKind;
  succ: Edge[];
  pred: Edge[];
  /** Direct call: the callee address. Tail vertex: where control goes (undefined: recorded). */
  target?: number;
  /** Entered from outside the function (the root, jumps/calls into it, code pointers). */
  entry: boolean;
  /** Address of a SPARC struct-return unimp word following the call's delay slot. */
  unimpWord?: number;
}

export interface Cfg {
  func: Func;
  blocks: Block[];
  edges: Edge[];
  /** Id of the EXIT vertex (always the last block). */
  exit: number;
  /** Block id by start address (ordinary blocks). */
  byAddr: Map<number, number>;
}

export interface CfgContext {
  prog: Program;
  /** Addresses inside functions that are entered from other functions or from data. */
  externalEntries: Set<number>;
  /** Jump-table resolution for an indirect jump (tracer/switches.ts), filled in a second pass. */
  tables?: Map<number, { words: number[] } | null>;
  /**
   * Conservative mode (tracer/conservative.ts): every word of the function is decoded (relocated
   * data words included) and starts a block, every block is an entry (a setjmp/longjmp function:
   * its start only), and an indirect jump may reach any of them.
   */
  conservative?: boolean;
}

function err(prog: Program, f: Func, addr: number, msg: string): never {
  throw new InstrumentError(prog.file, `${f.name}+0x${(addr - f.addr).toString(16)} (0x${addr.toString(16)}): ${msg}`);
}

/**
 * Addresses inside functions that are entered from outside the function: every function start,
 * call targets, branches and jumps that cross functions, and (second pass, `resolved` given)
 * code addresses from data or code that are not entries of a resolved jump table.
 */
export function externalEntries(prog: Program, resolved?: { tableWords: Set<number>; codeValues: number[] }): Set<number> {
  const s = new Set<number>([prog.entry]);
  for (const f of prog.funcs) {
    s.add(f.addr);
    for (const d of f.insns) {
      if (!d || d.target === undefined) continue;
      if (d.cti === 'call' || d.target < f.addr || d.target >= f.end) s.add(d.target);
    }
  }
  for (const v of prog.codeRefs) s.add(v);
  if (resolved) {
    for (const [w, v] of prog.codeWords) if (!resolved.tableWords.has(w)) s.add(v);
    for (const v of resolved.codeValues) s.add(v);
  }
  return s;
}

/**
 * The program-wide code addresses a collection holds, ascending, once per collection: a function's
 * share is a binary search away, where a scan of every collection for each function cost more
 * than the rest of the graph. The collections (the program's code words and references, the
 * external-entry sets of instrument.ts, the %lo code immediates of switches.ts) are never changed
 * once a function's share has been asked of them.
 */
const sortedOf = new WeakMap<object, Float64Array>();

/** The distinct values of `coll` (its addresses: `values()`) inside f, ascending. */
export function within(coll: object, values: () => Iterable<number>, f: Func): number[] {
  let sorted = sortedOf.get(coll);
  if (!sorted) {
    sorted = Float64Array.from(new Set(values())).sort();
    sortedOf.set(coll, sorted);
  }
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < f.addr) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < sorted.length && sorted[i]! < f.end; i++) out.push(sorted[i]!);
  return out;
}

/**
 * True when two external-entry sets hold the same addresses inside f: f's graph built from either
 * is the same, unless an indirect jump of f reads jump tables (CfgContext.tables).
 */
export function sameEntriesWithin(a: Set<number>, b: Set<number>, f: Func): boolean {
  const x = within(a, () => a, f);
  const y = within(b, () => b, f);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** buildCfg's leader flags, one a word of the function (scratch: buildCfg does not nest). */
let leaderWords = new Uint8Array(1024);

/** Builds the CFG of one function. */
export function buildCfg(ctx: CfgContext, f: Func): Cfg {
  const prog = ctx.prog;
  const cons = ctx.conservative === true;
  const inside = (a: number): boolean => a >= f.addr && a < f.end;
  const insnAt = (a: number): Decoded | undefined => {
    if (!inside(a)) return undefined;
    const d = f.insns[(a - f.addr) >> 2];
    return d ?? (cons ? prog.isa.decode(prog.word(a), a) : undefined);
  };
  // Code addresses into this function the program holds (from data, jump tables of this function
  // included, and formed in code): targets of indirect jumps that are not resolved, and leaders in
  // any case.
  const codePtrTargets = new Set<number>();
  for (const v of within(prog.codeWords, () => prog.codeWords.values(), f)) codePtrTargets.add(v);
  for (const v of within(prog.codeRefs, () => prog.codeRefs, f)) codePtrTargets.add(v);
  const ext = within(ctx.externalEntries, () => ctx.externalEntries, f);
  for (const v of ext) codePtrTargets.add(v);

  // Leaders and reachable code: a worklist from the entries. A leader is a flag by word of the
  // function; a code address between words (only data could hold one) is kept apart.
  const nw = (f.end - f.addr + 3) >>> 2;
  if (leaderWords.length < nw) leaderWords = new Uint8Array(Math.max(nw, 2 * leaderWords.length));
  const words = leaderWords;
  words.fill(0, 0, nw);
  let odd: Set<number> | undefined;
  const isLeader = (a: number): boolean => (((a - f.addr) & 3) === 0 ? words[(a - f.addr) >>> 2] === 1 : odd !== undefined && odd.has(a));
  let nLeaders = 0;
  const work: number[] = [];
  const addLeader = (a: number): void => {
    if (!inside(a)) return;
    if (((a - f.addr) & 3) === 0) {
      const w = (a - f.addr) >>> 2;
      if (words[w] === 1) return;
      words[w] = 1;
    } else {
      odd ??= new Set();
      if (odd.has(a)) return;
      odd.add(a);
    }
    nLeaders++;
    work.push(a);
  };
  for (const a of ext) addLeader(a);
  for (const a of codePtrTargets) addLeader(a);
  addLeader(f.addr);
  if (cons) for (let a = f.addr; a < f.end; a += 4) addLeader(a);

  // Pass 1: find all leaders by walking reachable code (addLeader queues each leader once).
  while (work.length > 0) {
    const start = work.pop()!;
    let a = start;
    for (;;) {
      const d = insnAt(a);
      if (!d) err(prog, f, a, inside(a) ? 'control reaches a data word inside the function' : 'control runs off the end of the function');
      if (!d.valid || d.unimp) {
        // An instruction that always traps: unimp, reserved or privileged words. Execution
        // cannot continue after it; it ends the block.
        break;
      }
      if (d.cti === 'none') {
        a += 4;
        if (!inside(a) || isLeader(a)) break;
        continue;
      }
      if (d.cti === 'trap') {
        if (d.trapContinues) addLeader(a + 4);
        break;
      }
      // Delayed transfer.
      const slot = d.dsMode === 'never' ? undefined : insnAt(a + 4);
      if (d.dsMode !== 'never' && (!slot || !slot.valid)) err(prog, f, a, 'delay slot is not an instruction');
      if (slot && slot.cti !== 'none') err(prog, f, a, `a transfer (${slot.name}) in the delay slot of ${d.name}`);
      const after = d.dsMode === 'never' ? a + 4 : a + 8;
      if (d.cti === 'branch') {
        if (d.target !== undefined && inside(d.target) && !d.never) addLeader(d.target);
        if (d.cond || d.never) addLeader(after);
      } else if (d.cti === 'jump') {
        if (d.target !== undefined && inside(d.target)) addLeader(d.target);
      } else if (d.cti === 'call' || d.cti === 'icall') {
        const u = insnAt(a + 8);
        if (prog.isa.name === 'sparc' && u?.unimp && (u.word & 0x3fffff) !== 0) addLeader(a + 12);
        else if (u && u.valid && !u.unimp) addLeader(a + 8);
        else if (u?.unimp) addLeader(a + 8);
      } else if (d.cti === 'ijump') {
        for (const t of codePtrTargets) addLeader(t);
      }
      break;
    }
  }

  // Pass 2: blocks between leaders, the root first, then by address.
  const nl = nLeaders;
  let sortedLeaders: number[] = [];
  for (let w = 0; w < nw; w++) if (words[w] === 1) sortedLeaders.push(f.addr + 4 * w);
  if (odd !== undefined) sortedLeaders = Array.from(Float64Array.from([...sortedLeaders, ...odd]).sort());
  const order: number[] = [f.addr];
  for (let i = 0; i < nl; i++) if (sortedLeaders[i] !== f.addr) order.push(sortedLeaders[i]!);
  // Per vertex (in `order`): its last instruction when it ends in one (a transfer, a trap, an
  // invalid word; undefined: it falls into `next`), and where control continues.
  const lasts: (Decoded | undefined)[] = new Array(nl);
  const nexts: number[] = new Array(nl);
  const blocks: Block[] = [];
  const byAddr = new Map<number, number>();
  const everywhere = cons && f.role !== 'setjmp' && f.role !== 'longjmp';
  for (let bi = 0; bi < nl; bi++) {
    const start = order[bi]!;
    // Conservative mode decodes words the function's list leaves out (insnAt); otherwise the
    // block's instructions are a run of that list, copied at their size once the end is found.
    const decoded: Decoded[] | undefined = cons ? [] : undefined;
    let count = 0;
    let a = start;
    let last: Decoded | undefined;
    let ds: Decoded | undefined;
    let next = 0;
    let unimpWord: number | undefined;
    for (;;) {
      const d = insnAt(a)!;
      decoded?.push(d);
      count++;
      last = d;
      if (!d.valid || d.unimp) { next = 0; break; }
      if (d.cti === 'none') {
        a += 4;
        if (inside(a) && isLeader(a)) { next = a; last = undefined; break; }
        if (!inside(a)) { next = a; last = undefined; break; }
        continue;
      }
      if (d.cti === 'trap') { next = d.trapContinues ? a + 4 : 0; break; }
      if (d.dsMode !== 'never') ds = insnAt(a + 4);
      next = d.dsMode === 'never' ? a + 4 : a + 8;
      if ((d.cti === 'call' || d.cti === 'icall') && prog.isa.name === 'sparc') {
        const u = insnAt(a + 8);
        if (u?.unimp && (u.word & 0x3fffff) !== 0) {
          unimpWord = a + 8;
          next = a + 12;
        }
      }
      break;
    }
    const first = (start - f.addr) >> 2;
    const insns = decoded ?? (f.insns.slice(first, first + count) as Decoded[]);
    lasts[bi] = last;
    nexts[bi] = next;
    // Vertices.
    const b: Block = { id: bi, start, insns, term: 'fall', succ: [], pred: [], entry: start === f.addr || everywhere || ctx.externalEntries.has(start) };
    if (ds) b.ds = ds;
    if (unimpWord !== undefined) b.unimpWord = unimpWord;
    byAddr.set(start, bi);
    blocks.push(b);
  }
  const tails = new Map<string, number>();
  const tailVertex = (target: number | undefined): number => {
    const key = target === undefined ? 'indirect' : String(target);
    let id = tails.get(key);
    if (id === undefined) {
      id = blocks.length;
      const b: Block = { id, start: target ?? 0, insns: [], term: 'tail', succ: [], pred: [], entry: false };
      if (target !== undefined) b.target = target;
      blocks.push(b);
      tails.set(key, id);
    }
    return id;
  };
  // Edges in the order they are added; parallel edges with the same target and the same
  // delay-slot behaviour are one edge (the first; the table words of the others join it). An
  // edge to EXIT (-1 until EXIT, the last vertex, is made) joins EXIT's predecessors then.
  const edges: Edge[] = [];
  const toExit: Edge[] = [];
  const addEdge = (from: number, to: number | 'exit', kind: EdgeKind, ds: boolean, tableWords?: number[]): void => {
    const t = to === 'exit' ? -1 : to;
    const succ = blocks[from]!.succ;
    for (let k = 0; k < succ.length; k++) {
      const old = succ[k]!;
      if (old.to === t && old.ds === ds) {
        if (tableWords) old.tableWords = [...(old.tableWords ?? []), ...tableWords];
        return;
      }
    }
    const e: Edge = tableWords ? { id: edges.length, from, to: t, kind, ds, weight: 0, tableWords } : { id: edges.length, from, to: t, kind, ds, weight: 0 };
    edges.push(e);
    succ.push(e);
    if (t === -1) toExit.push(e);
    else blocks[t]!.pred.push(e);
  };
  const flowTo = (from: number, target: number, kind: EdgeKind, ds: boolean): void => {
    const id = inside(target) ? byAddr.get(target) : undefined;
    if (id !== undefined) addEdge(from, id, kind, ds);
    else addEdge(from, tailVertex(target), kind, ds);
  };

  for (let bi = 0; bi < nl; bi++) {
    const next = nexts[bi]!;
    const b = blocks[bi]!;
    const d = lasts[bi];
    if (!d) {
      if (!inside(next) && prog.funcAt(next)?.addr !== next) {
        // Running off the end into no function: the padding after a call that never returns
        // (exit, abort). Nothing continues from here.
        b.term = 'halt';
        addEdge(b.id, 'exit', 'exit', false);
        continue;
      }
      b.term = 'fall';
      flowTo(b.id, next, 'fall', false);
      continue;
    }
    if (!d.valid || d.unimp) {
      b.term = 'halt';
      addEdge(b.id, 'exit', 'exit', false);
      continue;
    }
    const dsTaken = d.dsMode !== 'never';
    const dsFall = d.dsMode === 'always';
    switch (d.cti) {
      case 'trap':
        b.term = next !== 0 ? 'trap' : 'halt';
        if (next !== 0) flowTo(b.id, next, 'fall', false);
        else addEdge(b.id, 'exit', 'exit', false);
        break;
      case 'branch':
        b.term = 'branch';
        if (d.never) {
          flowTo(b.id, next, 'fall', dsFall);
        } else {
          flowTo(b.id, d.target!, 'taken', dsTaken);
          if (d.cond) flowTo(b.id, next, 'fall', dsFall);
        }
        break;
      case 'jump':
        b.term = 'branch';
        flowTo(b.id, d.target!, 'taken', true);
        break;
      case 'call':
      case 'icall': {
        b.term = d.cti;
        if (d.cti === 'call') b.target = d.target!;
        if (d.cond) err(prog, f, d.addr, `conditional call ${d.name} is not supported`);
        // SPARC tail call: the delay slot gives the callee our own return address.
        const slot = b.ds;
        const tailCall = prog.isa.name === 'sparc' && slot !== undefined && (slot.window === -1 || slot.defs.includes(prog.isa.LINK));
        if (tailCall) {
          // The callee returns to our caller: the call vertex's successor is EXIT.
          addEdge(b.id, 'exit', 'exit', true);
          break;
        }
        const ret = insnAt(next);
        if (ret && ret.valid && !ret.unimp && byAddr.has(next)) addEdge(b.id, byAddr.get(next)!, 'return', true);
        else if (!inside(next) && prog.funcAt(next)?.addr === next) flowTo(b.id, next, 'return', true);
        else if (ret && byAddr.has(next)) addEdge(b.id, byAddr.get(next)!, 'return', true);
        else addEdge(b.id, 'exit', 'exit', true);
        break;
      }
      case 'return':
        b.term = f.role === 'longjmp' ? 'longjmp' : 'return';
        addEdge(b.id, 'exit', 'exit', true);
        break;
      case 'ijump': {
        if (f.role === 'longjmp') {
          b.term = 'longjmp';
          addEdge(b.id, 'exit', 'exit', true);
          break;
        }
        const table = ctx.tables?.get(d.addr);
        if (table) {
          b.term = 'table';
          const per = new Map<number, number[]>();
          for (const w of table.words) {
            const t = prog.codeWords.get(w)!;
            let l = per.get(t);
            if (!l) per.set(t, (l = []));
            l.push(w);
          }
          for (const [t, words] of per) {
            if (!byAddr.has(t)) err(prog, f, d.addr, `jump table entry 0x${t.toString(16)} is not a block start`);
            addEdge(b.id, byAddr.get(t)!, 'case', true, words);
          }
        } else {
          b.term = 'ijump';
          // A recorded target that is a function start (this one's included) is a tail call.
          const targets = cons ? sortedLeaders : [...codePtrTargets].sort((x, y) => x - y);
          for (const t of targets) if (t !== f.addr && byAddr.has(t)) addEdge(b.id, byAddr.get(t)!, 'case', true);
          addEdge(b.id, tailVertex(undefined), 'case', true);
        }
        break;
      }
      case 'none':
        break;
    }
  }
  // EXIT last; tail vertices lead to it.
  const exit = blocks.length;
  for (const id of tails.values()) addEdge(id, 'exit', 'exit', false);
  const exitPred: Edge[] = new Array(toExit.length);
  for (let k = 0; k < toExit.length; k++) {
    const e = toExit[k]!;
    e.to = exit;
    exitPred[k] = e;
  }
  blocks.push({ id: exit, start: 0, insns: [], term: 'exit', succ: [], pred: exitPred, entry: false });
  // The edge lists at their size: a list grown by push from empty holds 17 slots (about 190
  // bytes for two edges, 75 copied), and the graphs live through the whole instrumentation
  // (the young-generation collections copy them).
  for (let i = 0; i < exit; i++) {
    const b = blocks[i]!;
    if (b.succ.length > 0) b.succ = b.succ.slice();
    if (b.pred.length > 0) b.pred = b.pred.slice();
  }
  return { func: f, blocks, edges, exit, byAddr };
}

/** A block with two or more distinct out-edges: its successor must be read from the trace. */
export function isPredicate(b: Block): boolean {
  return b.succ.length > 1 && b.term !== 'ijump';
}
