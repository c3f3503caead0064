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
  OP_WITNESS, UK_BODY, UK_ENTRY, X_CALL, X_DECIDE, X_ENTRY, X_GOTO, X_HALT, X_LEAVE_BLOCK, X_LEAVE_EDGE, X_WITNESS, aluValue, buildUnits,
  decideHolds, type UnitTable,
} from './units.js';

/** Events per batch (a unit with more gets a batch of its own size). */
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

function grow(n: number): void {
  const cap = Math.max(2 * bKind.length, n);
  bKind = new Uint8Array(cap);
  bAddr = new Uint32Array(cap);
  bSize = new Uint8Array(cap);
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
  else if (m === MD_SLOT) S.slots.set(r, v | 0);
  else if (m !== MD_NONE) throw new Error(`register mode ${m}`);
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
      }
      if (pc < 0 || S.ic + code[pc]! > stop) {
        park(S, t, L);
        return;
      }
      S.ic += code[pc]!;
      const most = code[pc + 1]!;
      if (n + most > bKind.length) {
        deliver(S.sink, n, events);
        n = 0;
        events = 0;
        if (most > bKind.length) grow(most);
      }
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
          case OP_RO:
            wr(S, R, wb, code[pc + 1]!, code[pc + 2]!, S.prog.roLoad(va, code[pc + 3]!, code[pc + 4]! >>> 0));
            pc += 5;
            break;
          case OP_TARGET: {
            const k = code[pc + 1]!;
            let sum = 0;
            for (let i = 0; i < k; i++) sum += rd(S, R, wb, code[pc + 2 + 2 * i]!, code[pc + 3 + 2 * i]!);
            S.target = (sum + code[pc + 2 + 2 * k]!) >>> 0;
            pc += 3 + 2 * k;
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
            pc += 8 + 2 * k;
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
          case OP_AHEAD: {
            const width = code[pc + 3]!;
            wr(S, R, wb, code[pc + 1]!, code[pc + 2]!, S.readAhead(width, (rd(S, R, wb, code[pc + 4]!, code[pc + 5]!) - code[pc + 6]!) | 0));
            S.counts.edge += width;
            S.counts.recordItems++;
            pc += 7;
            break;
          }
          case OP_SYSCALL:
            S.lastSyscall = code[pc + 1]! === -1 ? -1 : code[pc + 1]! >>> 0;
            pc += 2;
            break;
          default:
            break run;
        }
      }
      // The unit's ending.
      switch (code[pc]) {
        case X_GOTO:
          L = code[pc + 1]!;
          continue;
        case X_DECIDE:
          L = decideHolds(code[pc + 1]!, rd(S, R, wb, code[pc + 2]!, code[pc + 3]!), rd(S, R, wb, code[pc + 4]!, code[pc + 5]!)) ? code[pc + 6]! : code[pc + 7]!;
          continue;
        case X_WITNESS: {
          const b = code[pc + 1]!;
          if (S.pending < 0 && (S.ic >= stop || (S.pending = S.readWitnessAhead(code[pc + 3]! as 1 | 2)) < 0)) {
            S.at = AT_BLOCK;
            S.id = b;
            S.item = code[pc + 2]!;
            return;
          }
          const w = S.pending;
          const k = code[pc + 4]!;
          let to = -1;
          if (k >= 0) {
            for (let i = 0; i < k; i++) {
              if (code[pc + 5 + 2 * i] === w) {
                to = code[pc + 6 + 2 * i]!;
                break;
              }
            }
          } else to = t.maps[-k - 1]!.get(w) ?? -1;
          if (to >= 0) {
            L = to;
            continue;
          }
          S.at = AT_BLOCK;
          S.id = b;
          S.item = code[pc + 2]!;
          S.leaveBlock(fn.blocks[b]!); // throws: no successor for this witness
          return;
        }
        case X_HALT:
          // Nothing continues after a halting trap: the process waits here for a signal.
          S.at = AT_BLOCK;
          S.id = code[pc + 1]!;
          S.item = code[pc + 2]!;
          return;
        case X_ENTRY:
          // setjmp and longjmp take their snapshot at the block their entry stub leads to.
          S.at = AT_BLOCK;
          S.id = code[pc + 1]!;
          S.item = 0;
          S.jmpEntry();
          L = code[pc + 1]!;
          continue;
        case X_LEAVE_BLOCK: {
          const b = code[pc + 1]!;
          S.at = AT_BLOCK;
          S.id = b;
          S.item = code[pc + 2]!;
          S.leaveBlock(fn.blocks[b]!);
          break;
        }
        case X_CALL: {
          const e = code[pc + 1]!;
          S.at = AT_EDGE;
          S.id = e;
          S.item = 1;
          S.callAfterDs(fn.blocks[code[pc + 2]!]!, fn.edges[e]!);
          break;
        }
        case X_LEAVE_EDGE: {
          const e = code[pc + 1]!;
          S.at = AT_EDGE;
          S.id = e;
          S.item = code[pc + 3]!;
          S.leaveEdge(fn.blocks[code[pc + 2]!]!, fn.edges[e]!);
          break;
        }
        default:
          throw S.error(`unit table: no ending ${code[pc]} at ${pc}`);
      }
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
