/**
 * MIPS I disassembler, driven by the opcode table. Output follows GNU objdump's MIPS syntax
 * (binutils 2.40, MIPS I executables): ABI register names without '$', '$fN' floating-point
 * registers, CP0 register names of the R3000 family, and objdump's default aliases (nop, move, li,
 * b, bal, beqz, bnez). `noAliases` prints the base instructions, as `objdump -M no-aliases` does;
 * neg, negu and the one-operand jalr (rd = ra) are base forms in binutils' table, printed either way. docs/cpu-mips.md lists the remaining formatting differences.
 */
import { Insn, decode } from './decode.js';
import { type Operand } from './opcodes.js';

export const GPR_NAMES = [
  'zero', 'at', 'v0', 'v1', 'a0', 'a1', 'a2', 'a3', 't0', 't1', 't2', 't3', 't4', 't5', 't6', 't7',
  's0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 't8', 't9', 'k0', 'k1', 'gp', 'sp', 's8', 'ra',
] as const;

/** CP0 register names of the R2000/R3000 (Kane & Heinrich Table 6-1); unnamed ones print as $n. */
export const CP0_NAMES: readonly string[] = (() => {
  const n: string[] = [];
  for (let i = 0; i < 32; i++) n.push(`$${i}`);
  n[0] = 'c0_index'; n[1] = 'c0_random'; n[2] = 'c0_entrylo'; n[4] = 'c0_context'; n[8] = 'c0_badvaddr';
  n[10] = 'c0_entryhi'; n[12] = 'c0_sr'; n[13] = 'c0_cause'; n[14] = 'c0_epc'; n[15] = 'c0_prid';
  return n;
})();

/** FPU control registers: FCR0 (implementation/revision) and FCR31 (control/status). */
export function fcrName(n: number): string {
  return n === 0 ? 'c1_fir' : n === 31 ? 'c1_fcsr' : `$${n}`;
}

function hex(v: number): string {
  return `0x${(v >>> 0).toString(16)}`;
}

export interface DisasmOptions {
  /** Print base instructions only (objdump -M no-aliases). */
  noAliases?: boolean;
  /** Names a code address for branch/jump targets, e.g. 'main+0x10' (printed as ' <main+0x10>'). */
  symbolize?: (addr: number) => string | undefined;
}

function target(addr: number, o: DisasmOptions): string {
  const a = addr >>> 0;
  const s = o.symbolize?.(a);
  return s ? `${a.toString(16)} <${s}>` : a.toString(16);
}

function operand(k: Operand, i: Insn, pc: number, o: DisasmOptions): string {
  switch (k) {
    case 'rd': return GPR_NAMES[i.rd]!;
    case 'rs': return GPR_NAMES[i.rs]!;
    case 'rt': return GPR_NAMES[i.rt]!;
    case 'sa': return hex(i.sa);
    case 'simm': return String(i.simm);
    case 'uimm': return hex(i.imm);
    case 'mem': return `${i.simm}(${GPR_NAMES[i.rs]})`;
    case 'boff': return target(pc + 4 + (i.simm << 2), o);
    case 'jtgt': return target((((pc + 4) & 0xf0000000) | (i.target << 2)) >>> 0, o);
    case 'code20': return '';
    case 'fd': return `$f${i.fd}`;
    case 'fs': return `$f${i.fs}`;
    case 'ft': return `$f${i.ft}`;
    case 'c0rd': return CP0_NAMES[i.rd]!;
    case 'c0rt': return CP0_NAMES[i.rt]!;
    case 'c1fs': return fcrName(i.rd);
    case 'czrd': return `$${i.rd}`;
    case 'czrt': return `$${i.rt}`;
    case 'cofun': return hex(i.word & 0x1ffffff);
  }
}

/** objdump's default alias for an instruction, when one applies. */
function alias(i: Insn, pc: number, o: DisasmOptions): string | undefined {
  const r = GPR_NAMES;
  switch (i.spec!.op) {
    case 'SLL': return i.word === 0 ? 'nop' : undefined;
    case 'ADDU': case 'OR': return i.rt === 0 ? `move\t${r[i.rd]},${r[i.rs]}` : undefined;
    case 'ADDIU': return i.rs === 0 ? `li\t${r[i.rt]},${i.simm}` : undefined;
    case 'ORI': return i.rs === 0 ? `li\t${r[i.rt]},${hex(i.imm)}` : undefined;
    case 'BEQ':
      if (i.rs === 0 && i.rt === 0) return `b\t${operand('boff', i, pc, o)}`;
      return i.rt === 0 ? `beqz\t${r[i.rs]},${operand('boff', i, pc, o)}` : undefined;
    case 'BNE': return i.rt === 0 ? `bnez\t${r[i.rs]},${operand('boff', i, pc, o)}` : undefined;
    case 'BGEZAL': return i.rs === 0 ? `bal\t${operand('boff', i, pc, o)}` : undefined;
    default: return undefined;
  }
}

function codeText(i: Insn): string {
  // break prints its code as two fields (bits 16..25, 6..15), syscall as one 20-bit field.
  if (i.spec!.op === 'BREAK') {
    const c1 = (i.word >>> 16) & 0x3ff;
    const c2 = (i.word >>> 6) & 0x3ff;
    if (c2 !== 0) return `${hex(c1)},${hex(c2)}`;
    return c1 !== 0 ? hex(c1) : '';
  }
  return i.code !== 0 ? hex(i.code) : '';
}

/** Mnemonic and operands separated by a tab (objdump's column layout), e.g. "addiu\tsp,sp,-32". */
export function disasmInsn(i: Insn, pc: number, o: DisasmOptions = {}): string {
  const s = i.spec;
  if (!s) return `.word\t${hex(i.word)}`;
  // objdump prints sub/subu from $zero as neg/negu, and jalr with rd = ra with one operand, even
  // with -M no-aliases.
  if ((s.op === 'SUB' || s.op === 'SUBU') && i.rs === 0) return `${s.op === 'SUB' ? 'neg' : 'negu'}\t${GPR_NAMES[i.rd]},${GPR_NAMES[i.rt]}`;
  if (s.op === 'JALR' && i.rd === 31) return `jalr\t${GPR_NAMES[i.rs]}`;
  if (!o.noAliases) {
    const a = alias(i, pc, o);
    if (a !== undefined) return a;
  }
  let ops: string;
  if (s.operands.length === 1 && s.operands[0] === 'code20') ops = codeText(i);
  else if (s.op === 'DIV' || s.op === 'DIVU') ops = `zero,${GPR_NAMES[i.rs]},${GPR_NAMES[i.rt]}`;
  else ops = s.operands.map((k) => operand(k, i, pc, o)).join(',');
  return ops === '' ? s.name : `${s.name}\t${ops}`;
}

/** Disassembles one word at address pc. */
export function disasm(word: number, pc: number, o: DisasmOptions = {}): string {
  return disasmInsn(decode(word), pc, o);
}
