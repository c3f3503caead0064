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
import { opExpression } from './compile.js';
import { COMPARISONS, decideSource } from './decide.js';
import { itemCost, type RBlock, type REdge, type RFunc, type RegenProgram } from './model.js';

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
export const OP_RO = 3; // dest (mode, value), width, pc: the read-only load of the last reference's address
export const OP_TARGET = 4; // n, n operands (mode, value), immediate: S.target
export const OP_ALU = 5; // alu, window move, dest (mode, value), a (mode, value), b (mode, value)
export const OP_EVAL = 6; // op index, window move, a (mode, value), b (mode, value), n, n dests (mode, value): evalOp
export const OP_WINDOW = 7; // window move
export const OP_WITNESS = 8; // witness bytes, the edge's witness, edge
export const OP_RECORD = 9; // dest (mode, value), width, unit kind (UK_*)
export const OP_SYSCALL = 10; // value of S.lastSyscall at the end of a block's body
// How a unit ends (its last operation).
export const X_GOTO = 20; // label
export const X_HALT = 21; // block, items
export const X_WITNESS = 22; // block, items, witness bytes, n, then n (witness, label) pairs, or -1 - map index
export const X_DECIDE = 23; // comparison, a (mode, value), b (mode, value), label when true, label when false
export const X_LEAVE_BLOCK = 24; // block, items
export const X_CALL = 25; // edge, from block
export const X_LEAVE_EDGE = 26; // edge, from block, items
export const X_ENTRY = 27; // block, 1 when the function is setjmp or longjmp

export const UK_ENTRY = 0;
export const UK_BODY = 1;
export const UK_EDGE = 2;

/** The longest run of fetches one batch entry holds (its size field is a byte). */
const MAX_RUN = 255;

/** Witness tables longer than this are looked up in a Map. */
const LINEAR_WITNESSES = 8;

export interface UnitTable {
  nb: number;
  ne: number;
  /** The operations of every unit: [cost, most batch entries, operations..., ending]. */
  code: Int32Array;
  /** Per label: where its unit starts in code, or -1 (the interpreter runs it). */
  start: Int32Array;
  /** Long witness tables: witness -> label. */
  maps: Map<number, number>[];
}

/** The single-result operations the engine evaluates inline, by index (regen/compile.ts opExpression). */
const ALU_NAMES: ComputeName[] = (['add', 'sub', 'and', 'or', 'xor', 'nor', 'andn', 'orn', 'xnor', 'sll', 'srl', 'sra', 'slt', 'sltu', 'const', 'save', 'restore',
  'mult', 'multu', 'div', 'divu', 'umul', 'smul', 'udiv', 'sdiv', 'wry', 'ldro'] as ComputeName[]).filter((n) => opExpression(n, 'a', 'b') !== undefined);
/** Every operation, by index (OP_EVAL). */
export const EVAL_NAMES: ComputeName[] = ['add', 'sub', 'and', 'or', 'xor', 'nor', 'andn', 'orn', 'xnor', 'sll', 'srl', 'sra', 'slt', 'sltu', 'const',
  'mult', 'multu', 'div', 'divu', 'umul', 'smul', 'udiv', 'sdiv', 'wry', 'save', 'restore', 'ldro'];
const CMP_NAMES = [...COMPARISONS];

/**
 * The value of single-result operation `alu` (an index of ALU_NAMES) on a and b: one small
 * function made from compile.ts's expressions, so both engines share one definition.
 */
export const aluValue = new Function('op', 'a', 'b', `switch (op) {\n${ALU_NAMES.map((n, i) => `case ${i}: return ${opExpression(n, 'a', 'b')};`).join('\n')}\n}\nthrow new Error('no operation ' + op);`) as (op: number, a: number, b: number) => number;

/** Whether decided predicate `cmp` (an index of the comparisons) holds for a and b (decide.ts decideSource). */
export const decideHolds = new Function('cmp', 'a', 'b', `switch (cmp) {\n${CMP_NAMES.map((n, i) => `case ${i}: return ${decideSource([n, 0, 0, 0, 0] as never, 'a', 'b')};`).join('\n')}\n}\nthrow new Error('no comparison ' + cmp);`) as (cmp: number, a: number, b: number) => boolean;

const REG_Y = 65;

/** Builds a function's units (RFunc.units keeps them). */
export function buildUnits(prog: RegenProgram, fn: RFunc): UnitTable {
  const sparc = prog.sparc;
  const nb = fn.blocks.length;
  const ne = fn.edges.length;
  const code: number[] = [];
  const start = new Int32Array(2 * nb + 2 * ne).fill(-1);
  const maps: Map<number, number>[] = [];
  let entries = 0;
  let lastFetch = -1;

  const reg = (r: number, write: boolean): [number, number] => {
    if (r === 0) return write ? [MD_NONE, 0] : [MD_K, 0];
    if (r >= SLOT_BASE) return [MD_SLOT, r];
    if (!sparc) return [MD_R, r];
    if (r === REG_Y) return [MD_Y, 0];
    if (r < 8) return [MD_R, r];
    return [MD_W, r >= 24 ? r - 32 : r];
  };
  const src = (s: SSrc | null): [number, number] => (s === null ? [MD_K, 0] : typeof s === 'number' ? reg(s, false) : [MD_K, s.k | 0]);
  const emit = (...xs: number[]): void => {
    code.push(...xs);
    lastFetch = -1;
  };
  const fetch = (pc: number): void => {
    if (lastFetch >= 0 && code[lastFetch + 2]! < MAX_RUN && code[lastFetch + 1]! + 4 * code[lastFetch + 2]! === (pc | 0)) {
      code[lastFetch + 2]!++;
      return;
    }
    entries++;
    const at = code.length;
    code.push(OP_FETCH, pc | 0, 1);
    lastFetch = at;
  };
  const insn = (a: SInsn | null, pc: number): void => {
    fetch(pc);
    if (a === null) return;
    if (a.t) emit(OP_TARGET, a.t[0].length, ...a.t[0].flatMap((r) => reg(r, false)), a.t[1] | 0);
    if (a.m) {
      const [kind, size, base, index, off] = a.m;
      emit(OP_MEM, kind, size, ...reg(base, false), off | 0, ...(index >= 0 ? reg(index, false) : [MD_K, 0]));
      entries += kind === 0 || kind === 1 ? 1 : 2;
      if (a.v) emit(OP_RO, ...reg(a.v[0], true), a.v[1], pc | 0);
    }
    const c = a.c;
    const move = a.w ?? 0;
    if (!c) {
      if (move) emit(OP_WINDOW, move);
      return;
    }
    const [op, d, sa, sb] = c;
    const alu = ALU_NAMES.indexOf(op);
    if (alu >= 0 && d.length === 1) emit(OP_ALU, alu, move, ...reg(d[0]!, true), ...src(sa), ...src(sb));
    else emit(OP_EVAL, EVAL_NAMES.indexOf(op), move, ...src(sa), ...src(sb), d.length, ...d.flatMap((r) => reg(r, true)));
  };
  const items = (its: Item[], from: number, to: number, b: RBlock, unit: number, e?: REdge): void => {
    for (let k = from; k < to; k++) {
      const it = its[k]!;
      switch (it[0]) {
        case 'o': insn(b.insns[it[1]]!, b.addr + 4 * it[1]); break;
        case 'd': insn(b.ds, b.addr + 4 * b.n); break;
        case 'w': emit(OP_WITNESS, fn.wbytes, e!.witness!, e!.id); break;
        case 'r': emit(OP_RECORD, ...reg(it[1], true), it[3], unit); break;
        case 'g': break;
      }
    }
  };
  const cost = (its: Item[], from: number, to: number): number => {
    let n = 0;
    for (let k = from; k < to; k++) n += itemCost(its[k]!);
    return n;
  };
  /** Opens the unit of `label`; returns where its event bound goes. */
  const open = (label: number, c: number): number => {
    start[label] = code.length;
    code.push(c, 0);
    entries = 0;
    lastFetch = -1;
    return code.length - 1;
  };

  for (const b of fn.blocks) {
    if (b.term === 'tail' || b.term === 'exit' || Number.isNaN(b.naddr)) continue;
    const ev = open(b.id, b.cost);
    items(b.items, 0, b.items.length, b, UK_BODY);
    const trap = b.term === 'trap' || b.term === 'halt';
    emit(OP_SYSCALL, trap ? (b.addr + 4 * (b.n - 1)) | 0 : -1);
    code[ev] = entries;
    const len = b.items.length;
    if (b.term === 'halt') emit(X_HALT, b.id, len);
    else if (b.wt) {
      if (b.wt.size <= LINEAR_WITNESSES) emit(X_WITNESS, b.id, len, fn.wbytes, b.wt.size, ...[...b.wt].flatMap(([w, e]) => [w, nb + e]));
      else {
        maps.push(new Map([...b.wt].map(([w, e]) => [w, nb + e])));
        emit(X_WITNESS, b.id, len, fn.wbytes, -maps.length);
      }
    } else if (b.dc) emit(X_DECIDE, CMP_NAMES.indexOf(b.dc[0]), ...src(b.dc[1]), ...src(b.dc[2]), nb + b.dc[3], nb + b.dc[4]);
    else if (b.term === 'ijump' || b.succ.length !== 1) emit(X_LEAVE_BLOCK, b.id, len);
    else emit(X_GOTO, nb + b.succ[0]!);
  }
  for (const e of fn.edges) {
    const from = fn.blocks[e.from]!;
    const to = fn.blocks[e.to]!;
    const isCall = (from.term === 'call' || from.term === 'icall') && e.items[0]?.[0] === 'd';
    const inline = to.term !== 'tail' && to.term !== 'exit' && from.term !== 'ijump';
    let first = 0;
    if (isCall) {
      const ev = open(nb + e.id, 1);
      items(e.items, 0, 1, from, UK_EDGE, e);
      code[ev] = entries;
      emit(X_CALL, e.id, from.id);
      first = 1;
    }
    const ev = open(nb + (isCall ? ne : 0) + e.id, cost(e.items, first, e.items.length));
    items(e.items, first, e.items.length, from, UK_EDGE, e);
    code[ev] = entries;
    if (inline) emit(X_GOTO, to.id);
    else emit(X_LEAVE_EDGE, e.id, from.id, e.items.length);
  }
  for (const en of fn.entries.values()) {
    const b = fn.blocks[en.block]!;
    const ev = open(nb + 2 * ne + en.block, en.cost);
    items(en.items, 0, en.items.length, b, UK_ENTRY);
    code[ev] = entries;
    emit(X_ENTRY, en.block, fn.role === 'setjmp' || fn.role === 'longjmp' ? 1 : 0);
  }
  return { nb, ne, code: Int32Array.from(code), start, maps };
}
