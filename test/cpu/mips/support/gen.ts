/**
 * Instruction-test generator driven by the opcode table: random programs where every row of
 * OPCODES appears with seeded random operands (register fields from a small pool so results feed
 * each other; memory offsets near a data region; short branch offsets; FP formats as the row
 * says), plus random words (reserved encodings). A deterministic test kernel services the
 * exceptions the programs raise, identically for both engines.
 */
import { STOP_BUDGET, type MipsCpu } from '../../../../cpu/mips/cpu.js';
import {
  EXC_ADEL, EXC_INT, EXC_TLBL, EXC_TLBS, FPU_INT_LINE, SR_CU0, SR_CU1, SR_IEP, SR_IM_MASK, SR_KUP, VEC_UTLB,
} from '../../../../cpu/mips/cp0.js';
import { OPCODES, type OpSpec } from '../../../../cpu/mips/opcodes.js';
import { Bare } from './bare.js';
import { Prng } from '../../../../format/prng.js';
import { edgy } from '../../../support/rowcheck.js';

export const CODE_VA = 0x00400000;
export const CODE_PA = 0x10000;
export const DATA_VA = 0x10000000;
export const DATA_PAGES = 8;
export const DATA_PA = 0x40000;
/** General register holding the data region's base (reloaded by generated code now and then). */
const BASE = 28;
const REGS = [0, 1, 2, 3, 4, 5, 8, 9, 10, 16, 17, 31];
const FREGS = [0, 2, 4, 6, 8, 10, 12, 14];

/** One generated test program: code words and initial register/memory contents. */
export interface GenProgram {
  words: number[];
  gpr: number[];
  fgr: number[];
  data: number[];
  /** Status bits beyond user mode (CU0 sometimes, so CP0 moves execute). */
  cu0: boolean;
}

function fieldsFor(r: OpSpec, rng: Prng, k: number, n: number): number {
  let w = r.match;
  const reg = (): number => rng.pick(REGS);
  const set = (v: number, shift: number, bits: number): void => {
    w |= (v & ((1 << bits) - 1)) << shift;
  };
  const free = ~r.mask;
  // Start from random bits in every free field, then shape the fields the operands name.
  w |= rng.u32() & free;
  for (const op of r.operands) {
    switch (op) {
      case 'rs': case 'rt': case 'rd': {
        const shift = op === 'rs' ? 21 : op === 'rt' ? 16 : 11;
        w &= ~(31 << shift);
        set(reg(), shift, 5);
        break;
      }
      case 'mem': {
        w &= ~(0x3e00000 | 0xffff);
        set(rng.below(4) === 0 ? reg() : BASE, 21, 5);
        // Mostly inside the data region, often aligned; sometimes anywhere.
        const off = rng.below(8) === 0 ? rng.u32() : (rng.below(DATA_PAGES * 4096 / 4) * 4 + (rng.below(3) === 0 ? rng.below(4) : 0)) & 0x7fff;
        set(off, 0, 16);
        break;
      }
      case 'boff': {
        w &= ~0xffff;
        // Backward now and then (loops), but never a branch that compares $zero with $zero: its
        // outcome is fixed, and taken backward it would loop forever.
        const fixed = ((w >>> 21) & 31) === 0 && (!r.operands.includes('rt') || ((w >>> 16) & 31) === 0);
        const back = rng.below(6) === 0 && !fixed;
        const d = back ? -(1 + rng.below(Math.min(k + 1, 12))) : 1 + rng.below(Math.max(1, Math.min(8, n - k - 2)));
        set(d, 0, 16);
        break;
      }
      case 'jtgt':
        w &= ~0x3ffffff;
        set((CODE_VA >>> 2) + rng.below(n), 0, 26);
        break;
      case 'fd': case 'fs': case 'ft': {
        const shift = op === 'fd' ? 6 : op === 'fs' ? 11 : 16;
        w &= ~(31 << shift);
        // Even registers mostly (doubles need them); an odd one now and then (RI for .d).
        set(rng.below(12) === 0 ? 1 + 2 * rng.below(16) : rng.pick(FREGS), shift, 5);
        break;
      }
      case 'c1fs':
        w &= ~(31 << 11);
        set(rng.below(4) === 0 ? 0 : 31, 11, 5);
        break;
      default:
        break;
    }
  }
  // ctc1 writes random bits: keep the exception enables mostly off so programs keep running.
  if (r.op === 'CTC1') w = (w & ~0x1f0000) | ((rng.below(3) === 0 ? rng.pick(REGS) : 0) << 16);
  return (w & ~r.mask) | r.match;
}

/** A program of n instructions in which the rows of `rows` appear (each at least once if n allows). */
export function generate(seed: number, n: number, rows: readonly OpSpec[] = OPCODES): GenProgram {
  const rng = new Prng(seed);
  const words: number[] = [];
  const order: OpSpec[] = [];
  for (let k = 0; k < n; k++) order.push(k < rows.length ? rows[k]! : rng.pick(rows));
  // Shuffle so each row lands in varied contexts (delay slots included).
  for (let k = order.length - 1; k > 0; k--) {
    const j = rng.below(k + 1);
    [order[k], order[j]] = [order[j]!, order[k]!];
  }
  for (let k = 0; k < n; k++) {
    if (rng.below(40) === 0) words.push(rng.u32()); // anything at all
    else if (rng.below(25) === 0) {
      // Reload the data base now and then (lui/ori), so memory operations keep hitting it.
      words.push(0x3c000000 | (BASE << 16) | (DATA_VA >>> 16));
      k++;
      if (k < n) words.push(0x34000000 | (BASE << 21) | (BASE << 16) | (DATA_VA & 0xffff));
    } else words.push(fieldsFor(order[k]!, rng, k, n));
  }
  words.length = n;
  const gpr = Array.from({ length: 32 }, () => edgy(rng));
  gpr[0] = 0;
  gpr[BASE] = DATA_VA;
  const fgr = Array.from({ length: 32 }, () => {
    switch (rng.below(6)) {
      case 0: return rng.pick([0, 0x80000000, 0x7f800000, 0xff800000, 0x7fbfffff, 0x7fc00000, 0x00000001, 0x3f800000]) | 0;
      case 1: return rng.pick([0x3ff00000, 0x7ff00000, 0x7ff7ffff, 0x00100000, 0x41dfffff, 0xc1e00000]) | 0;
      default: return rng.u32() | 0;
    }
  });
  const data = Array.from({ length: DATA_PAGES * 1024 }, () => (rng.below(4) === 0 ? rng.u32() : rng.below(2000) - 1000) | 0);
  return { words, gpr, fgr, data, cu0: rng.below(4) === 0 };
}

/** Loads a program into a bare machine and enters user mode at its start. */
export function load(m: Bare, p: GenProgram, fcsr: number): void {
  m.code(CODE_PA, p.words);
  m.code(DATA_PA, p.data);
  m.map(0, CODE_VA, CODE_PA, { global: true });
  p.gpr.forEach((v, k) => (m.cpu.r[k] = v));
  p.fgr.forEach((v, k) => (m.cpu.fpu.fgr[k] = v));
  m.cpu.fpu.setFcsr(fcsr);
  m.cpu.setEntryHi(1 << 6);
  m.cpu.setStatus(SR_CU1 | SR_IM_MASK | SR_KUP | SR_IEP | (p.cu0 ? SR_CU0 : 0));
  m.cpu.returnFromException(CODE_VA);
}

/**
 * The test kernel: maps data pages on TLB refills inside the data region, sends faulting fetches
 * back into the code, and otherwise skips the excepting instruction. Returns the exception code.
 */
export function service(cpu: MipsCpu, n: number): number {
  const code = cpu.excCode;
  const bad = cpu.badVAddr >>> 0;
  const fetchFault = (code === EXC_TLBL || code === EXC_ADEL) && bad === cpu.epc >>> 0;
  if ((code === EXC_TLBL || code === EXC_TLBS) && cpu.pc === VEC_UTLB && !fetchFault && bad >= DATA_VA && bad < DATA_VA + DATA_PAGES * 4096) {
    cpu.entryLo = (DATA_PA + (bad - DATA_VA) & ~0xfff) | 0x600;
    cpu.tlbWriteRandom();
    cpu.returnFromException(cpu.epc);
    return code;
  }
  if (code === EXC_TLBL && cpu.pc === VEC_UTLB && (bad & ~0xfff) === CODE_VA) {
    // The program overwrote the code page's TLB entry (tlbwi/tlbwr under CU0): map it again.
    cpu.entryLo = CODE_PA | 0x700;
    cpu.tlbWriteRandom();
    cpu.returnFromException(cpu.epc);
    return code;
  }
  if (code === EXC_INT) {
    // The FPA line: the trapping FP instruction is skipped (as a kernel emulating it would);
    // software interrupt bits: acknowledged, and the interrupted instruction runs.
    const fpa = (cpu.cause & (1 << (10 + FPU_INT_LINE))) !== 0;
    cpu.writeCp0(13, 0);
    cpu.fpu.setFcsr(cpu.fpu.fcsr & ~(0x3f000 | 0xf80));
    cpu.updateFpuLine();
    cpu.returnFromException(fpa ? cpu.excNextPC : cpu.epc);
    return code;
  }
  // A fetch fault: continue somewhere in the code (deterministically from the bad address).
  const next = fetchFault ? CODE_VA + ((bad >>> 2) % n) * 4 : cpu.excNextPC;
  // Keep the mode the program was in (it may have changed Status with mtc0 under CU0).
  cpu.returnFromException(next);
  return code;
}

/** The row a word decodes to, for coverage accounting. */
export function rowsOf(words: number[]): Set<string> {
  const s = new Set<string>();
  for (const w of words) for (const r of OPCODES) if (((w >>> 0) & r.mask) >>> 0 === r.match) s.add(r.op);
  return s;
}

export { STOP_BUDGET };
