/**
 * The MIPS R2000 adapter of the instrumenter: instruction descriptions from cpu/mips (opcode
 * table + query.ts), the o32 register conventions of docs/abi.md, and encoders for the
 * instructions the rewriter emits (built from the opcode table's match bits).
 */
import { decode, type Insn } from '../cpu/mips/decode.js';
import { disasm as mipsDisasm, GPR_NAMES } from '../cpu/mips/disasm.js';
import { OPCODES, type OpSpec } from '../cpu/mips/opcodes.js';
import {
  REG_HI, REG_LO, branchTarget, controlKind, isaClassOf, regsDefined, regsUsed,
} from '../cpu/mips/query.js';
import { operandSource } from '../cpu/mips/values.js';
import type { Arch, ComputeOp, CtiKind, Decoded, Isa } from './isa.js';

export const ZERO = 0;
export const AT = 1;
export const V0 = 2;
export const V1 = 3;
export const A0 = 4;
export const A1 = 5;
export const A3 = 7;
export const K0 = 26;
export const K1 = 27;
export const GP = 28;
export const SP = 29;
export const S8 = 30;
export const RA = 31;

/** The computation regeneration performs for an instruction: its row's value binding. */
function computeOf(i: Insn): ComputeOp | undefined {
  const v = i.spec!.value;
  if (!v) return undefined;
  const c: ComputeOp = { op: v.op, d: v.d.map((n) => (operandSource(n, i) as { r: number }).r) };
  if (v.a !== undefined) c.a = operandSource(v.a, i);
  c.b = operandSource(v.b, i);
  return c;
}

function ctiOf(i: Insn): CtiKind {
  const c = controlKind(i);
  switch (c) {
    case 'none': return 'none';
    case 'branch': return 'branch';
    case 'jump': return 'jump';
    case 'call': return 'call';
    case 'icall': return 'icall';
    case 'ijump': return 'ijump';
    case 'return': return 'return';
    case 'trap': return 'trap';
  }
}

export function decodeMips(word: number, addr: number): Decoded {
  const i = decode(word);
  const s = i.spec;
  const cls = isaClassOf(i);
  const valid = s !== undefined && cls === 'user';
  const cti: CtiKind = valid ? ctiOf(i) : 'none';
  let cond = cti === 'branch';
  // bgezal $zero (bal) always calls; the other link branches are conditional calls.
  if (valid && s!.flow === 'call' && s!.format === 'REGIMM') cond = !(s!.op === 'BGEZAL' && i.rs === 0);
  // beq $x,$x (b) always branches.
  if (cti === 'branch' && s!.op === 'BEQ' && i.rs === i.rt) cond = false;
  if (cti === 'branch' && s!.op === 'BGEZ' && i.rs === 0) cond = false;
  const m = valid ? s!.mem : undefined;
  // Every field in the literal, those an instruction does not have undefined: one object shape
  // for every instruction (program.ts copies them per address, the analyses read them).
  const d: Decoded = {
    addr, word: word >>> 0, name: s?.name ?? '.word', valid, cti, cond, never: false,
    delay: valid && s!.delaySlot, dsMode: 'always', target: undefined, targetRegs: undefined, targetImm: undefined, mem: undefined,
    defs: valid ? regsDefined(i) : [], uses: valid ? regsUsed(i) : [], compute: undefined,
    syscall: valid && s!.op === 'SYSCALL', trapContinues: valid && s!.op === 'SYSCALL', window: 0, unimp: false,
  };
  if (valid && s!.delaySlot) {
    const t = branchTarget(i, addr);
    if (t !== undefined) d.target = t;
    else d.targetRegs = [i.rs], d.targetImm = 0;
  }
  if (m) d.mem = { kind: m.kind, size: m.width, signed: m.signed, base: i.rs, offset: i.simm };
  const c = valid ? computeOf(i) : undefined;
  // Writes to $zero compute nothing.
  if (c && !(c.d.length === 1 && c.d[0] === 0)) d.compute = c;
  return d;
}

/** Isa.at: j and jal (major opcodes 2 and 3) reach the 256 MB region of their delay slot, the branches are PC-relative. */
function mipsAt(d: Decoded, addr: number): Decoded {
  if (d.target === undefined) return { ...d, addr };
  const op = d.word >>> 26;
  const target = op === 2 || op === 3 ? (((addr + 4) & 0xf0000000) | (d.target & 0x0fffffff)) >>> 0 : (d.target + (addr - d.addr)) >>> 0;
  return { ...d, addr, target };
}

// ---- encoders (fields of Kane & Heinrich Figure 5-1 over the table's match bits) ----

const byName = new Map<string, OpSpec>(OPCODES.filter((o) => !o.fallback).map((o) => [o.name, o]));
function row(name: string): OpSpec {
  const o = byName.get(name);
  if (!o) throw new Error(`MIPS opcode table has no ${name}`);
  return o;
}
const M = {
  addiu: row('addiu').match, ori: row('ori').match, lui: row('lui').match, sb: row('sb').match,
  swl: row('swl').match, swr: row('swr').match, j: row('j').match, jal: row('jal').match,
  or: row('or').match, syscall: row('syscall').match, brk: row('break').match, sll: row('sll').match,
  srl: row('srl').match, bne: row('bne').match, beq: row('beq').match, addu: row('addu').match, lw: row('lw').match,
};
const I = (m: number, rs: number, rt: number, imm: number): number => (m | (rs << 21) | (rt << 16) | (imm & 0xffff)) >>> 0;

export const mipsEnc = {
  nop: (): number => 0,
  addiu: (rt: number, rs: number, imm: number): number => I(M.addiu, rs, rt, imm),
  ori: (rt: number, rs: number, imm: number): number => I(M.ori, rs, rt, imm),
  lui: (rt: number, imm: number): number => I(M.lui, 0, rt, imm),
  sb: (rt: number, off: number, base: number): number => I(M.sb, base, rt, off),
  swl: (rt: number, off: number, base: number): number => I(M.swl, base, rt, off),
  swr: (rt: number, off: number, base: number): number => I(M.swr, base, rt, off),
  srl: (rd: number, rt: number, sa: number): number => (M.srl | (rt << 16) | (rd << 11) | (sa << 6)) >>> 0,
  move: (rd: number, rs: number): number => (M.or | (rs << 21) | (rd << 11)) >>> 0,
  addu: (rd: number, rs: number, rt: number): number => (M.addu | (rs << 21) | (rt << 16) | (rd << 11)) >>> 0,
  lw: (rt: number, off: number, base: number): number => I(M.lw, base, rt, off),
  /** jr / jalr with its target register replaced by rs. */
  withTarget: (word: number, rs: number): number => ((word & ~(31 << 21)) | (rs << 21)) >>> 0,
  j: (target: number): number => (M.j | ((target >>> 2) & 0x03ffffff)) >>> 0,
  jal: (target: number): number => (M.jal | ((target >>> 2) & 0x03ffffff)) >>> 0,
  bne: (rs: number, rt: number, pc: number, target: number): number => I(M.bne, rs, rt, (target - pc - 4) >> 2),
  beq: (rs: number, rt: number, pc: number, target: number): number => I(M.beq, rs, rt, (target - pc - 4) >> 2),
  syscall: (): number => M.syscall,
  brk: (code: number): number => (M.brk | ((code & 0xfffff) << 6)) >>> 0,
};

/**
 * Retargets a delayed transfer at `pc` (its word `word`) to `target`: the 16-bit displacement of
 * a branch or the 26-bit region index of j/jal. Throws when the target is out of reach.
 */
export function retargetMips(word: number, pc: number, target: number): number {
  // The J-type transfers are j and jal, major opcodes 2 and 3 (Kane & Heinrich Figure 5-1).
  const op = word >>> 26;
  if (op === 2 || op === 3) {
    if (((pc + 4) & 0xf0000000) !== (target & 0xf0000000)) throw new Error(`j/jal at 0x${pc.toString(16)}: target 0x${target.toString(16)} outside its 256 MB region`);
    return ((word & 0xfc000000) | ((target >>> 2) & 0x03ffffff)) >>> 0;
  }
  const disp = (target - pc - 4) >> 2;
  if (disp < -0x8000 || disp > 0x7fff || ((target - pc - 4) & 3) !== 0) {
    throw new Error(`branch at 0x${pc.toString(16)}: target 0x${target.toString(16)} out of reach`);
  }
  return ((word & 0xffff0000) | (disp & 0xffff)) >>> 0;
}

const CALL_CLOBBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, RA, REG_HI, REG_LO];
const CALL_PRESERVES = [16, 17, 18, 19, 20, 21, 22, 23, GP, SP, S8];

export function mipsIsa(arch: Arch): Isa {
  return {
    name: 'mips', arch, bigEndian: arch === 'mips',
    PTR: K0, TMP: K1, reserved: [K0, K1], SP, LINK: RA, ARG0: A0, RET: V0, SYSNUM: V0,
    syscallDefs: [V0, V1, A3],
    callClobbers: CALL_CLOBBERS,
    callPreserves: CALL_PRESERVES,
    longjmpRestores: [16, 17, 18, 19, 20, 21, 22, 23, GP, SP, S8],
    decode: decodeMips,
    at: mipsAt,
    regName: (n) => (n < 32 ? GPR_NAMES[n]! : n === REG_HI ? 'hi' : n === REG_LO ? 'lo' : `r${n}`),
    disasm: (w, a) => mipsDisasm(w, a),
    canon: (n) => n,
    uncanon: (c) => ({ reg: c, depth: 0 }),
  };
}
