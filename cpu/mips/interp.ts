/**
 * The reference interpreter: one instruction at a time, fetched and translated through the
 * architectural TLB and decoded from the opcode table on every step. Slow and plain on purpose —
 * it is the yardstick the block translator is checked against in lockstep, and the fast engine
 * uses it for the instructions a block cannot cover (delay slots pending after a budget stop,
 * budget tails, branches at page ends).
 *
 * Pipeline model: `pc` is the instruction to execute, `npc` the one after it (a branch
 * destination when pc is a delay slot). A branch or jump sets the instruction after its delay
 * slot; its link register holds pc + 8 (Kane & Heinrich 5-4).
 *
 * What the rows with a semantics binding compute (opcodes.ts `value`, `cond`) is compiled from
 * that binding (values.ts) once, when the row first runs; the rest of the instructions are
 * written here.
 *
 * Load delay slots: the R2000 does not interlock a load's destination for the next instruction;
 * emu makes the loaded value visible immediately (as QEMU and every later MIPS do). The lint in
 * lint.ts finds code that would behave differently on a real R2000.
 */
import { decode, type Insn } from './decode.js';
import {
  EXC_BP, EXC_OV, EXC_RI, EXC_SYS, SR_CU0, SR_CU1, SR_KUC,
} from './cp0.js';
import { MipsCpu, STOP_BUDGET, STOP_EXCEPTION, TRAP, type MipsEngine } from './cpu.js';
import type { OpSpec } from './opcodes.js';
import { fpRegistersValid } from './query.js';
import { condJs, valueJs } from './values.js';
import { compile } from '../semantics.js';
import type { Fpu } from './fpu.js';

type ValueFn = (r: Int32Array, i: Insn) => boolean;
type CondFn = (r: Int32Array, i: Insn, fpu: Fpu) => boolean;
/**
 * The rows with a binding, compiled when first executed: a `value` row's function writes its
 * results (false on Integer Overflow: nothing written); a `cond` row's says whether it branches.
 */
const COMPILED = new Map<OpSpec, ValueFn | CondFn | null>();
function compiled(s: OpSpec): ValueFn | CondFn | null {
  let f = COMPILED.get(s);
  if (f === undefined) {
    if (s.value) f = compile<ValueFn>(['r', 'i'], `${valueJs(s, undefined, () => 'return false;')} return true;`);
    else if (s.cond) f = compile<CondFn>(['r', 'i', 'fpu'], `return ${condJs(s, undefined)};`);
    else f = null;
    COMPILED.set(s, f);
  }
  return f;
}

/** Executes one instruction. Exceptions leave through cpu.raise (throws TRAP). */
export function step(cpu: MipsCpu): void {
  const pc = cpu.pc;
  const ds = cpu.delay ? 1 : 0;
  const i = decode(cpu.fetch(pc, ds));
  const s = i.spec;
  // Every cpu.raise below throws TRAP (the interpreter runs with cpu.throwTraps set).
  const r = cpu.r;
  const fpu = cpu.fpu;
  let next = (cpu.npc + 4) >>> 0;
  let va = 0;
  if (s === undefined || s.cls === 'reserved') return cpu.raise(EXC_RI, pc, ds);
  if (s.cop !== undefined) {
    const st = cpu.status;
    if (s.cop === 0) {
      if ((st & SR_KUC) !== 0 && (st & SR_CU0) === 0) cpu.copUnusable(0, pc, ds);
    } else if (s.cop === 1) {
      if ((st & SR_CU1) === 0) cpu.copUnusable(1, pc, ds);
    } else cpu.copUnusable(s.cop, pc, ds); // no coprocessor 2 or 3 on this machine
  }
  if (!fpRegistersValid(i)) return cpu.raise(EXC_RI, pc, ds);
  const { rs, rt, rd, sa, simm } = i;
  const fd = sa;
  const fs = rd;
  const ft = rt;
  const btarget = (pc + 4 + (simm << 2)) >>> 0;
  let ok = true; // false: a floating-point operation trapped

  const f = compiled(s);
  if (f !== null && s.value) {
    if (!(f as ValueFn)(r, i)) return cpu.raise(EXC_OV, pc, ds);
  } else if (f !== null) {
    const taken = (f as CondFn)(r, i, fpu);
    // The link forms (bltzal, bgezal) write ra whether or not they branch.
    if (s.defs.includes('ra')) r[31] = pc + 8;
    if (taken) next = btarget;
  } else switch (s.op) {
    // ---- jumps ----
    case 'JR': next = r[rs]! >>> 0; break;
    case 'JALR': { const t = r[rs]! >>> 0; r[rd] = pc + 8; next = t; break; }
    case 'J': next = ((((pc + 4) & 0xf0000000) | (i.target << 2)) >>> 0); break;
    case 'JAL': r[31] = pc + 8; next = ((((pc + 4) & 0xf0000000) | (i.target << 2)) >>> 0); break;
    // ---- traps: they retire, then raise (EPC = this instruction) ----
    case 'SYSCALL':
    case 'BREAK':
      cpu.icount++;
      cpu.sink?.ifetch(pc);
      return cpu.raise(s.op === 'SYSCALL' ? EXC_SYS : EXC_BP, pc, ds);
    // ---- loads and stores ----
    case 'LB': va = (r[rs]! + simm) | 0; r[rt] = cpu.lb(va, pc, ds); break;
    case 'LH': va = (r[rs]! + simm) | 0; r[rt] = cpu.lh(va, pc, ds); break;
    case 'LWL': va = (r[rs]! + simm) | 0; r[rt] = cpu.lwl(va, r[rt]!, pc, ds); break;
    case 'LW': va = (r[rs]! + simm) | 0; r[rt] = cpu.lw(va, pc, ds); break;
    case 'LBU': va = (r[rs]! + simm) | 0; r[rt] = cpu.lbu(va, pc, ds); break;
    case 'LHU': va = (r[rs]! + simm) | 0; r[rt] = cpu.lhu(va, pc, ds); break;
    case 'LWR': va = (r[rs]! + simm) | 0; r[rt] = cpu.lwr(va, r[rt]!, pc, ds); break;
    case 'SB': va = (r[rs]! + simm) | 0; cpu.sb(va, r[rt]!, pc, ds); break;
    case 'SH': va = (r[rs]! + simm) | 0; cpu.sh(va, r[rt]!, pc, ds); break;
    case 'SWL': va = (r[rs]! + simm) | 0; cpu.swl(va, r[rt]!, pc, ds); break;
    case 'SW': va = (r[rs]! + simm) | 0; cpu.sw(va, r[rt]!, pc, ds); break;
    case 'SWR': va = (r[rs]! + simm) | 0; cpu.swr(va, r[rt]!, pc, ds); break;
    case 'LWC1': va = (r[rs]! + simm) | 0; fpu.fgr[ft] = cpu.lw(va, pc, ds); break;
    case 'SWC1': va = (r[rs]! + simm) | 0; cpu.sw(va, fpu.fgr[ft]!, pc, ds); break;
    // ---- CP0 ----
    case 'MFC0': r[rt] = cpu.readCp0(rd); break;
    case 'MTC0': cpu.writeCp0(rd, r[rt]!); break;
    case 'TLBR': cpu.tlbRead(); break;
    case 'TLBWI': cpu.tlbWriteIndexed(); break;
    case 'TLBWR': cpu.tlbWriteRandom(); break;
    case 'TLBP': cpu.tlbProbe(); break;
    case 'RFE': cpu.rfe(); break;
    // ---- CP1 moves and branches ----
    case 'MFC1': r[rt] = fpu.fgr[fs]!; break;
    case 'MTC1': fpu.fgr[fs] = r[rt]!; break;
    case 'CFC1': r[rt] = fpu.readControl(fs); break;
    case 'CTC1':
      if (fs === 31) {
        fpu.setFcsr(r[rt]!);
        cpu.updateFpuLine();
      }
      break;
    // ---- R2010 arithmetic ----
    case 'ADD_S': ok = fpu.addS(fd, fs, ft); break;
    case 'SUB_S': ok = fpu.subS(fd, fs, ft); break;
    case 'MUL_S': ok = fpu.mulS(fd, fs, ft); break;
    case 'DIV_S': ok = fpu.divS(fd, fs, ft); break;
    case 'ADD_D': ok = fpu.addD(fd, fs, ft); break;
    case 'SUB_D': ok = fpu.subD(fd, fs, ft); break;
    case 'MUL_D': ok = fpu.mulD(fd, fs, ft); break;
    case 'DIV_D': ok = fpu.divD(fd, fs, ft); break;
    case 'ABS_S': fpu.absS(fd, fs); break;
    case 'MOV_S': fpu.movS(fd, fs); break;
    case 'NEG_S': fpu.negS(fd, fs); break;
    case 'ABS_D': fpu.absD(fd, fs); break;
    case 'MOV_D': fpu.movD(fd, fs); break;
    case 'NEG_D': fpu.negD(fd, fs); break;
    case 'CVT_S_D': ok = fpu.cvtSD(fd, fs); break;
    case 'CVT_S_W': ok = fpu.cvtSW(fd, fs); break;
    case 'CVT_D_S': ok = fpu.cvtDS(fd, fs); break;
    case 'CVT_D_W': ok = fpu.cvtDW(fd, fs); break;
    case 'CVT_W_S': ok = fpu.cvtW(fd, fs, false); break;
    case 'CVT_W_D': ok = fpu.cvtW(fd, fs, true); break;
    case 'COP1': ok = fpu.unimplemented(); break;
    default:
      if (s.cls === 'fcmp') {
        ok = fpu.compare(i.word & 15, s.fmt === 'd', fs, ft);
        break;
      }
      throw new Error(`reference interpreter: no semantics for ${s.name}`);
  }
  if (!ok) cpu.fpTrap(pc, ds);
  r[0] = 0;
  cpu.pc = cpu.npc;
  cpu.npc = next;
  cpu.delay = s.delaySlot;
  cpu.icount++;
  const sink = cpu.sink;
  if (sink !== null) {
    sink.ifetch(pc);
    const m = s.mem;
    if (m !== undefined) {
      if (m.kind === 'load') sink.load(va, m.width);
      else sink.store(va, m.width);
    }
  }
}

/** Engine running everything through step(). */
export class RefEngine implements MipsEngine {
  readonly name = 'ref' as const;

  run(cpu: MipsCpu, budget: number): number {
    const end = cpu.icount + budget;
    cpu.throwTraps = true;
    cpu.trapped = false;
    try {
      if (cpu.interruptPending()) cpu.takeInterrupt();
      cpu.irqCheck = false;
      while (cpu.icount < end) {
        step(cpu);
        if (cpu.irqCheck) {
          cpu.irqCheck = false;
          if (cpu.interruptPending()) cpu.takeInterrupt();
        }
      }
    } catch (e) {
      if (e !== TRAP) throw e;
      return STOP_EXCEPTION;
    }
    return STOP_BUDGET;
  }

  invalidatePage(): void {}
  sinkChanged(): void {}
}
