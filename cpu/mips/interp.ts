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
 * Load delay slots: the R2000 does not interlock a load's destination for the next instruction;
 * emu makes the loaded value visible immediately (as QEMU and every later MIPS do). The lint in
 * lint.ts finds code that would behave differently on a real R2000.
 */
import { decode } from './decode.js';
import {
  EXC_BP, EXC_OV, EXC_RI, EXC_SYS, SR_CU0, SR_CU1, SR_KUC,
} from './cp0.js';
import { FCSR_C } from './fpu.js';
import { MipsCpu, STOP_BUDGET, STOP_EXCEPTION, TRAP, type MipsEngine } from './cpu.js';
import { fpRegistersValid } from './query.js';
import { smulHi, umulHi } from '../arith.js';

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
  const { rs, rt, rd, sa, simm, imm } = i;
  const fd = sa;
  const fs = rd;
  const ft = rt;
  const btarget = (pc + 4 + (simm << 2)) >>> 0;
  let ok = true; // false: a floating-point operation trapped

  switch (s.op) {
    // ---- shifts ----
    case 'SLL': r[rd] = r[rt]! << sa; break;
    case 'SRL': r[rd] = r[rt]! >>> sa; break;
    case 'SRA': r[rd] = r[rt]! >> sa; break;
    case 'SLLV': r[rd] = r[rt]! << (r[rs]! & 31); break;
    case 'SRLV': r[rd] = r[rt]! >>> (r[rs]! & 31); break;
    case 'SRAV': r[rd] = r[rt]! >> (r[rs]! & 31); break;
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
    // ---- HI/LO ----
    case 'MFHI': r[rd] = r[32]!; break;
    case 'MTHI': r[32] = r[rs]!; break;
    case 'MFLO': r[rd] = r[33]!; break;
    case 'MTLO': r[33] = r[rs]!; break;
    case 'MULT': {
      const a = r[rs]!;
      const b = r[rt]!;
      r[33] = Math.imul(a, b);
      r[32] = smulHi(a, b);
      break;
    }
    case 'MULTU': {
      const a = r[rs]! >>> 0;
      const b = r[rt]! >>> 0;
      r[33] = Math.imul(a, b);
      r[32] = umulHi(a, b);
      break;
    }
    case 'DIV': {
      // Division by zero (and INT_MIN / -1) is undefined on the R2000; emu divides by 1 as QEMU does.
      const a = r[rs]!;
      let b = r[rt]!;
      if (b === 0 || (a === -0x80000000 && b === -1)) b = 1;
      r[33] = (a / b) | 0;
      r[32] = a % b;
      break;
    }
    case 'DIVU': {
      const a = r[rs]! >>> 0;
      let b = r[rt]! >>> 0;
      if (b === 0) b = 1;
      r[33] = Math.trunc(a / b) | 0;
      r[32] = a % b | 0;
      break;
    }
    // ---- three-register arithmetic ----
    case 'ADD': {
      const t = r[rs]! + r[rt]!;
      if (t > 0x7fffffff || t < -0x80000000) return cpu.raise(EXC_OV, pc, ds);
      r[rd] = t;
      break;
    }
    case 'ADDU': r[rd] = r[rs]! + r[rt]!; break;
    case 'SUB': {
      const t = r[rs]! - r[rt]!;
      if (t > 0x7fffffff || t < -0x80000000) return cpu.raise(EXC_OV, pc, ds);
      r[rd] = t;
      break;
    }
    case 'SUBU': r[rd] = r[rs]! - r[rt]!; break;
    case 'AND': r[rd] = r[rs]! & r[rt]!; break;
    case 'OR': r[rd] = r[rs]! | r[rt]!; break;
    case 'XOR': r[rd] = r[rs]! ^ r[rt]!; break;
    case 'NOR': r[rd] = ~(r[rs]! | r[rt]!); break;
    case 'SLT': r[rd] = r[rs]! < r[rt]! ? 1 : 0; break;
    case 'SLTU': r[rd] = r[rs]! >>> 0 < r[rt]! >>> 0 ? 1 : 0; break;
    // ---- branches (the link forms write ra whether or not they branch) ----
    case 'BLTZ': if (r[rs]! < 0) next = btarget; break;
    case 'BGEZ': if (r[rs]! >= 0) next = btarget; break;
    case 'BLTZAL': { const c = r[rs]! < 0; r[31] = pc + 8; if (c) next = btarget; break; }
    case 'BGEZAL': { const c = r[rs]! >= 0; r[31] = pc + 8; if (c) next = btarget; break; }
    case 'BEQ': if (r[rs] === r[rt]) next = btarget; break;
    case 'BNE': if (r[rs] !== r[rt]) next = btarget; break;
    case 'BLEZ': if (r[rs]! <= 0) next = btarget; break;
    case 'BGTZ': if (r[rs]! > 0) next = btarget; break;
    // ---- immediate arithmetic ----
    case 'ADDI': {
      const t = r[rs]! + simm;
      if (t > 0x7fffffff || t < -0x80000000) return cpu.raise(EXC_OV, pc, ds);
      r[rt] = t;
      break;
    }
    case 'ADDIU': r[rt] = r[rs]! + simm; break;
    case 'SLTI': r[rt] = r[rs]! < simm ? 1 : 0; break;
    case 'SLTIU': r[rt] = r[rs]! >>> 0 < simm >>> 0 ? 1 : 0; break;
    case 'ANDI': r[rt] = r[rs]! & imm; break;
    case 'ORI': r[rt] = r[rs]! | imm; break;
    case 'XORI': r[rt] = r[rs]! ^ imm; break;
    case 'LUI': r[rt] = imm << 16; break;
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
    case 'BC0F': next = btarget; break; // CpCond0 is never asserted on this machine
    case 'BC0T': break;
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
    case 'BC1F': if ((fpu.fcsr & FCSR_C) === 0) next = btarget; break;
    case 'BC1T': if ((fpu.fcsr & FCSR_C) !== 0) next = btarget; break;
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
