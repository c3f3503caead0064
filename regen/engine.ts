/**
 * The table engine: runs the units of regen/units.ts — one loop for every function of every
 * program, so V8 optimises it once, early in a pass, instead of compiling and deoptimising one
 * large generated function per guest function (docs/replay.md, "Cold").
 *
 * Contract (that of the compiled code it replaces, regen/compile.ts): a unit runs whole when its
 * cost fits before `stop`; otherwise the process is parked at the unit's start and the engine
 * returns, and the reference interpreter (regen/process.ts) steps the unit item by item. Calls,
 * returns and transfers between functions go through the process's own methods (callAfterDs,
 * leaveBlock, leaveEdge) and the engine continues in the next function's units; it returns when
 * the process stands where no unit starts.
 *
 * Events go into one batch of typed arrays and reach the process's sink (EventSink.events, or one
 * call per event) when the batch is full and before the engine returns, normally or by an
 * exception, so a consumer sees every event before anything else happens to the process.
 */
import { evalOp } from '../tracer/semantics.js';
import { REF_I, REF_I_RUN, REF_L, REF_S } from './replay/consumer.js';
import type { RFunc } from './model.js';
import { AT_BLOCK, AT_EDGE, AT_ENTRY } from './frame.js';
import type { EventSink, RegenProcess } from './process.js';
import {
  EVAL_NAMES, MD_K, NO_SYS, UNBUILT, OP_FETCH_MEM, OP_AHEAD, MD_NONE, MD_R, MD_SLOT, MD_W, MD_Y, OP_ALU, OP_EVAL, OP_FETCH, OP_MEM, OP_RECORD, OP_RO, OP_SYSCALL, OP_TARGET, OP_WINDOW,
  OP_WITNESS, UK_BODY, UK_ENTRY, X_CALL, X_DECIDE, X_GOTO, X_LEAVE_EDGE, X_WITNESS, aluValue, buildUnits,
  decideHolds, type UnitTable,
} from './units.js';

/** Entries per batch (a unit with more makes the batch larger). */
const BATCH = 1 << 13;

/** The batch (RefConsumer.refBatch's entries): kind, address, size (of a run: its fetches). */
let bKind = new Uint8Array(BATCH);
let bAddr = new Uint32Array(BATCH);
let bSize = new Uint8Array(BATCH);

function deliver(sink: EventSink, n: number, events: number): void {
  if (n === 0) return;
  if (sink.events) {
    sink.events(n, events, bKind, bAddr, bSize);
    return;
  }
  for (let i = 0; i < n; i++) {
    const k = bKind[i];
    const a = bAddr[i]!;
    if (k === REF_I_RUN) for (let j = 0, m = bSize[i]!; j < m; j++) sink.ifetch((a + 4 * j) >>> 0);
    else if (k === REF_I) sink.ifetch(a);
    else if (k === REF_L) sink.load(a, bSize[i]!);
    else sink.store(a, bSize[i]!);
  }
}

/** Room for a unit of n entries (when it is built), keeping the entries of the batch so far. */
function grow(n: number): void {
  const cap = Math.max(2 * bKind.length, n);
  const k = new Uint8Array(cap);
  const a = new Uint32Array(cap);
  const z = new Uint8Array(cap);
  k.set(bKind);
  a.set(bAddr);
  z.set(bSize);
  bKind = k;
  bAddr = a;
  bSize = z;
}

function unitsOf(S: RegenProcess, fn: RFunc): UnitTable {
  return (fn.units ??= buildUnits(S.prog, fn));
}

/** The label of the unit the process stands at the start of, or -1. */
function labelOf(S: RegenProcess, t: UnitTable): number {
  if (S.sub !== 0) return -1;
  const item = S.item;
  switch (S.at) {
    case AT_BLOCK: return item === 0 ? S.id : -1;
    case AT_EDGE: {
      if (item === 0) return t.nb + S.id;
      const l = t.nb + t.ne + S.id;
      return item === 1 && t.start[l]! !== -1 ? l : -1;
    }
    case AT_ENTRY: return item === 0 ? t.nb + 2 * t.ne + S.id : -1;
  }
  return -1;
}

/** Positions the process at the start of unit `label`. */
function park(S: RegenProcess, t: UnitTable, label: number): void {
  const { nb, ne } = t;
  S.item = 0;
  if (label < nb) {
    S.at = AT_BLOCK;
    S.id = label;
  } else if (label < nb + ne) {
    S.at = AT_EDGE;
    S.id = label - nb;
  } else if (label < nb + 2 * ne) {
    S.at = AT_EDGE;
    S.id = label - nb - ne;
    S.item = 1;
  } else {
    S.at = AT_ENTRY;
    S.id = label - nb - 2 * ne;
  }
}

function readSlot(S: RegenProcess, r: number): number {
  return S.slots.get(r) ?? 0;
}

/** A register operand's value. */
function rd(S: RegenProcess, R: Int32Array, wb: number, m: number, v: number): number {
  if (m === MD_R) return R[v]!;
  if (m === MD_K) return v;
  if (m === MD_W) return R[wb + v]!;
  if (m === MD_Y) return S.y;
  return readSlot(S, v);
}

/** Writes a register operand. */
function wr(S: RegenProcess, R: Int32Array, wb: number, m: number, r: number, v: number): void {
  if (m === MD_R) R[r] = v;
  else if (m === MD_W) R[wb + r] = v;
  else if (m === MD_Y) S.y = v | 0;
  else if (m === MD_SLOT) S.slotSet(r, v);
  else if (m !== MD_NONE) throw new Error(`register mode ${m}`);
}

/**
 * The operations most units do without (a read-only load, an operation of several results or
 * that V8 should not inline into the loop, a known loop's value read ahead, a system call's
 * address): one at `pc`; returns the next operation's position.
 */
function rareOp(S: RegenProcess, code: Int32Array, pc: number, va: number): number {
  let R = S.R;
  let wb = S.wb;
  switch (code[pc]) {
    case OP_RO:
      wr(S, R, wb, code[pc + 1]!, code[pc + 2]!, S.prog.roLoad(va, code[pc + 3]!, code[pc + 4]! >>> 0));
      return pc + 5;
    case OP_EVAL: {
      const vs = evalOp(EVAL_NAMES[code[pc + 1]!]!, rd(S, R, wb, code[pc + 3]!, code[pc + 4]!), rd(S, R, wb, code[pc + 5]!, code[pc + 6]!), S.y);
      const move = code[pc + 2]!;
      if (move !== 0) {
        S.moveWindow(move);
        R = S.R;
        wb = S.wb;
      }
      const k = code[pc + 7]!;
      for (let i = 0; i < k; i++) wr(S, R, wb, code[pc + 8 + 2 * i]!, code[pc + 9 + 2 * i]!, vs[i]!);
      return pc + 8 + 2 * k;
    }
    case OP_AHEAD: {
      const width = code[pc + 3]!;
      wr(S, R, wb, code[pc + 1]!, code[pc + 2]!, S.readAhead(width, (rd(S, R, wb, code[pc + 4]!, code[pc + 5]!) - code[pc + 6]!) | 0));
      S.counts.edge += width;
      S.counts.recordItems++;
      return pc + 7;
    }
    case OP_SYSCALL:
      S.lastSyscall = code[pc + 1]! === -1 ? -1 : code[pc + 1]! >>> 0;
      return pc + 2;
  }
  throw S.error(`unit table: no operation ${code[pc]} at ${pc}`);
}

/** Runs units from the process's position until stop, or until no unit starts where it stands. */
export function runUnits(S: RegenProcess, stop: number): void {
  let fn = S.fn;
  let t = unitsOf(S, fn);
  let L = labelOf(S, t);
  if (L < 0) return;
  let code = t.code;
  let R = S.R;
  let wb = S.wb;
  let n = 0;
  let events = 0;
  try {
    for (;;) {
      let pc = t.start[L]!;
      if (pc === UNBUILT) {
        pc = t.build(L);
        code = t.code;
        if (pc >= 0 && code[pc + 1]! > bKind.length) grow(code[pc + 1]!);
      }
      // The engine returns at the start of a unit that does not fit before `stop`, or whose
      // events do not fit in the batch (delivered on the way out, and run() enters again): one
      // way out, so that it has run, with its type feedback, before V8 optimises the loop.
      if (pc < 0 || S.ic + code[pc]! > stop || n + code[pc + 1]! > bKind.length) {
        park(S, t, L);
        return;
      }
      S.ic += code[pc]!;
      const sys = code[pc + 2]!;
      if (sys !== NO_SYS) S.lastSyscall = sys === -1 ? -1 : sys >>> 0;
      pc += 3;
      let va = 0;
      run: for (;;) {
        switch (code[pc]) {
          case OP_FETCH:
          case OP_FETCH_MEM:
          case OP_MEM: {
            const op = code[pc];
            if (op !== OP_MEM) {
              bKind[n] = REF_I_RUN;
              bAddr[n] = code[pc + 1]!;
              bSize[n] = code[pc + 2]!;
              events += code[pc + 2]!;
              n++;
              if (op === OP_FETCH) {
                pc += 3;
                break;
              }
              // The run ends with the instruction making the reference.
              pc += 2;
            }
            const kind = code[pc + 1]!;
            const size = code[pc + 2]!;
            va = (rd(S, R, wb, code[pc + 3]!, code[pc + 4]!) + code[pc + 5]! + rd(S, R, wb, code[pc + 6]!, code[pc + 7]!)) >>> 0;
            if (kind === 0 || kind === 1) {
              bKind[n] = kind + 1;
              bAddr[n] = va;
              bSize[n] = size;
              n++;
              events++;
            } else {
              bKind[n] = REF_L;
              bAddr[n] = va;
              bSize[n] = size;
              bKind[n + 1] = REF_S;
              bAddr[n + 1] = va;
              bSize[n + 1] = size;
              n += 2;
              events += 2;
            }
            pc += 8;
            break;
          }
          case OP_ALU: {
            const v = aluValue(code[pc + 1]!, rd(S, R, wb, code[pc + 5]!, code[pc + 6]!), rd(S, R, wb, code[pc + 7]!, code[pc + 8]!), S.y);
            const move = code[pc + 2]!;
            if (move !== 0) {
              S.moveWindow(move);
              R = S.R;
              wb = S.wb;
            }
            wr(S, R, wb, code[pc + 3]!, code[pc + 4]!, v);
            pc += 9;
            break;
          }
          case OP_TARGET: {
            const k = code[pc + 1]!;
            let sum = 0;
            for (let i = 0; i < k; i++) sum += rd(S, R, wb, code[pc + 2 + 2 * i]!, code[pc + 3 + 2 * i]!);
            S.target = (sum + code[pc + 2 + 2 * k]!) >>> 0;
            pc += 3 + 2 * k;
            break;
          }
          case OP_WINDOW:
            S.moveWindow(code[pc + 1]!);
            R = S.R;
            wb = S.wb;
            pc += 2;
            break;
          case OP_WITNESS: {
            const bytes = code[pc + 1]! as 1 | 2;
            let w: number;
            if (S.pending >= 0) {
              w = S.pending;
              S.pending = -1;
            } else w = S.readWitness(bytes);
            if (w !== code[pc + 2]) {
              park(S, t, L);
              throw S.error(`witness ${w} read where edge ${code[pc + 3]} writes ${code[pc + 2]}`);
            }
            S.counts.witness += bytes;
            S.counts.witnessItems++;
            pc += 4;
            break;
          }
          case OP_RECORD: {
            const width = code[pc + 3]!;
            wr(S, R, wb, code[pc + 1]!, code[pc + 2]!, S.readValue(width));
            const c = S.counts;
            const unit = code[pc + 4];
            if (unit === UK_BODY) c.body += Math.abs(width);
            else if (unit === UK_ENTRY) c.entry += Math.abs(width);
            else c.edge += Math.abs(width);
            c.recordItems++;
            pc += 5;
            break;
          }
          default:
            if (code[pc]! >= X_GOTO) break run;
            // The rarer operations, out of the loop's code.
            pc = rareOp(S, code, pc, va);
            R = S.R;
            wb = S.wb;
        }
      }
      // The unit's ending. Its kinds are told apart by comparisons in the order of their
      // frequency, and the endings that leave the table carry the position they leave at as
      // operands ([kind, id, item, at, block]), so that every operation of this part that has
      // type feedback runs at the common endings, before V8 optimises the loop: a rare ending
      // first met later costs no deoptimisation of the loop and two more compilations of it
      // (which took a third of the CPU time of V8's compiler in a cold pass over a demo bundle).
      const x = code[pc]!;
      const a = code[pc + 1]!;
      if (x === X_GOTO) {
        L = a;
        continue;
      }
      const b = code[pc + 2]!;
      if (x === X_DECIDE) {
        L = decideHolds(a, rd(S, R, wb, b, code[pc + 3]!), rd(S, R, wb, code[pc + 4]!, code[pc + 5]!)) ? code[pc + 6]! : code[pc + 7]!;
        continue;
      }
      let at = code[pc + 3]!;
      if (x === X_WITNESS) {
        // [X_WITNESS, block, items, witness bytes, n, n (witness, label) pairs by witness]. The
        // engine stops at the predicate when the process has reached `stop` or its context holds
        // no witness yet, and when the witness selects no successor: the interpreter
        // (RegenProcess.step) decides there, as it does at the end of the block's body.
        if (S.pending >= 0 || (S.ic < stop && (S.pending = S.readWitnessAhead(at as 1 | 2)) >= 0)) {
          const w = S.pending;
          let lo = pc + 5;
          let hi = lo + 2 * code[pc + 4]!;
          while (lo < hi) {
            const mid = lo + (((hi - lo) >> 2) << 1);
            const v = code[mid]!;
            if (v === w) {
              lo = mid;
              break;
            }
            if (v < w) lo = mid + 2;
            else hi = mid;
          }
          if (lo < hi) {
            L = code[lo + 1]!;
            continue;
          }
        }
        at = AT_BLOCK;
      }
      S.at = at;
      S.id = a;
      S.item = b;
      if (x === X_CALL) S.callAfterDs(fn.blocks[code[pc + 4]!]!, fn.edges[a]!);
      else if (x === X_LEAVE_EDGE) S.leaveEdge(fn.blocks[code[pc + 4]!]!, fn.edges[a]!);
      // The rarer endings leave the engine, and run() goes on from the position just set: the
      // interpreter (RegenProcess.step) takes an indirect jump's transfer, runs the end of an
      // entry stub of setjmp or longjmp, stops at a halting trap or at a predicate.
      else return;
      // A transfer through the process's methods: continue where it stands.
      R = S.R;
      wb = S.wb;
      if (S.fn !== fn) {
        fn = S.fn;
        t = unitsOf(S, fn);
        code = t.code;
      }
      L = labelOf(S, t);
      if (L < 0) return;
    }
  } finally {
    deliver(S.sink, n, events);
  }
}
