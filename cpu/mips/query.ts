/**
 * Questions the instrumenter, the lint and the tests ask about decoded instructions, answered from
 * the opcode table: control flow, delay slots, memory accesses, registers defined and used, and
 * ISA membership (the purity scan of guest executables).
 *
 * Register numbering for def/use sets: 0..31 general registers, then the pseudo-registers below.
 */
import { Insn, decode, lookup } from './decode.js';
import { type FpFmt, type MemAccess, type RegRef } from './opcodes.js';

export const REG_HI = 32;
export const REG_LO = 33;
/** $f0..$f31 are REG_F0 + n. A double occupies the even/odd pair (n, n+1). */
export const REG_F0 = 34;
/** The FPU condition bit (FCSR bit 23), read by bc1t/bc1f. */
export const REG_FCC = 66;
/** FCSR as a whole (rounding mode, flags); cfc1/ctc1 and every arithmetic operation. */
export const REG_FCSR = 67;
/** CP0 register n is REG_CP0 + n. */
export const REG_CP0 = 68;
/** The TLB array (and Index/Random/EntryHi/EntryLo, which TLB operations read and write). */
export const REG_TLB = 100;

export type ControlKind = 'none' | 'branch' | 'jump' | 'call' | 'return' | 'ijump' | 'icall' | 'trap';

/** Control-flow kind; `jr $ra` is a return, other `jr` an indirect jump (e.g. a switch table). */
export function controlKind(i: Insn): ControlKind {
  const s = i.spec;
  if (!s || s.cls === 'cpz') return 'none';
  if (s.flow === 'ijump') return i.rs === 31 ? 'return' : 'ijump';
  return s.flow;
}

export function hasDelaySlot(i: Insn): boolean {
  return i.spec?.delaySlot === true;
}
/** Conditional PC-relative branch (including the conditional calls bltzal/bgezal). */
export function isConditional(i: Insn): boolean {
  return i.spec?.cls === 'branch';
}
export function isCall(i: Insn): boolean {
  const k = controlKind(i);
  return k === 'call' || k === 'icall';
}
export function isReturn(i: Insn): boolean {
  return controlKind(i) === 'return';
}
/** Ends a basic block: any transfer of control (after its delay slot) or a trap. */
export function endsBlock(i: Insn): boolean {
  return controlKind(i) !== 'none';
}

/**
 * Static target of a direct branch or jump at address pc, or undefined for indirect jumps and
 * non-branches. Branch: pc + 4 + (offset << 2); jump: the 256 MB region of the delay slot.
 */
export function branchTarget(i: Insn, pc: number): number | undefined {
  const s = i.spec;
  if (!s || !s.delaySlot) return undefined;
  if (s.format === 'J') return ((((pc + 4) & 0xf0000000) | (i.target << 2)) >>> 0);
  if (s.flow === 'ijump' || s.flow === 'icall') return undefined;
  return (pc + 4 + (i.simm << 2)) >>> 0;
}

/** Return address a call leaves in its link register (the instruction after the delay slot). */
export function linkAddress(pc: number): number {
  return (pc + 8) >>> 0;
}

export interface MemOperand extends MemAccess {
  /** Base general register. */
  base: number;
  /** Signed byte offset added to the base. */
  offset: number;
  /** Register transferred: a general register, or REG_F0 + n for lwc1/swc1. */
  reg: number;
}

/** The load/store an instruction performs, or undefined. */
export function memAccess(i: Insn): MemOperand | undefined {
  const m = i.spec?.mem;
  if (!m) return undefined;
  return { ...m, base: i.rs, offset: i.simm, reg: m.fpr ? REG_F0 + i.rt : i.rt };
}

/** Appends register x to out unless it is general register 0 or already there (first occurrence order). */
function add(out: number[], x: number): void {
  // Register 0 is hardwired: writing it defines nothing, reading it depends on nothing.
  if (x !== 0 && !out.includes(x)) out.push(x);
}

function addFp(out: number[], n: number, fmt: FpFmt | undefined): void {
  add(out, REG_F0 + n);
  if (fmt === 'd') add(out, REG_F0 + n + 1);
}

function expand(i: Insn, refs: readonly RegRef[], dst: boolean): number[] {
  const s = i.spec!;
  const out: number[] = [];
  for (let k = 0; k < refs.length; k++) {
    switch (refs[k]) {
      case 'rd': add(out, i.rd); break;
      case 'rs': add(out, i.rs); break;
      case 'rt': add(out, i.rt); break;
      case 'ra': add(out, 31); break;
      case 'hi': add(out, REG_HI); break;
      case 'lo': add(out, REG_LO); break;
      case 'fd': addFp(out, i.fd, s.dstFmt); break;
      case 'fs': addFp(out, i.fs, s.cls === 'fmove' ? 's' : s.fmt); break;
      case 'ft': addFp(out, i.ft, s.cls === 'farith' || s.cls === 'fcmp' ? s.fmt : 's'); break;
      case 'fcc': add(out, REG_FCC); break;
      case 'fcsr': add(out, REG_FCSR); if (dst) add(out, REG_FCC); break;
      case 'cp0': add(out, REG_CP0 + i.rd); break;
      case 'status': add(out, REG_CP0 + 12); break;
      case 'tlb': add(out, REG_TLB); break;
    }
  }
  return out;
}

/** Registers the instruction writes (general register 0 excluded). */
export function regsDefined(i: Insn): number[] {
  return i.spec ? expand(i, i.spec.defs, true) : [];
}
/** Registers the instruction reads (general register 0 excluded). */
export function regsUsed(i: Insn): number[] {
  return i.spec ? expand(i, i.spec.uses, false) : [];
}

/**
 * Double-precision operands must name even registers (Kane & Heinrich 8-2: with 32-bit FGRs a
 * double is the pair $f2n/$f2n+1). An odd one is undefined on the R2010; emu, like QEMU, raises
 * Reserved Instruction.
 */
export function fpRegistersValid(i: Insn): boolean {
  const s = i.spec;
  if (!s || (s.cls !== 'farith' && s.cls !== 'fcvt' && s.cls !== 'fcmp')) return true;
  let odd = 0;
  if (s.fmt === 'd') odd |= i.fs | (s.operands.includes('ft') ? i.ft : 0);
  if (s.dstFmt === 'd') odd |= i.fd;
  return (odd & 1) === 0;
}

export type IsaClass = 'user' | 'privileged' | 'foreign';

/**
 * ISA membership of a word: 'user' — a MIPS I or R2010 instruction a user program may execute;
 * 'privileged' — a CP0 instruction of the R2000 (valid, but a user program taking it gets CpU);
 * 'foreign' — anything else: reserved encodings, coprocessor 2/3, encodings binutils knows from
 * other MIPS ISAs or ASEs, and double operations on odd registers.
 */
export function isaClass(word: number): IsaClass {
  const s = lookup(word);
  if (!s || !s.implemented || s.cls === 'funimp') return 'foreign';
  return isaClassOf(decode(word));
}

/** isaClass of an instruction already decoded. */
export function isaClassOf(i: Insn): IsaClass {
  const s = i.spec;
  if (!s || !s.implemented || s.cls === 'funimp' || !fpRegistersValid(i)) return 'foreign';
  return s.privileged ? 'privileged' : 'user';
}

/** True when the word is an instruction of MIPS I + CP0 + R2010 (what this machine implements). */
export function isMipsIWord(word: number): boolean {
  return isaClass(word) !== 'foreign';
}
