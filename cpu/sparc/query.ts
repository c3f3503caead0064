/**
 * Questions the instrumenter (and the image checker) asks about decoded SPARC instructions, all
 * answered from the opcode table's declarations: registers defined and used, control-transfer
 * kind with the ret/retl/call-through-register idioms, delay slot and annul, memory access shape,
 * and whether a word is strict SPARC v8 (the ISA-purity scan).
 *
 * Register identifiers: 0..31 are r[0]..r[31] of the current window (%g0-%g7, %o0-%o7, %l0-%l7,
 * %i0-%i7); 32..63 are %f0..%f31; the named constants below stand for state registers.
 * %g0 is never reported as defined (writes to it are discarded) nor as used.
 */
import { decode, lookup, type Insn } from './decode.js';
import { zeroBits, type MemKind, type MemUnit, type Role } from './opcodes.js';

export const REG_F0 = 32;
export const REG_ICC = 64;
export const REG_Y = 65;
export const REG_PSR = 66;
export const REG_WIM = 67;
export const REG_TBR = 68;
export const REG_FCC = 69;
export const REG_FSR = 70;
/** The current window pointer: save, restore and rett change which registers r[8..31] name. */
export const REG_CWP = 71;
export const REG_ASR = 72;

export interface PurityOptions {
  /**
   * Judge the word as user code: also reject privileged instructions and ancillary state
   * register accesses (none exist on this machine). Three V9 instructions share encodings with
   * those and are caught only this way: `return` (v8 RETT), `flushw` (RDTBR %g0) and `rd %pc`
   * (RDASR %asr5).
   */
  user?: boolean;
}

/**
 * True when `word` encodes a SPARC v8 instruction with every unused field clear. V9-only words
 * (sllx, BPcc, movcc, casa, ldx...) fail, and with `user` also V9 words that reuse privileged v8
 * encodings.
 */
export function isSparcV8Word(word: number, opts: PurityOptions = {}): boolean {
  const s = lookup(word >>> 0);
  if (!s) return false;
  if (((word & zeroBits(s, word)) >>> 0) !== 0) return false;
  if (opts.user && (s.priv || s.sem === 'rdasr' || s.sem === 'wrasr')) return false;
  return true;
}

function fpRegs(r: number, prec: 's' | 'd' | 'q'): number[] {
  if (prec === 's') return [REG_F0 + r];
  if (prec === 'd') return [REG_F0 + (r & 30), REG_F0 + (r & 30) + 1];
  const b = r & 28;
  return [REG_F0 + b, REG_F0 + b + 1, REG_F0 + b + 2, REG_F0 + b + 3];
}

function roleRegs(d: Insn, role: Role): number[] {
  const s = d.spec!;
  switch (role) {
    case 'rd': return s.mem && s.mem.width === 8 && s.mem.unit === 'r' ? [d.rd & 30] : [d.rd];
    case 'rd2': return [(d.rd & 30) + 1];
    case 'rs1': return [d.rs1];
    case 'rs2': return d.i ? [] : [d.rs2];
    case 'o7': return [15];
    case 'fd': {
      const p = s.mem ? (s.mem.width === 8 ? "d" : "s") : s.precD!;
      return fpRegs(d.rd, p);
    }
    case 'fs1': return fpRegs(d.rs1, s.precS!);
    case 'fs2': return fpRegs(d.rs2, s.precS!);
    case 'icc': return [REG_ICC];
    case 'y': return [REG_Y];
    case 'psr': return [REG_PSR];
    case 'wim': return [REG_WIM];
    case 'tbr': return [REG_TBR];
    case 'fcc': return [REG_FCC];
    case 'fsr': return [REG_FSR];
    case 'cwp': return [REG_CWP];
    case 'asr': return [REG_ASR];
  }
}

function collect(d: Insn, roles: readonly Role[]): number[] {
  const out: number[] = [];
  for (let k = 0; k < roles.length; k++) {
    const regs = roleRegs(d, roles[k]!);
    for (let j = 0; j < regs.length; j++) {
      const x = regs[j]!;
      if (x !== 0 && !out.includes(x)) out.push(x);
    }
  }
  return out.length > 1 ? out.sort((a, b) => a - b) : out;
}

/** Registers written by the instruction (after a save/restore: in the new window). */
export function regsDefined(d: Insn): number[] {
  return d.spec ? collect(d, d.spec.defs) : [];
}

/** Registers read by the instruction (in the window current before it executes). */
export function regsUsed(d: Insn): number[] {
  return d.spec ? collect(d, d.spec.uses) : [];
}

export type CtiClass =
  | 'none'
  | 'branch' // Bicc/FBfcc/CBccc other than always/never
  | 'branch-always' // ba, fba, cba
  | 'branch-never' // bn, fbn, cbn (a delayed no-op, or annuls its slot)
  | 'call' // call disp30
  | 'call-indirect' // jmpl ..., %o7
  | 'return' // ret: jmpl %i7 + 8, %g0 (with restore in the delay slot by convention)
  | 'return-leaf' // retl: jmpl %o7 + 8, %g0
  | 'jump-indirect' // any other jmpl
  | 'rett'
  | 'trap'; // Ticc

/** Control-transfer classification, with the ret/retl and indirect-call idioms recognised. */
export function ctiClass(d: Insn): CtiClass {
  const s = d.spec;
  if (!s || !s.cti) return 'none';
  switch (s.cti) {
    case 'bicc': case 'fbfcc': case 'cbccc':
      return d.cond === 8 ? 'branch-always' : d.cond === 0 ? 'branch-never' : 'branch';
    case 'call': return 'call';
    case 'jmpl':
      if (d.rd === 0 && d.i && d.simm13 === 8 && d.rs1 === 31) return 'return';
      if (d.rd === 0 && d.i && d.simm13 === 8 && d.rs1 === 15) return 'return-leaf';
      if (d.rd === 15) return 'call-indirect';
      return 'jump-indirect';
    case 'rett': return 'rett';
    case 'ticc': return 'trap';
  }
}

/** True for delayed control transfers (every CTI but Ticc). */
export function hasDelaySlot(d: Insn): boolean {
  const c = ctiClass(d);
  return c !== 'none' && c !== 'trap';
}

/**
 * Annul semantics of a branch (manual 5.5.1.1): a conditional branch with a = 1 annuls its delay
 * slot when not taken; ba,a annuls it always; bn,a annuls it always (never taken).
 */
export function annulsWhenTaken(d: Insn): boolean {
  return d.a && ctiClass(d) === 'branch-always';
}
export function annulsWhenNotTaken(d: Insn): boolean {
  const c = ctiClass(d);
  return d.a && (c === 'branch' || c === 'branch-never');
}

/** Statically known target of a PC-relative CTI at address pc (undefined for register targets). */
export function staticTarget(d: Insn, pc: number): number | undefined {
  const s = d.spec;
  if (!s) return undefined;
  if (s.cti === 'bicc' || s.cti === 'fbfcc' || s.cti === 'cbccc' || s.cti === 'call') return (pc + d.disp) >>> 0;
  return undefined;
}

export interface MemAccess {
  kind: MemKind;
  width: 1 | 2 | 4 | 8;
  signed: boolean;
  unit: MemUnit;
  /** Base register (r[rs1]; %g0 means absolute). */
  base: number;
  /** Index register (i = 0) or undefined. */
  index?: number;
  /** Immediate offset (i = 1), 0 otherwise. */
  offset: number;
  /** Alternate space: the asi field; undefined for the normal data space. */
  asi?: number;
}

/** Memory access of a load/store/atomic, or undefined for other instructions. */
export function memAccess(d: Insn): MemAccess | undefined {
  const m = d.spec?.mem;
  if (!m) return undefined;
  const a: MemAccess = { kind: m.kind, width: m.width, signed: m.signed, unit: m.unit, base: d.rs1, offset: d.i ? d.simm13 : 0 };
  if (!d.i) a.index = d.rs2;
  if (m.alt) a.asi = d.asi;
  return a;
}

/** Sets the integer condition codes. */
export function setsIcc(d: Insn): boolean {
  return d.spec?.defs.includes('icc') ?? false;
}

/** Convenience: decode and classify in one call. */
export function describe(word: number): { insn: Insn; cti: CtiClass; mem?: MemAccess; defs: number[]; uses: number[] } {
  const insn = decode(word);
  const mem = memAccess(insn);
  return { insn, cti: ctiClass(insn), ...(mem ? { mem } : {}), defs: regsDefined(insn), uses: regsUsed(insn) };
}
