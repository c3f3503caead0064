/**
 * The reference interpreter: executes exactly one instruction (or takes one trap) per `step`,
 * straight from the manual's definitions (The SPARC Architecture Manual v8, Appendix B), with
 * the conditions of each instruction checked in trap-priority order (Table 7-1).
 *
 * Control transfer (manual 5.5.1): every instruction sets PC <- nPC; nPC <- nPC + 4 unless it is
 * a CTI. A taken Bicc/FBfcc sets nPC <- target (its delay instruction, at the old nPC, runs
 * next); an untaken one with a = 1 annuls the delay instruction (PC <- nPC + 4, nPC <- nPC + 8);
 * ba,a annuls it while transferring (PC <- target, nPC <- target + 4). A CTI in a delay slot
 * (a CTI couple) follows from the same rules applied with the PC/nPC it sees.
 *
 * What the rows with a `value` binding compute (opcodes.ts) is compiled from that binding
 * (values.ts) once, when the row is first decoded; their condition codes follow values.ts's iccOf.
 *
 * Retirement: `step` returns 1 when the instruction completed, 0 when it trapped — except a Ticc
 * whose condition holds: it retires and then enters its trap (the kernel resumes after it).
 * With a reference sink and S = 0, every retired instruction reports its fetch, then its load
 * and/or store (ldstub/swap: both; ldd/std: one 8-byte reference).
 */
import { decode, type Insn } from './decode.js';
import { MAP_INVALID } from './mmu.js';
import type { OpSpecFull } from './opcodes.js';
import { CC_ADD, CC_LOGIC, CC_SUB, regAt } from './state.js';
import {
  FTT_SEQUENCE_ERROR, TT_CP_DISABLED, TT_DIVISION_BY_ZERO, TT_FP_DISABLED, TT_FP_EXCEPTION,
  TT_ILLEGAL_INSTRUCTION, TT_MEM_ADDRESS_NOT_ALIGNED, TT_PRIVILEGED_INSTRUCTION, TT_TRAP_INSTRUCTION,
} from './traps.js';
import { CC_DIV, iccOf, valueCode } from './values.js';
import { compile } from '../semantics.js';
import { sdivOverflows, udivOverflows } from '../arith.js';
import type { SparcCore } from './core.js';

/**
 * Semantic classes of the opcode table, numbered for a dense switch: `value` for the rows with a
 * value binding (save and restore keep their own class: they also move the window).
 */
const SEMS = [
  'unknown', 'call', 'unimp', 'bicc', 'fbfcc', 'cbccc', 'ticc', 'value',
  'addx', 'subx', 'addxcc', 'subxcc', 'taddcc', 'tsubcc', 'taddcctv', 'tsubcctv', 'mulscc',
  'stbar', 'rdasr', 'rdpsr', 'rdwim', 'rdtbr', 'wrasr', 'wrpsr', 'wrwim', 'wrtbr',
  'jmpl', 'rett', 'flush', 'save', 'restore', 'load', 'store', 'ldstub', 'swap', 'fload', 'fstore', 'cpmem',
  'fpop', 'cpop',
] as const;
export type Sem = (typeof SEMS)[number];
const SEM_ID = new Map<string, number>(SEMS.map((s, i) => [s, i]));

/** A row's value binding, compiled (when the row is first decoded): rd's new value (other results, Y, written). */
type ValueFn = (c: SparcCore, a: number, b: number, d: Insn) => number;
const VALUE = new Map<OpSpecFull, ValueFn>();
function valueFn(s: OpSpecFull): ValueFn {
  let f = VALUE.get(s);
  if (f === undefined) {
    let n = 0;
    const t = (): string => `v${n++}`;
    const v = valueCode(s, undefined, 'a', 'b', t);
    const temps = Array.from({ length: n }, (_, k) => `v${k}`);
    f = compile<ValueFn>(['c', 'a', 'b', 'd'], `${temps.length ? `let ${temps.join(', ')}; ` : ''}${v.pre} return ${v.rd ?? 0};`);
    VALUE.set(s, f);
  }
  return f;
}

/** A decoded instruction with its semantic class number and, for `value` rows, their code. */
export interface DInsn extends Insn {
  sem: number;
  /** The compiled value binding (save, restore and the `value` class). */
  value: ValueFn | undefined;
  /** icc the row sets from its value (iccOf), or undefined. */
  icc: number | undefined;
  /** The binding writes rd. */
  writesRd: boolean;
  /** udiv, sdiv: division_by_zero when the divisor is 0. */
  divides: boolean;
}

const FP_SEMS = new Set(['fito', 'ftoi', 'fcvt', 'fmovs', 'fnegs', 'fabss', 'fsqrt', 'fadd', 'fsub', 'fmul', 'fdiv', 'fcmp', 'fcmpe']);

const S = Object.fromEntries(SEMS.map((s, i) => [s, i])) as Record<Sem, number>;

const cache = new Map<number, DInsn>();

/** Decodes with a cache keyed by the word (decoding depends on nothing else). */
export function decodeCached(word: number): DInsn {
  let d = cache.get(word);
  if (d) return d;
  const x = decode(word) as DInsn;
  const op3 = (word >>> 19) & 0x3f;
  const s = x.spec;
  x.value = s?.value ? valueFn(s) : undefined;
  x.icc = s ? iccOf(s) : undefined;
  x.writesRd = s?.value?.d[0] === 'rd';
  x.divides = s?.value?.op === 'udiv' || s?.value?.op === 'sdiv';
  if (x.op === 2 && (op3 === 0x34 || op3 === 0x35)) x.sem = SEM_ID.get('fpop')!;
  else if (!s) x.sem = 0;
  else if (FP_SEMS.has(s.sem)) x.sem = SEM_ID.get('fpop')!;
  else if (s.value && s.sem !== 'save' && s.sem !== 'restore') x.sem = S.value;
  else {
    const id = SEM_ID.get(s.sem);
    if (id === undefined) throw new Error(`interp: no semantics for ${s.name} (${s.sem})`);
    x.sem = id;
  }
  if (cache.size > 65536) cache.clear();
  cache.set(word, x);
  return x;
}

/** Executes one instruction. Returns the number retired (0 or 1). */
export function step(c: SparcCore): number {
  const pc = c.pc;
  const npc = c.npc;
  const r = c.rf;
  const wb = c.wb;
  let e: number;
  let pa: number;
  if ((pc >>> 12) === c.ifPage) pa = (pc + c.ifDelta) | 0;
  else {
    pa = c.fetchPa(pc, npc);
    if (pa < 0) return 0;
  }
  const d = decodeCached(c.u32[pa >>> 2]! >>> 0);
  const user = c.s === 0;
  let nextPc = npc;
  let nextNpc = (npc + 4) | 0;
  // Memory reference for the sink: kind 1 load, 2 store, 3 both.
  let mk = 0;
  let ma = 0;
  let ms = 0;
  const rd = d.rd;
  const a = r[regAt(wb, d.rs1)]!;
  const b = d.i ? d.simm13 : r[regAt(wb, d.rs2)]!;
  let v = 0;

  switch (d.sem) {
    case S.unknown: case S.unimp:
      c.trapAt(TT_ILLEGAL_INSTRUCTION, pc, npc);
      return 0;
    case S.call:
      r[wb + 15] = pc;
      nextNpc = (pc + d.disp) | 0;
      break;
    case S.bicc: case S.fbfcc: {
      let taken: boolean;
      if (d.sem === S.fbfcc) {
        if (!c.ef) {
          c.trapAt(TT_FP_DISABLED, pc, npc);
          return 0;
        }
        taken = c.fcond(d.cond);
      } else {
        taken = c.cond(d.cond);
      }
      const target = (pc + d.disp) | 0;
      if (taken) {
        if (d.cond === 8 && d.a) {
          nextPc = target;
          nextNpc = (target + 4) | 0;
        } else {
          nextNpc = target;
        }
      } else if (d.a) {
        nextPc = (npc + 4) | 0;
        nextNpc = (npc + 8) | 0;
      }
      break;
    }
    case S.cbccc: case S.cpop: case S.cpmem:
      if (d.sem === S.cpmem && d.spec!.priv && user) {
        c.trapAt(TT_PRIVILEGED_INSTRUCTION, pc, npc);
        return 0;
      }
      c.trapAt(TT_CP_DISABLED, pc, npc);
      return 0;
    case S.ticc: {
      if (c.cond(d.cond)) {
        // Retires, then traps with %l1/%l2 = its PC/nPC.
        if (user && c.sink) c.sink.ifetch(pc >>> 0);
        c.trapAt(TT_TRAP_INSTRUCTION + ((a + b) & 0x7f), pc, npc);
        return 1;
      }
      break;
    }
    // ---- computed values (opcodes.ts `value`), and what ops.ts computes ----
    case S.value: {
      if (d.divides && b === 0) {
        c.trapAt(TT_DIVISION_BY_ZERO, pc, npc);
        return 0;
      }
      const icc = d.icc;
      v = d.value!(c, a, b, d);
      if (icc === CC_ADD || icc === CC_SUB) {
        c.ccOp = icc; c.ccA = a; c.ccB = b;
      } else if (icc === CC_LOGIC) {
        c.ccOp = CC_LOGIC; c.ccA = v;
      } else if (icc === CC_DIV) {
        const over = d.spec!.value!.op === 'udiv' ? udivOverflows(c.y, a, b) : sdivOverflows(c.y, a, b);
        c.setFlags(v < 0, v === 0, over, false);
      }
      if (!d.writesRd) return retire(c, d, pc, user, nextPc, nextNpc, 0, 0, 0);
      break;
    }
    case S.addx: v = c.addx(a, b, false); break;
    case S.subx: v = c.subx(a, b, false); break;
    case S.addxcc: v = c.addx(a, b, true); break;
    case S.subxcc: v = c.subx(a, b, true); break;
    case S.taddcc: case S.tsubcc: case S.taddcctv: case S.tsubcctv:
      v = c.tagged(d.sem === S.tsubcc || d.sem === S.tsubcctv, d.sem === S.taddcctv || d.sem === S.tsubcctv, a, b, pc, npc);
      if (c.trapped) return 0;
      break;
    case S.mulscc: v = c.mulscc(a, b); break;
    // ---- state registers ----
    case S.stbar: return retire(c, d, pc, user, nextPc, nextNpc, 0, 0, 0);
    case S.rdasr: case S.wrasr:
      // No ancillary state registers are implemented.
      c.trapAt(TT_ILLEGAL_INSTRUCTION, pc, npc);
      return 0;
    case S.rdpsr: case S.rdwim: case S.rdtbr:
      if (user) {
        c.trapAt(TT_PRIVILEGED_INSTRUCTION, pc, npc);
        return 0;
      }
      v = d.sem === S.rdpsr ? c.psr | 0 : d.sem === S.rdwim ? c.wim | 0 : c.tbr | 0;
      break;
    case S.wrpsr: case S.wrwim: case S.wrtbr:
      if (user) {
        c.trapAt(TT_PRIVILEGED_INSTRUCTION, pc, npc);
        return 0;
      }
      if (d.sem === S.wrpsr) {
        if (!c.wrpsr(a ^ b, pc, npc)) return 0;
      } else if (d.sem === S.wrwim) {
        c.setWim(a ^ b);
      } else {
        c.tba = (a ^ b) & ~0xfff;
      }
      return retire(c, d, pc, user, nextPc, nextNpc, 0, 0, 0);
    // ---- control ----
    case S.jmpl: {
      const target = (a + b) | 0;
      if (target & 3) {
        c.trapAt(TT_MEM_ADDRESS_NOT_ALIGNED, pc, npc);
        return 0;
      }
      v = pc;
      nextNpc = target;
      break;
    }
    case S.rett: {
      // RETT (B.27): privileged; with ET = 1 illegal. With ET = 0 any exception enters error mode.
      if (c.et) {
        c.trapAt(user ? TT_PRIVILEGED_INSTRUCTION : TT_ILLEGAL_INSTRUCTION, pc, npc);
        return 0;
      }
      const target = (a + b) | 0;
      if (!c.rettInsn(target, pc, npc)) return 0;
      return retire(c, d, pc, user, npc, target, 0, 0, 0);
    }
    case S.flush:
      c.flushInsn((a + b) | 0);
      return retire(c, d, pc, user, nextPc, nextNpc, 0, 0, 0);
    case S.save: case S.restore: {
      const sum = d.value!(c, a, b, d);
      const ok = d.sem === S.save ? c.save(sum, rd, pc, npc) : c.restore(sum, rd, pc, npc);
      if (!ok) return 0;
      return retire(c, d, pc, user, nextPc, nextNpc, 0, 0, 0);
    }
    // ---- memory ----
    case S.load: case S.store: case S.ldstub: case S.swap: {
      const m = d.spec!.mem!;
      if (m.alt) {
        if (user) {
          c.trapAt(TT_PRIVILEGED_INSTRUCTION, pc, npc);
          return 0;
        }
        if (d.i) {
          c.trapAt(TT_ILLEGAL_INSTRUCTION, pc, npc);
          return 0;
        }
      }
      if (m.width === 8 && (rd & 1)) {
        c.trapAt(TT_ILLEGAL_INSTRUCTION, pc, npc);
        return 0;
      }
      const va = (a + b) | 0;
      const size = m.width;
      ma = va;
      ms = size;
      if (d.sem === S.load) {
        mk = 1;
        if (size === 8) {
          let hi: number;
          let lo: number;
          if (m.alt) {
            hi = c.loadAlt(d.asi, va, 8, pc, npc);
            lo = c.lo;
          } else {
            e = c.RM[va >>> 12]!;
            if (((e | va) & 7) === 0) {
              const p = (va + e) | 0;
              hi = c.u32[p >>> 2]!;
              lo = c.u32[(p + 4) >>> 2]!;
            } else {
              hi = c.load64Slow(va, pc, npc);
              lo = c.lo;
            }
          }
          if (c.trapped) return 0;
          if (rd) r[regAt(wb, rd)] = hi;
          r[regAt(wb, rd + 1)] = lo;
          return retire(c, d, pc, user, nextPc, nextNpc, mk, ma, ms);
        }
        let raw: number;
        if (m.alt) raw = c.loadAlt(d.asi, va, size, pc, npc);
        else {
          e = c.RM[va >>> 12]!;
          if (((e | va) & (size - 1)) === 0 && e !== MAP_INVALID) raw = c.readPhys((va + e) | 0, size);
          else raw = c.loadSlow(va, size, pc, npc);
        }
        if (c.trapped) return 0;
        if (size === 1) v = m.signed ? (raw << 24) >> 24 : raw;
        else if (size === 2) v = m.signed ? (raw << 16) >> 16 : raw;
        else v = raw;
        break;
      }
      if (d.sem === S.store) {
        mk = 2;
        if (size === 8) {
          const hi = r[regAt(wb, rd)]!;
          const lo = r[regAt(wb, rd + 1)]!;
          if (m.alt) c.storeAlt(d.asi, va, 8, hi, lo, pc, npc);
          else {
            e = c.WM[va >>> 12]!;
            if (((e | va) & 7) === 0) {
              const p = (va + e) | 0;
              c.u32[p >>> 2] = hi;
              c.u32[(p + 4) >>> 2] = lo;
            } else {
              c.store64Slow(va, hi, lo, pc, npc);
            }
          }
        } else if (m.alt) {
          c.storeAlt(d.asi, va, size, r[regAt(wb, rd)]!, 0, pc, npc);
        } else {
          e = c.WM[va >>> 12]!;
          if (((e | va) & (size - 1)) === 0 && e !== MAP_INVALID) {
            const p = (va + e) | 0;
            if (size === 4) c.u32[p >>> 2] = r[regAt(wb, rd)]!;
            else if (size === 1) c.u8[p ^ 3] = r[regAt(wb, rd)]!;
            else c.u16[(p ^ 2) >>> 1] = r[regAt(wb, rd)]!;
          } else {
            c.storeSlow(va, size, r[regAt(wb, rd)]!, pc, npc);
          }
        }
        if (c.trapped) return 0;
        return retire(c, d, pc, user, nextPc, nextNpc, mk, ma, ms);
      }
      // ldstub / swap: atomic load then store.
      mk = 3;
      v = m.alt ? c.atomicAlt(d.asi, va, size, r[regAt(wb, rd)]!, pc, npc) : c.atomicSlow(va, size, r[regAt(wb, rd)]!, pc, npc);
      if (c.trapped) return 0;
      break;
    }
    case S.fload: case S.fstore: {
      const m = d.spec!.mem!;
      if (m.unit === 'fq' && user) {
        c.trapAt(TT_PRIVILEGED_INSTRUCTION, pc, npc);
        return 0;
      }
      if (!c.ef) {
        c.trapAt(TT_FP_DISABLED, pc, npc);
        return 0;
      }
      const va = (a + b) | 0;
      const f = c.fpu;
      if (m.unit === 'fq') {
        // STDFQ: with an empty queue, sequence_error; else store (address, instruction).
        const q = f.queue;
        if (!q) {
          f.ftt = FTT_SEQUENCE_ERROR;
          c.trapAt(TT_FP_EXCEPTION, pc, npc);
          return 0;
        }
        c.store64(va, q.address | 0, q.instruction | 0, pc, npc);
        if (c.trapped) return 0;
        f.queue = undefined;
        return retire(c, d, pc, user, nextPc, nextNpc, 2, va, 8);
      }
      if (f.checkQueue()) {
        c.trapAt(TT_FP_EXCEPTION, pc, npc);
        return 0;
      }
      if (d.sem === S.fload) {
        if (m.width === 8) {
          const hi = c.load64(va, pc, npc);
          if (c.trapped) return 0;
          f.fr[(rd & 30) + 1] = hi;
          f.fr[rd & 30] = c.lo;
        } else {
          const w = c.load32(va, pc, npc);
          if (c.trapped) return 0;
          if (m.unit === 'fsr') f.fsr = w;
          else f.fr[rd ^ 1] = w;
        }
        return retire(c, d, pc, user, nextPc, nextNpc, 1, va, m.width);
      }
      if (m.width === 8) c.store64(va, f.fr[(rd & 30) + 1]!, f.fr[rd & 30]!, pc, npc);
      else c.store32(va, m.unit === 'fsr' ? f.fsr | 0 : f.fr[rd ^ 1]!, pc, npc);
      if (c.trapped) return 0;
      return retire(c, d, pc, user, nextPc, nextNpc, 2, va, m.width);
    }
    case S.fpop: {
      if (!c.ef) {
        c.trapAt(TT_FP_DISABLED, pc, npc);
        return 0;
      }
      const op3 = (d.word >>> 19) & 0x3f;
      if (c.fpu.exec(op3 === 0x35, d.opf, d.rs1, d.rs2, rd, pc, d.word)) {
        c.trapAt(TT_FP_EXCEPTION, pc, npc);
        return 0;
      }
      return retire(c, d, pc, user, nextPc, nextNpc, 0, 0, 0);
    }
    default:
      throw new Error(`interp: unhandled semantic class ${SEMS[d.sem]}`);
  }
  if (rd !== 0 && writesRd(d.sem)) r[regAt(wb, rd)] = v;
  return retire(c, d, pc, user, nextPc, nextNpc, mk, ma, ms);
}

/** Classes whose result `v` goes to register rd at the end of step. */
function writesRd(sem: number): boolean {
  return !(sem === S.call || sem === S.bicc || sem === S.fbfcc || sem === S.ticc);
}

function retire(c: SparcCore, _d: DInsn, pc: number, user: boolean, nextPc: number, nextNpc: number, mk: number, ma: number, ms: number): number {
  c.pc = nextPc;
  c.npc = nextNpc;
  const sink = c.sink;
  if (user && sink) {
    sink.ifetch(pc >>> 0);
    if (mk & 1) sink.load(ma >>> 0, ms);
    if (mk & 2) sink.store(ma >>> 0, ms);
  }
  return 1;
}
