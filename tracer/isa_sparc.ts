/**
 * The SPARC v8 adapter of the instrumenter: instruction descriptions from cpu/sparc (opcode
 * table + query.ts), the conventions of the 32-bit SPARC ABI as docs/abi.md states them
 * (%g5-%g7 reserved, %o6 = %sp, %i7/%o7 return addresses, struct-returning calls followed by an
 * `unimp` word and returning to +12), and encoders for what the rewriter emits.
 *
 * Canonical registers (for the dataflow of one function): a window-independent name of every
 * register at a window depth (0 = the window the function was entered in, +1 after its `save`):
 * %g registers keep their number; %o<n> at depth d and %i<n> at depth d + 1 are the same
 * register; %l<n> is private to its depth.
 */
import { decode, type Insn } from '../cpu/sparc/decode.js';
import { disassemble, regName as sparcRegName } from '../cpu/sparc/disasm.js';
import { opcodeByName } from '../cpu/sparc/opcodes.js';
import {
  REG_ICC, REG_Y, ctiClass, isSparcV8Word, memAccess, regsDefined, regsUsed, staticTarget,
} from '../cpu/sparc/query.js';
import { operandSource } from '../cpu/sparc/values.js';
import { valueOp } from '../cpu/semantics.js';
import type { ComputeOp, CtiKind, Decoded, DelayMode, Isa } from './isa.js';

export const G1 = 1;
export const G5 = 5;
export const G6 = 6;
export const G7 = 7;
export const O0 = 8;
export const O1 = 9;
export const SP = 14;
export const O7 = 15;
export const FP = 30;
export const I7 = 31;

/** The computation regeneration performs for an instruction: its row's value binding. */
function computeOf(d: Insn): ComputeOp | undefined {
  const v = d.spec!.value;
  if (!v) return undefined;
  const c: ComputeOp = { op: v.op, d: v.d.map((n) => (operandSource(n, d) as { r: number }).r) };
  if (v.a !== undefined) c.a = operandSource(v.a, d);
  c.b = operandSource(v.b, d);
  if (valueOp(v.op).y) c.extra = [REG_Y];
  return c;
}

/** jmpl %i7 + 8/12, %g0 and jmpl %o7 + 8/12, %g0: returns (+12 skips a struct-return unimp). */
function isReturnJmpl(d: Insn): boolean {
  return d.rd === 0 && d.i && (d.simm13 === 8 || d.simm13 === 12) && (d.rs1 === I7 || d.rs1 === O7);
}

export function decodeSparc(word: number, addr: number): Decoded {
  const d = decode(word);
  const s = d.spec;
  const unimp = s?.name === 'unimp';
  const valid = s !== undefined && (unimp || isSparcV8Word(word, { user: true }));
  let cti: CtiKind = 'none';
  let cond = false;
  let never = false;
  let dsMode: DelayMode = 'always';
  const cc = valid ? ctiClass(d) : 'none';
  switch (cc) {
    case 'branch': cti = 'branch'; cond = true; if (d.a) dsMode = 'taken'; break;
    case 'branch-always': cti = 'branch'; if (d.a) dsMode = 'never'; break;
    case 'branch-never': cti = 'branch'; never = true; if (d.a) dsMode = 'never'; break;
    case 'call': cti = 'call'; break;
    case 'call-indirect': cti = 'icall'; break;
    case 'return': case 'return-leaf': cti = 'return'; break;
    case 'jump-indirect': cti = isReturnJmpl(d) ? 'return' : 'ijump'; break;
    case 'rett': cti = 'none'; break;
    case 'trap': cti = 'trap'; break;
    case 'none': break;
  }
  // Every field in the literal, those an instruction does not have undefined: one object shape
  // for every instruction (program.ts copies them per address, the analyses read them).
  const out: Decoded = {
    addr, word: word >>> 0, name: s?.name ?? '.word', valid: valid && cc !== 'rett', cti, cond, never,
    delay: cti !== 'none' && cti !== 'trap', dsMode, target: undefined, targetRegs: undefined, targetImm: undefined, mem: undefined,
    defs: valid ? regsDefined(d) : [], uses: valid ? regsUsed(d) : [], compute: undefined,
    syscall: cti === 'trap' && d.cond === 8 && d.rs1 === 0 && d.i && (d.simm13 & 0x7f) === 0,
    // ST_SYSCALL 0, ST_FLUSH_WINDOWS 3, ST_CLEAN_WINDOWS 4 return to the next instruction; a
    // conditional trap falls through when not taken.
    trapContinues: cti === 'trap' && (d.cond !== 8 || (d.rs1 === 0 && d.i && [0, 3, 4].includes(d.simm13 & 0x7f))),
    window: s?.sem === 'save' ? 1 : s?.sem === 'restore' ? -1 : 0, unimp,
  };
  const t = valid ? staticTarget(d, addr) : undefined;
  if (t !== undefined && (cti === 'branch' || cti === 'call')) out.target = t;
  if (cti === 'icall' || cti === 'ijump' || cti === 'return') {
    out.targetRegs = (d.i ? [d.rs1] : [d.rs1, d.rs2]).filter((x) => x !== 0);
    out.targetImm = d.i ? d.simm13 : 0;
  }
  const m = valid ? memAccess(d) : undefined;
  if (m && m.asi === undefined) {
    out.mem = { kind: m.kind, size: m.width, signed: m.signed, base: m.base, offset: m.offset };
    if (m.index !== undefined) out.mem.index = m.index;
  }
  const c = valid ? computeOf(d) : undefined;
  if (c && !(c.op !== 'save' && c.op !== 'restore' && c.d.length === 1 && c.d[0] === 0)) out.compute = c;
  return out;
}

/** Isa.at: every static target (Bicc, FBfcc, CBccc, call) is PC-relative. */
function sparcAt(d: Decoded, addr: number): Decoded {
  return d.target === undefined ? { ...d, addr } : { ...d, addr, target: (d.target + (addr - d.addr)) >>> 0 };
}

// ---- encoders (manual Figure 5-3 fields over the table's match bits) ----

const M = {
  or: opcodeByName('or').match, add: opcodeByName('add').match, srl: opcodeByName('srl').match,
  stb: opcodeByName('stb').match, sethi: opcodeByName('sethi').match, ba: opcodeByName('ba').match,
  call: opcodeByName('call').match, ta: opcodeByName('ta').match, jmpl: opcodeByName('jmpl').match,
  bcs: opcodeByName('bcs').match, bcc: opcodeByName('bcc').match, ld: opcodeByName('ld').match,
};
const F3I = (m: number, rd: number, rs1: number, imm: number): number => (m | (rd << 25) | (rs1 << 14) | (1 << 13) | (imm & 0x1fff)) >>> 0;
const F3R = (m: number, rd: number, rs1: number, rs2: number): number => (m | (rd << 25) | (rs1 << 14) | (rs2 & 31)) >>> 0;

export const sparcEnc = {
  nop: (): number => M.sethi, // sethi 0, %g0
  orImm: (rd: number, rs1: number, imm: number): number => F3I(M.or, rd, rs1, imm),
  orReg: (rd: number, rs1: number, rs2: number): number => F3R(M.or, rd, rs1, rs2),
  addImm: (rd: number, rs1: number, imm: number): number => F3I(M.add, rd, rs1, imm),
  addReg: (rd: number, rs1: number, rs2: number): number => F3R(M.add, rd, rs1, rs2),
  srlImm: (rd: number, rs1: number, cnt: number): number => F3I(M.srl, rd, rs1, cnt & 31),
  stb: (rd: number, rs1: number, imm: number): number => F3I(M.stb, rd, rs1, imm),
  sethi: (rd: number, imm22: number): number => (M.sethi | (rd << 25) | (imm22 & 0x3fffff)) >>> 0,
  ba: (pc: number, target: number): number => (M.ba | (((target - pc) >> 2) & 0x3fffff)) >>> 0,
  /** bcs: taken when the carry is set (a system call failed, docs/abi.md). */
  bcs: (pc: number, target: number): number => (M.bcs | (((target - pc) >> 2) & 0x3fffff)) >>> 0,
  /** bcc: taken when the carry is clear (a system call succeeded). */
  bcc: (pc: number, target: number): number => (M.bcc | (((target - pc) >> 2) & 0x3fffff)) >>> 0,
  call: (pc: number, target: number): number => (M.call | (((target - pc) >>> 2) & 0x3fffffff)) >>> 0,
  ta: (n: number): number => F3I(M.ta, 0, 0, n & 0x7f),
  jmplImm: (rd: number, rs1: number, imm: number): number => F3I(M.jmpl, rd, rs1, imm),
  ldImm: (rd: number, rs1: number, imm: number): number => F3I(M.ld, rd, rs1, imm),
  ldReg: (rd: number, rs1: number, rs2: number): number => F3R(M.ld, rd, rs1, rs2),
};

/** Retargets a PC-relative CTI (Bicc/FBfcc disp22, call disp30) at pc to target. */
export function retargetSparc(word: number, pc: number, target: number): number {
  const disp = (target - pc) | 0;
  // op 1 is format 1, whose only instruction is call (SPARC v8 manual B.1).
  if (word >>> 30 === 1) return ((word & 0xc0000000) | ((disp >>> 2) & 0x3fffffff)) >>> 0;
  if (disp < -(1 << 23) || disp >= 1 << 23) throw new Error(`branch at 0x${pc.toString(16)}: target 0x${target.toString(16)} out of reach`);
  return ((word & 0xffc00000) | ((disp >> 2) & 0x3fffff)) >>> 0;
}

const CALL_CLOBBERS = [1, 2, 3, 4, 8, 9, 10, 11, 12, 13, O7, REG_ICC, REG_Y];

/** Canonical ids: globals keep 0..7; window registers are 200 + 16 * (depth + 8) + slot. */
const WBASE = 200;
function canonSparc(reg: number, depth: number): number {
  if (reg < 8 || reg >= 32) return reg;
  if (reg < 16) return WBASE + 16 * (depth + 8) + (reg - 8);
  if (reg < 24) return WBASE + 16 * (depth + 8) + 8 + (reg - 16);
  return WBASE + 16 * (depth + 7) + (reg - 24);
}
function uncanonSparc(c: number): { reg: number; depth: number } {
  if (c < WBASE) return { reg: c, depth: 0 };
  const x = c - WBASE;
  const depth = Math.floor(x / 16) - 8;
  const slot = x % 16;
  return slot < 8 ? { reg: 8 + slot, depth } : { reg: 16 + slot - 8, depth };
}

export function sparcIsa(): Isa {
  return {
    name: 'sparc', arch: 'sparc', bigEndian: true,
    PTR: G6, TMP: G7, reserved: [G5, G6, G7], SP, LINK: O7, ARG0: O0, RET: O0, SYSNUM: G1,
    syscallDefs: [O0, O1, REG_ICC],
    callClobbers: CALL_CLOBBERS,
    callPreserves: [SP],
    longjmpRestores: [],
    decode: decodeSparc,
    at: sparcAt,
    regName: (n) => (n < 32 ? sparcRegName(n) : n === REG_ICC ? '%icc' : n === REG_Y ? '%y' : `r${n}`),
    disasm: (w, a) => disassemble(w, a),
    canon: canonSparc,
    uncanon: uncanonSparc,
  };
}
