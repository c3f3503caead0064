/**
 * SPARC v8 disassembler producing the text of `sparc64-linux-gnu-objdump -d` (GNU binutils), so
 * the two can be compared line by line (test/cpu/sparc/disasm.test.ts).
 *
 * Operand syntax comes from the opcode table's `args`; the binutils conventions layered on top:
 *   - synthetic instructions (aliases) exactly where objdump prints them (the ALIASES list);
 *   - immediates: decimal when <= 9 (so every negative value), else 0x-prefixed hex;
 *   - addresses `rs1 + rs2`, `rs1 + imm`, `rs1` (zero rs2 or imm), `imm` (zero rs1);
 *   - double/quad FP registers with an odd number print as V9 registers (%f32 + ...), as objdump
 *     decodes them (v8 requires even numbers; see fpu.ts for what executing them does);
 *   - `! value` after an instruction that adds or ors an immediate to a register set by a sethi
 *     in the previous instruction (or the one before, when the previous one is a delayed CTI);
 *   - branch/call targets and `!` values as bare hex (objdump adds ` <symbol+off>`).
 *
 * Documented differences from objdump (normalised by the test): a single space separates the
 * mnemonic from the operands (objdump pads), no trailing blank, no `<symbol>` annotations; ASIs
 * print as `(n)` (objdump names some with V9 `#ASI_*` names); coprocessor-operate instructions
 * print as `cpop1 opc, %cN, %cN, %cN` (objdump has no v8 syntax for them); rd/wr of ancillary
 * state registers 16..31 print as `%asrN` (objdump's sparc64 tables give some V9 names).
 */
import { decode, type Insn } from './decode.js';
import type { OpSpecFull, Prec } from './opcodes.js';

const IREG: readonly string[] = [
  '%g0', '%g1', '%g2', '%g3', '%g4', '%g5', '%g6', '%g7',
  '%o0', '%o1', '%o2', '%o3', '%o4', '%o5', '%sp', '%o7',
  '%l0', '%l1', '%l2', '%l3', '%l4', '%l5', '%l6', '%l7',
  '%i0', '%i1', '%i2', '%i3', '%i4', '%i5', '%fp', '%i7',
];

/** Name of integer register r (0..31) in the current window, as objdump prints it. */
export function regName(r: number): string {
  return IREG[r & 31]!;
}

function freg(r: number, p: Prec): string {
  if (p === 's') return `%f${r}`;
  return `%f${(r & 30) | ((r & 1) << 5)}`;
}

/** objdump's immediate format: %d up to 9, else %#x (of the value as a signed int). */
export function imm(v: number): string {
  if (v <= 9) return String(v);
  return `0x${(v >>> 0).toString(16)}`;
}

function hex(v: number): string {
  return (v >>> 0).toString(16);
}

interface Ctx {
  /** Set when an immediate was added or ored to rs1 (objdump's sethi-pair comment). */
  added: boolean;
  ored: boolean;
}

/** `rs1 + rs2` / `rs1 + imm` / `rs1` / `imm`; a printed `+ imm` marks the add for the comment. */
function address(d: Insn, c: Ctx, ticc = false): string {
  if (!d.i) return d.rs2 === 0 ? regName(d.rs1) : `${regName(d.rs1)} + ${regName(d.rs2)}`;
  const v = ticc ? d.simm13 & 0x7f : d.simm13;
  if (d.rs1 === 0) return v === 0 && !ticc ? '%g0' : imm(v);
  if (v === 0 && !ticc) return regName(d.rs1);
  c.added = true;
  return `${regName(d.rs1)} + ${imm(v)}`;
}

function ri(d: Insn): string {
  return d.i ? imm(d.simm13) : regName(d.rs2);
}

function precOf(tok: string): Prec {
  return tok.endsWith(':d') ? 'd' : tok.endsWith(':q') ? 'q' : 's';
}

/** Operand text per `args` token. */
function operand(tok: string, d: Insn, pc: number, c: Ctx): string {
  const base = tok.replace(/:[sdq]$/, '');
  switch (base) {
    case 'rs1': return regName(d.rs1);
    case 'rs2': return regName(d.rs2);
    case 'rd': return regName(d.rd);
    case 'ri': return ri(d);
    case 'fs1': return freg(d.rs1, precOf(tok));
    case 'fs2': return freg(d.rs2, precOf(tok));
    case 'fd': return freg(d.rd, precOf(tok));
    case 'cd': return `%c${d.rd}`;
    case 'hi22': return d.imm22 === 0 ? '%hi(0)' : `%hi(0x${hex(d.imm22 << 10)})`;
    case 'c22': {
      const v = (d.imm22 << 10) >> 10;
      return v === 0 ? '0' : `0x${hex(v)}`;
    }
    case 'disp22': case 'disp30': return hex(pc + d.disp);
    case 'ti': return address(d, c, true);
    default:
      if (base.startsWith('%')) return base;
      throw new Error(`disasm: unknown operand token ${tok}`);
  }
}

/** The mnemonic as objdump spells it (branch families, FP/coprocessor loads and stores). */
function mnemonic(s: OpSpecFull): string {
  if (s.fmt === 'bicc' || s.fmt === 'fbfcc' || s.fmt === 'cbccc') {
    if (s.name === 'ba') return 'b';
    if (s.name === 'fba') return 'fb';
    if (s.name === 'cba') return 'cb';
    return s.name;
  }
  if (s.mem && s.mem.unit !== 'r') return s.mem.width === 8 ? (s.mem.kind === 'load' ? 'ldd' : 'std') : (s.mem.kind === 'load' ? 'ld' : 'st');
  if (s.sem === 'rdy' || s.sem === 'rdasr' || s.sem === 'rdpsr' || s.sem === 'rdwim' || s.sem === 'rdtbr') return 'rd';
  if (s.sem.startsWith('wr')) return 'wr';
  return s.name;
}

type Alias = (d: Insn, c: Ctx) => string | undefined;

/**
 * Synthetic instructions objdump prints, per mnemonic; first match wins, undefined falls back to
 * the plain form. Conditions are binutils' (observed against objdump on generated words).
 */
const ALIASES: Record<string, Alias> = {
  sethi: (d) => (d.rd === 0 && d.imm22 === 0 ? 'nop' : undefined),
  or: (d, c) => {
    if (d.i) c.ored = true;
    if (d.rs1 === 0) {
      if (d.i && d.simm13 === 0) return `clr ${regName(d.rd)}`;
      if (!d.i && d.rs2 === 0 && d.rd === 0) return 'clr %g0';
      return `mov ${ri(d)}, ${regName(d.rd)}`;
    }
    if ((!d.i && d.rs2 === 0) || (d.i && d.simm13 === 0)) return `mov ${regName(d.rs1)}, ${regName(d.rd)}`;
    return undefined;
  },
  orcc: (d) => {
    if (d.rd !== 0) return undefined;
    if (!d.i && d.rs1 === 0) return `tst ${regName(d.rs2)}`;
    if ((!d.i && d.rs2 === 0) || (d.i && d.simm13 === 0)) return `tst ${regName(d.rs1)}`;
    return undefined;
  },
  andcc: (d) => {
    if (d.rd !== 0) return undefined;
    return d.i ? `btst ${imm(d.simm13)}, ${regName(d.rs1)}` : `btst ${regName(d.rs1)}, ${regName(d.rs2)}`;
  },
  subcc: (d) => {
    if (d.i && d.simm13 === 1 && d.rs1 === d.rd) return `deccc ${regName(d.rd)}`;
    if (d.rd === 0) return `cmp ${regName(d.rs1)}, ${ri(d)}`;
    return undefined;
  },
  addcc: (d) => (d.i && d.simm13 === 1 && d.rs1 === d.rd ? `inccc ${regName(d.rd)}` : undefined),
  add: (d, c) => {
    if (d.i && d.simm13 === 1 && d.rs1 === d.rd) return `inc ${regName(d.rd)}`;
    if (d.i) c.added = true;
    return undefined;
  },
  sub: (d) => {
    if (d.i && d.simm13 === 1 && d.rs1 === d.rd) return `dec ${regName(d.rd)}`;
    if (!d.i && d.rs1 === 0) return d.rs2 === d.rd ? `neg ${regName(d.rd)}` : `neg ${regName(d.rs2)}, ${regName(d.rd)}`;
    return undefined;
  },
  jmpl: (d, c) => {
    if (d.rd === 0 && d.i && d.simm13 === 8 && d.rs1 === 31) return 'ret';
    if (d.rd === 0 && d.i && d.simm13 === 8 && d.rs1 === 15) return 'retl';
    if (d.rd === 0) return `jmp ${address(d, c)}`;
    if (d.rd === 15) return `call ${address(d, c)}`;
    return undefined;
  },
  save: (d) => (d.rd === 0 && d.rs1 === 0 && (d.i ? d.simm13 === 0 : d.rs2 === 0) ? 'save' : undefined),
  restore: (d) => (d.rd === 0 && d.rs1 === 0 && (d.i ? d.simm13 === 0 : d.rs2 === 0) ? 'restore' : undefined),
  st: (d, c) => (d.rd === 0 ? `clr [ ${address(d, c)} ]` : undefined),
  stb: (d, c) => (d.rd === 0 ? `clrb [ ${address(d, c)} ]` : undefined),
  sth: (d, c) => (d.rd === 0 ? `clrh [ ${address(d, c)} ]` : undefined),
};

/** wr's operands: `rs1, ri` collapsed when one side is %g0 (or a zero immediate). */
function wrSource(d: Insn): string {
  if (!d.i) {
    if (d.rs1 === 0) return regName(d.rs2);
    if (d.rs2 === 0) return regName(d.rs1);
    return `${regName(d.rs1)}, ${regName(d.rs2)}`;
  }
  if (d.rs1 === 0) return d.simm13 === 0 ? '%g0' : imm(d.simm13);
  if (d.simm13 === 0) return regName(d.rs1);
  return `${regName(d.rs1)}, ${imm(d.simm13)}`;
}

/** Instruction words whose successor's immediate objdump looks through (delayed CTIs). */
function isDelayedCti(word: number): boolean {
  const s = decode(word).spec;
  return s !== undefined && (s.cti === 'bicc' || s.cti === 'fbfcc' || s.cti === 'cbccc' || s.cti === 'call' || s.cti === 'jmpl' || s.cti === 'rett');
}

export interface DisasmContext {
  /** The word before this instruction and the one before that (for objdump's `!` comments). */
  prev?: number;
  prev2?: number;
}

/** Disassembles one instruction at address pc. Words that are not v8 print as objdump's `unknown`. */
export function disassemble(word: number | Insn, pc: number, ctx: DisasmContext = {}): string {
  const d = typeof word === 'number' ? decode(word) : word;
  const s = d.spec;
  if (!s) return 'unknown';
  const c: Ctx = { added: false, ored: false };
  let text: string | undefined;
  const alias = ALIASES[s.name];
  if (alias) text = alias(d, c);
  if (text === undefined) text = plain(d, s, pc, c);
  if ((c.added || c.ored) && ctx.prev !== undefined) {
    let p: number | undefined = ctx.prev;
    if (isDelayedCti(p)) p = ctx.prev2;
    if (p !== undefined && ((p & 0xc1c00000) >>> 0) === 0x01000000 && ((p >>> 25) & 31) === d.rs1) {
      const hi = (p << 10) >>> 0;
      const v = c.added ? (hi + d.simm13) >>> 0 : (hi | d.simm13) >>> 0;
      text += `\t! ${hex(v)}`;
    }
  }
  return text;
}

function plain(d: Insn, s: OpSpecFull, pc: number, c: Ctx): string {
  const m = mnemonic(s);
  switch (s.fmt) {
    case 'bicc': case 'fbfcc': case 'cbccc':
      return `${m}${d.a ? ',a' : ''} ${hex(pc + d.disp)}`;
    case 'call':
      return `call ${hex(pc + d.disp)}`;
    case 'cpop':
      return `${s.name} ${d.opf}, %c${d.rs1}, %c${d.rs2}, %c${d.rd}`;
    default: break;
  }
  switch (s.sem) {
    case 'stbar': return 'stbar';
    case 'rdasr': return `rd %asr${d.rs1}, ${regName(d.rd)}`;
    case 'wry': return `wr ${wrSource(d)}, %y`;
    case 'wrasr': return `wr ${wrSource(d)}, %asr${d.rd}`;
    case 'wrpsr': return `wr ${wrSource(d)}, %psr`;
    case 'wrwim': return `wr ${wrSource(d)}, %wim`;
    case 'wrtbr': return `wr ${wrSource(d)}, %tbr`;
    default: break;
  }
  if (s.args === '') return m;
  const parts: string[] = [];
  for (const tok of s.args.split(', ')) {
    if (tok.startsWith('[a]')) {
      let a = `[ ${address(d, c)} ]`;
      if (tok === '[a]asi') a += ` (${d.asi})`;
      parts.push(a);
    } else {
      parts.push(operand(tok, d, pc, c));
    }
  }
  // jmpl, rett and flush take a bare address (no brackets).
  if (s.sem === 'jmpl' || s.sem === 'rett' || s.sem === 'flush') parts[0] = parts[0]!.replace(/^\[ (.*) \]$/, '$1');
  return `${m} ${parts.join(', ')}`;
}
