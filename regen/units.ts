/**
 * A function of a schema as data for the table engine (regen/engine.ts): each unit — a block's
 * body, an edge, the rest of a call's edge after the callee returned, an entry stub — becomes a
 * short run of operations in one Int32Array, with its cost in instrumented instructions, the
 * events it can emit at most, and how it ends. Nothing is compiled: a function costs a walk over
 * its items the first time it runs, and every function runs in the same small loop, which V8
 * optimises once for all programs.
 *
 * The operations follow an item's steps in the order regen/process.ts executes them (fetch,
 * transfer target, data reference and read-only load, computed value and window move; witness;
 * record), so the events come out in the same order and every register holds what the reference
 * interpreter would give it at each point.
 *
 * Labels number the units of a function as regen/compile.ts does: block b is b, edge e is
 * nb + e, the resumption of call edge e is nb + ne + e, the entry stub at block b is nb + 2ne + b.
 */
import type { ComputeName, Item, SInsn, SSrc } from '../format/schema.js';
import { SLOT_BASE } from '../tracer/slots.js';
import { compile, splice, valueOp } from '../cpu/semantics.js';
import { COMPARISONS, decideSource } from './decide.js';
import { itemCost, type RBlock, type REdge, type RFunc, type RegenProgram } from './model.js';
import { AT_BLOCK, AT_EDGE, AT_ENTRY } from './frame.js';

// Operand modes: how an operand's (mode, value) pair reads or writes a register.
export const MD_K = 0; // the constant value (reads only; register 0 reads as constant 0)
export const MD_R = 1; // R[value]: MIPS registers, SPARC globals
export const MD_W = 2; // R[wb + value]: a SPARC windowed register
export const MD_Y = 3; // the SPARC Y register
export const MD_SLOT = 4; // a tracked stack slot (tracer/slots.ts), the register number in value
export const MD_NONE = 5; // writes are dropped (register 0)

// Operations, each followed by its operands.
export const OP_FETCH = 1; // pc, n: n instruction fetches from pc (one entry of the event batch, n <= MAX_RUN)
export const OP_MEM = 2; // kind, size, base (mode, value), offset, index (mode, value): a data reference
export const OP_FETCH_MEM = 11; // OP_FETCH's operands, then OP_MEM's
export const OP_RO = 3; // dest (mode, value), width, pc: the read-only load of the last reference's address
export const OP_TARGET = 4; // n, n operands (mode, value), immediate: S.target
export const OP_ALU = 5; // alu, window move, dest (mode, value), a (mode, value), b (mode, value)
export const OP_EVAL = 6; // op index, window move, a (mode, value), b (mode, value), n, n dests (mode, value): evalOp
export const OP_WINDOW = 7; // window move
export const OP_WITNESS = 8; // witness bytes, the edge's witness, edge
export const OP_RECORD = 9; // dest (mode, value), width, unit kind (UK_*)
export const OP_SYSCALL = 10; // value of S.lastSyscall at the end of a block's body
export const OP_AHEAD = 12; // dest (mode, value), width, source (mode, value), step sign: a known loop's stopping value read ahead
// How a unit ends (its last operation). The endings that leave the table have the same operands:
// the position the process leaves at (id, item, at: regen/frame.ts) and a block.
export const X_GOTO = 20; // label
export const X_WITNESS = 22; // block, items, witness bytes, n, then n (witness, label) pairs in increasing witness order
export const X_DECIDE = 23; // comparison, a (mode, value), b (mode, value), label when true, label when false
export const X_CALL = 25; // edge, 1, AT_EDGE, from block: the callee runs (RegenProcess.callAfterDs)
export const X_LEAVE_EDGE = 26; // edge, its items, AT_EDGE, from block: RegenProcess.leaveEdge
export const X_LEAVE = 27; // block or entry, its items, AT_BLOCK or AT_ENTRY, 0: the interpreter goes on (an
// indirect jump's transfer, a halting trap, the end of a setjmp or longjmp entry stub)

export const UK_ENTRY = 0;
export const UK_BODY = 1;
export const UK_EDGE = 2;

/** The longest run of fetches one batch entry holds (its size field is a byte). */
const MAX_RUN = 255;

/** A label whose unit is made the first time control reaches it. */
export const UNBUILT = -2;

/** A unit's header: cost, most batch entries, S.lastSyscall at its start (NO_SYS: unchanged). */
export const NO_SYS = -2;
/** How far a unit goes on into the parts that follow it. */
const MAX_PARTS = 12;
const MAX_WORDS = 400;

export interface UnitTable {
  nb: number;
  ne: number;
  /** The operations of the units built so far: [cost, most batch entries, S.lastSyscall, operations..., ending]. */
  code: Int32Array;
  /** Words of code used. */
  length: number;
  /** Per label: where its unit starts in code, UNBUILT, or -1 (the interpreter runs it). */
  start: Int32Array;
  /** Builds the unit of a label whose start is UNBUILT; returns its start (code may be a new array). */
  build(label: number): number;
}

/** Every operation, by index (OP_EVAL). */
export const EVAL_NAMES: ComputeName[] = ['add', 'sub', 'and', 'or', 'xor', 'nor', 'andn', 'orn', 'xnor', 'sll', 'srl', 'sra', 'slt', 'sltu', 'const',
  'mult', 'multu', 'div', 'divu', 'umul', 'smul', 'udiv', 'sdiv', 'wry', 'save', 'restore', 'ldro'];
/** The single-result operations the engine evaluates inline, by index (OP_ALU). */
const ALU_NAMES = EVAL_NAMES.filter((n) => n !== 'ldro' && valueOp(n).out.length === 1);
const CMP_NAMES = [...COMPARISONS];

/**
 * The value of single-result operation `alu` (an index of ALU_NAMES) on a, b and Y: one small
 * function made from the operations' templates (cpu/semantics.ts), the one definition every
 * engine splices.
 */
export const aluValue = compile<(op: number, a: number, b: number, y: number) => number>(['op', 'a', 'b', 'y'],
  `switch (op) {\n${ALU_NAMES.map((n, i) => `case ${i}: return ${splice(valueOp(n).out[0]!, 'a', 'b', 'y')};`).join('\n')}\n}\nthrow new Error('no operation ' + op);`);

/** Whether decided predicate `cmp` (an index of the comparisons) holds for a and b (decide.ts decideSource). */
export const decideHolds = new Function('cmp', 'a', 'b', `switch (cmp) {\n${CMP_NAMES.map((n, i) => `case ${i}: return ${decideSource([n, 0, 0, 0, 0] as never, 'a', 'b')};`).join('\n')}\n}\nthrow new Error('no comparison ' + cmp);`) as (cmp: number, a: number, b: number) => boolean;

// V8 optimises the engine's loop (regen/engine.ts) with aluValue and decideHolds inlined, from
// the type feedback gathered until then: an operation or comparison first met later deoptimises
// the loop, which is then compiled again (three of its five compilations in a first pass over
// the mipsel demo bundle). Every case runs here once on int32 values, as the engine passes them,
// so that the loop's first optimised code covers them all (several rounds: V8 gives a function
// its feedback vector only after its first few calls).
for (let round = 0; round < 8; round++) {
  for (let i = 0; i < ALU_NAMES.length; i++) {
    aluValue(i, 7, 3, 1);
    aluValue(i, -9, 2, 0);
  }
  for (let i = 0; i < CMP_NAMES.length; i++) {
    decideHolds(i, 1, 2);
    decideHolds(i, -2, 1);
  }
}

const REG_Y = 65;

/** A function's unit table (RFunc.units keeps it); each unit is built when first reached. */
export function buildUnits(prog: RegenProgram, fn: RFunc): UnitTable {
  const sparc = prog.sparc;
  const nb = fn.blocks.length;
  const ne = fn.edges.length;
  // The unit being built (words pushed one by one: the builder runs for every unit a pass
  // reaches, and V8 compiles it, so it is plain code without spreads or tuples).
  let code: number[] = [];
  const start = new Int32Array(2 * nb + 2 * ne).fill(-1);
  let entries = 0;
  let lastFetch = -1;

  /** A register operand: (mode, value). */
  const reg = (r: number, write: boolean): void => {
    if (r === 0) code.push(write ? MD_NONE : MD_K, 0);
    else if (r >= SLOT_BASE) code.push(MD_SLOT, r);
    else if (!sparc || r < 8) code.push(MD_R, r);
    else if (r === REG_Y) code.push(MD_Y, 0);
    else code.push(MD_W, r >= 24 ? r - 32 : r);
  };
  const src = (s: SSrc | null): void => {
    if (s === null) code.push(MD_K, 0);
    else if (typeof s === 'number') reg(s, false);
    else code.push(MD_K, s.k | 0);
  };
  /** An operation that makes events or reads the trace: the run of fetches before it ends. */
  const op = (x: number): void => {
    code.push(x);
    lastFetch = -1;
  };
  const fetch = (pc: number): void => {
    if (lastFetch >= 0 && code[lastFetch + 2]! < MAX_RUN && code[lastFetch + 1]! + 4 * code[lastFetch + 2]! === (pc | 0)) {
      code[lastFetch + 2]!++;
      return;
    }
    entries++;
    lastFetch = code.length;
    code.push(OP_FETCH, pc | 0, 1);
  };
  // Operations that neither make events nor read the trace (a transfer target, a computed value,
  // a window move) may sit inside a run of fetches: the run's entry is written before them, with
  // the same events in the same order, so they leave lastFetch as it is.
  const insn = (a: SInsn | null, pc: number): void => {
    fetch(pc);
    if (a === null) return;
    if (a.t) {
      const rs = a.t[0];
      code.push(OP_TARGET, rs.length);
      for (let i = 0; i < rs.length; i++) reg(rs[i]!, false);
      code.push(a.t[1] | 0);
    }
    if (a.m) {
      const [kind, size, base, index, off] = a.m;
      // The fetch run just written and the reference are one operation.
      if (lastFetch >= 0 && lastFetch + 3 === code.length) {
        code[lastFetch] = OP_FETCH_MEM;
        lastFetch = -1;
      } else op(OP_MEM);
      code.push(kind, size);
      reg(base, false);
      code.push(off | 0);
      if (index >= 0) reg(index, false);
      else code.push(MD_K, 0);
      entries += kind === 0 || kind === 1 ? 1 : 2;
      if (a.v) {
        code.push(OP_RO);
        reg(a.v[0], true);
        code.push(a.v[1], pc | 0);
      }
    }
    const c = a.c;
    const move = a.w ?? 0;
    if (!c) {
      if (move) code.push(OP_WINDOW, move);
      return;
    }
    const [name, d, sa, sb] = c;
    const alu = ALU_NAMES.indexOf(name);
    if (alu >= 0 && d.length === 1) {
      code.push(OP_ALU, alu, move);
      reg(d[0]!, true);
      src(sa);
      src(sb);
    } else {
      code.push(OP_EVAL, EVAL_NAMES.indexOf(name), move);
      src(sa);
      src(sb);
      code.push(d.length);
      for (let i = 0; i < d.length; i++) reg(d[i]!, true);
    }
  };
  const items = (its: Item[], from: number, to: number, b: RBlock, unit: number, e?: REdge): void => {
    for (let k = from; k < to; k++) {
      const it = its[k]!;
      switch (it[0]) {
        case 'o': insn(b.insns[it[1]]!, b.addr + 4 * it[1]); break;
        case 'd': insn(b.ds, b.addr + 4 * b.n); break;
        case 'w':
          op(OP_WITNESS);
          code.push(fn.wbytes, e!.witness!, e!.id);
          break;
        case 'r':
          op(OP_RECORD);
          reg(it[1], true);
          code.push(it[3], unit);
          break;
        case 'g': break;
        case 'a':
          op(OP_AHEAD);
          reg(it[1], true);
          code.push(it[2]);
          reg(it[3], false);
          code.push(it[4]);
          break;
      }
    }
  };
  const cost = (its: Item[], from: number, to: number): number => {
    let n = 0;
    for (let k = from; k < to; k++) n += itemCost(its[k]!);
    return n;
  };
  // Each label's part: its cost, its items, and how it ends (the label it continues at when it
  // simply goes on, else -1 after its ending is emitted).
  const partCost = (label: number): number => {
    if (label < nb) return fn.blocks[label]!.cost;
    if (label < nb + ne) {
      const e = fn.edges[label - nb]!;
      return isCallEdge(fn, e) ? 1 : e.cost;
    }
    if (label < nb + 2 * ne) {
      const e = fn.edges[label - nb - ne]!;
      return cost(e.items, 1, e.items.length);
    }
    return fn.entries.get(label - nb - 2 * ne)!.cost;
  };
  const sysOf = (b: RBlock): number => (b.term === 'trap' || b.term === 'halt' ? (b.addr + 4 * (b.n - 1)) | 0 : -1);
  /** An ending that leaves the table: [x, id, item, at, block]. */
  const leave = (x: number, id: number, item: number, at: number, block: number): void => {
    op(x);
    code.push(id, item, at, block);
  };
  const part = (label: number): number => {
    if (label < nb) {
      const b = fn.blocks[label]!;
      items(b.items, 0, b.items.length, b, UK_BODY);
      const len = b.items.length;
      if (b.term === 'halt') leave(X_LEAVE, b.id, len, AT_BLOCK, 0);
      else if (b.wt) {
        op(X_WITNESS);
        code.push(b.id, len, fn.wbytes);
        const ws = [...b.wt.keys()].sort((x, y) => x - y);
        code.push(ws.length);
        for (const w of ws) code.push(w, nb + b.wt.get(w)!);
      } else if (b.dc) {
        op(X_DECIDE);
        code.push(CMP_NAMES.indexOf(b.dc[0]));
        src(b.dc[1]);
        src(b.dc[2]);
        code.push(nb + b.dc[3], nb + b.dc[4]);
      } else if (b.term === 'ijump' || b.succ.length !== 1) leave(X_LEAVE, b.id, len, AT_BLOCK, 0);
      else return nb + b.succ[0]!;
      return -1;
    }
    if (label < nb + 2 * ne) {
      const resume = label >= nb + ne;
      const e = fn.edges[label - nb - (resume ? ne : 0)]!;
      const from = fn.blocks[e.from]!;
      const to = fn.blocks[e.to]!;
      if (!resume && isCallEdge(fn, e)) {
        items(e.items, 0, 1, from, UK_EDGE, e);
        leave(X_CALL, e.id, 1, AT_EDGE, from.id);
        return -1;
      }
      items(e.items, resume ? 1 : 0, e.items.length, from, UK_EDGE, e);
      if (to.term !== 'tail' && to.term !== 'exit' && from.term !== 'ijump') return to.id;
      leave(X_LEAVE_EDGE, e.id, e.items.length, AT_EDGE, from.id);
      return -1;
    }
    const block = label - nb - 2 * ne;
    const en = fn.entries.get(block)!;
    items(en.items, 0, en.items.length, fn.blocks[block]!, UK_ENTRY);
    if (fn.role !== 'setjmp' && fn.role !== 'longjmp') return block;
    leave(X_LEAVE, block, en.items.length, AT_ENTRY, 0);
    return -1;
  };
  const startable = (label: number): boolean => {
    if (label >= nb) return label < nb + ne || (label < nb + 2 * ne ? isCallEdge(fn, fn.edges[label - nb - ne]!) : fn.entries.has(label - nb - 2 * ne));
    const b = fn.blocks[label]!;
    return b.term !== 'tail' && b.term !== 'exit' && !Number.isNaN(b.naddr);
  };

  // A unit is the part of its label followed by the parts it goes on to, as long as control
  // simply continues (a superblock: the same part may be copied into several units).
  const t: UnitTable = { nb, ne, code: new Int32Array(256), length: 0, start, build: (label) => build(label) };
  for (let label = 0; label < start.length; label++) if (startable(label)) start[label] = UNBUILT;
  /** Builds the unit of `label` at the end of t.code; returns where it starts. */
  const build = (label: number): number => {
    code = [0, 0, NO_SYS];
    entries = 0;
    lastFetch = -1;
    // S.lastSyscall is what the last block's body leaves; nothing reads it inside a unit, so the
    // first block sets it at the unit's start (the header) and the others only when it changes.
    let known = NaN;
    let total = 0;
    const seen = new Set<number>();
    for (let cur = label; ;) {
      seen.add(cur);
      total += partCost(cur);
      if (cur < nb) {
        const v = sysOf(fn.blocks[cur]!);
        if (Number.isNaN(known)) code[2] = v;
        else if (v !== known) code.push(OP_SYSCALL, v);
        known = v;
      }
      const next = part(cur);
      if (next < 0) break;
      if (!startable(next) || seen.has(next) || seen.size >= MAX_PARTS || code.length >= MAX_WORDS) {
        op(X_GOTO);
        code.push(next);
        break;
      }
      cur = next;
    }
    code[0] = total;
    code[1] = entries;
    if (t.length + code.length > t.code.length) {
      const c = new Int32Array(Math.max(2 * t.code.length, t.length + code.length));
      c.set(t.code.subarray(0, t.length));
      t.code = c;
    }
    const where = t.length;
    t.code.set(code, where);
    t.length += code.length;
    start[label] = where;
    return where;
  };
  return t;
}

/** A call's out-edge: the callee runs after its delay slot, before the rest of the edge. */
function isCallEdge(fn: RFunc, e: REdge): boolean {
  const t = fn.blocks[e.from]!.term;
  return (t === 'call' || t === 'icall') && e.items[0]?.[0] === 'd';
}
