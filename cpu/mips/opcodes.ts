/**
 * The MIPS I opcode table: every user instruction of the R2000, the CP0 (system control) instructions
 * and the R2010 floating-point accelerator as coprocessor 1 — one row per instruction, as data.
 *
 * Read by the decoder (decode.ts), the disassembler (disasm.ts), the instrumenter's queries
 * (query.ts), both execution engines (interp.ts, translate.ts dispatch on `op`), the instruction-test
 * generator (test/cpu/mips) and the ISA-purity scan (`isMipsIWord`).
 *
 * What an instruction computes is written once, in its row: `value` binds one of cpu/semantics.ts's
 * operations to the row's operands (addu is `rd = add(rs, rt)`), `cond` the comparison a branch
 * takes on (beq is `eq(rs, rt)`). values.ts says what the operand names stand for and makes the
 * engines' JavaScript of them; the instrumenter (tracer/isa_mips.ts) and regeneration read the
 * same bindings. Exceptions, delay slots, memory and coprocessor state stay with the engines.
 *
 * Sources: MIPS RISC Architecture (Kane & Heinrich, 1992), chapters 5 (CPU instruction set),
 * 6 (memory management: TLB, CP0) and 8 (floating point, R2010/R3010); Appendix A of larus-1990.
 *
 * A row matches a 32-bit word when (word & mask) === match. Masks include every field the
 * architecture requires to be zero, so a word no row matches is a Reserved Instruction on this
 * machine (and objdump prints it as .word).
 */
import { parseBinding, type Binding, type Comparison, type ValueOpName } from '../semantics.js';

/** Encoding families (Kane & Heinrich, Figure 5-1; chapter 8 for COP1). */
export type Format =
  | 'R' // SPECIAL: op | rs | rt | rd | sa | funct
  | 'I' // op | rs | rt | immediate16
  | 'J' // op | target26
  | 'REGIMM' // op=1 | rs | rt(sub-op) | offset16
  | 'COP' // op=COPz | sub-op(rs) | rt | rd | 0 | funct (moves, CO operations)
  | 'FR'; // COP1 CO: op=17 | fmt | ft | fs | fd | funct

/**
 * Operand syntax tokens, in the order objdump prints them:
 *   rd rs rt       general registers        sa       shift amount (5 bits, printed 0x%x)
 *   simm           signed 16-bit immediate  uimm     zero-extended 16-bit immediate (hex)
 *   mem            offset(base): signed 16-bit offset, base = rs
 *   boff           PC-relative branch target (pc + 4 + (simm << 2))
 *   jtgt           region jump target (((pc + 4) & 0xf0000000) | (target << 2))
 *   code20         syscall/break code field (bits 6..25)
 *   fd fs ft       floating-point registers  c0rd c0rt  CP0 register (rd; rt)  c1fs  FPU control reg
 *   czrd czrt      coprocessor 2/3 register (rd; rt in lwcz/swcz)   cofun  COPz cofun (bits 0..24)
 */
export type Operand =
  | 'rd' | 'rs' | 'rt' | 'sa' | 'simm' | 'uimm' | 'mem' | 'boff' | 'jtgt' | 'code20'
  | 'fd' | 'fs' | 'ft' | 'c0rd' | 'c0rt' | 'c1fs' | 'czrd' | 'czrt' | 'cofun';

/** Semantic classes: what kind of work the instruction does (engines dispatch on `op`). */
export type SemClass =
  | 'alu' // register-register arithmetic/logic
  | 'alui' // register-immediate arithmetic/logic, lui
  | 'shift'
  | 'muldiv' // writes HI and LO
  | 'hilo' // mfhi/mflo/mthi/mtlo
  | 'load' | 'store'
  | 'branch' // conditional PC-relative, delayed
  | 'jump' // unconditional, delayed (j, jal, jr, jalr)
  | 'trap' // syscall, break: always raise their exception
  | 'cp0' // CP0 moves, TLB operations, rfe
  | 'fmove' // mfc1/mtc1/cfc1/ctc1
  | 'farith' | 'fcvt' | 'fcmp'
  | 'cpz' // coprocessor 2/3: no such unit on this machine, always Coprocessor Unusable
  | 'funimp' // a COP1 operation the R2010 does not implement: Unimplemented Operation
  | 'reserved'; // decodable by binutils, but not an R2000 instruction: Reserved Instruction

/** Control flow of an instruction, for the instrumenter (query.ts refines jr $ra into 'return'). */
export type Flow =
  | 'none'
  | 'branch' // conditional PC-relative (beq..bgez, bc1t/f); the link forms are calls
  | 'jump' // unconditional direct: j
  | 'call' // jal, bltzal/bgezal (conditional calls)
  | 'ijump' // jr (a return when rs = $ra)
  | 'icall' // jalr
  | 'trap'; // syscall, break

/**
 * Register operands for def/use queries. 'hi'/'lo' are the multiply/divide registers; 'ra' is
 * general register 31 (implicit link); 'fcc' is the FPU condition bit (FCSR bit 23); 'fcsr' the
 * whole control/status register; 'cp0' the CP0 register named by rd; 'tlb' the TLB entry array and
 * the CP0 registers the TLB operations read/write (Index, EntryHi, EntryLo).
 */
export type RegRef = 'rd' | 'rs' | 'rt' | 'ra' | 'hi' | 'lo' | 'fd' | 'fs' | 'ft' | 'fcc' | 'fcsr' | 'cp0' | 'tlb' | 'status';

/** Memory access described by a load/store row: address = GPR[rs] + sign-extended offset. */
export interface MemAccess {
  kind: 'load' | 'store';
  /** Bytes transferred by an aligned access (lwl/lwr/swl/swr: the aligned word they merge into). */
  width: 1 | 2 | 4;
  /** Sign-extends the loaded value (lb, lh). */
  signed: boolean;
  /** lwl/swl ('left') and lwr/swr ('right'): unaligned partial-word accesses, never an AdE. */
  partial?: 'left' | 'right';
  /** The register transferred is a floating-point register (lwc1/swc1: ft). */
  fpr?: boolean;
}

/**
 * Operand names of the semantics bindings (values.ts): the general registers rd rs rt, the
 * fields sa, simm, uimm and luimm (lui's constant), the multiply/divide registers hi and lo, and
 * fcc (the FPU condition bit, for bc1f/bc1t). Integer literals are constants.
 */
export const MIPS_OPERANDS: ReadonlySet<string> = new Set(['rd', 'rs', 'rt', 'sa', 'simm', 'uimm', 'luimm', 'hi', 'lo', 'fcc']);

/** Floating-point formats (Kane & Heinrich Table 8-4): fmt field 16 = S, 17 = D, 20 = W. */
export type FpFmt = 's' | 'd' | 'w';

/** Architectural exceptions an instruction can raise itself (besides interrupts). */
export type ExcName = 'Ov' | 'AdEL' | 'AdES' | 'TLBL' | 'TLBS' | 'Mod' | 'Sys' | 'Bp' | 'CpU' | 'RI' | 'FPE';

export interface OpSpec {
  /** Mnemonic as objdump prints it (with -M no-aliases). */
  name: string;
  /** Semantic operation id the engines dispatch on (unique per row). */
  op: string;
  format: Format;
  match: number;
  mask: number;
  operands: readonly Operand[];
  cls: SemClass;
  flow: Flow;
  /** Executes the following instruction (the delay slot) before control transfers. */
  delaySlot: boolean;
  defs: readonly RegRef[];
  uses: readonly RegRef[];
  mem?: MemAccess;
  /** Floating-point source and destination formats (farith/fcvt/fcmp; fmove uses none). */
  fmt?: FpFmt;
  dstFmt?: FpFmt;
  /** Coprocessor that must be usable (Status.CU) in user mode: 0 (CP0 in user mode), 1, 2 or 3. */
  cop?: 0 | 1 | 2 | 3;
  /** Privileged: needs kernel mode or Status.CU0 (the CP0 instructions). */
  privileged?: boolean;
  exceptions: readonly ExcName[];
  /** Part of the machine emu emulates (MIPS I + CP0 + R2010); false for coprocessors 2/3. */
  implemented: boolean;
  /** What the instruction computes: a cpu/semantics.ts operation over the row's operands. */
  value?: Binding<ValueOpName>;
  /** The comparison a conditional branch takes on. */
  cond?: Binding<Comparison>;
  /**
   * A catch-all row (c0, c1, c2, c3 cofun forms): matches only words no specific row matches.
   * Catch-all rows come after the specific rows of their opcode in OPCODES.
   */
  fallback?: boolean;
}

// ---- field extraction (Kane & Heinrich Figure 5-1) ----
export const fOp = (w: number): number => w >>> 26;
export const fRs = (w: number): number => (w >>> 21) & 31;
export const fRt = (w: number): number => (w >>> 16) & 31;
export const fRd = (w: number): number => (w >>> 11) & 31;
export const fSa = (w: number): number => (w >>> 6) & 31;
export const fFunct = (w: number): number => w & 63;
export const fImm = (w: number): number => w & 0xffff;
export const fSimm = (w: number): number => (w << 16) >> 16;
export const fTarget = (w: number): number => w & 0x03ffffff;
export const fCode20 = (w: number): number => (w >>> 6) & 0xfffff;

const OP = (o: number): number => (o << 26) >>> 0;
const RS = (v: number): number => v << 21;
const RT = (v: number): number => v << 16;
const M_OP = 0xfc000000;
const M_RS = 0x03e00000;
const M_RT = 0x001f0000;
const M_RD = 0x0000f800;
const M_SA = 0x000007c0;
const M_FN = 0x0000003f;

export const OPC_SPECIAL = 0;
export const OPC_REGIMM = 1;
export const OPC_COP0 = 16;
export const OPC_COP1 = 17;

const rows: OpSpec[] = [];

interface RowOpts {
  /** `value` binding, e.g. 'rd = add(rs, rt)'. */
  value?: string;
  /** `cond` binding, e.g. 'eq(rs, rt)'. */
  cond?: string;
  defs?: readonly RegRef[];
  uses?: readonly RegRef[];
  flow?: Flow;
  delaySlot?: boolean;
  mem?: MemAccess;
  fmt?: FpFmt;
  dstFmt?: FpFmt;
  cop?: 0 | 1 | 2 | 3;
  privileged?: boolean;
  exceptions?: readonly ExcName[];
  implemented?: boolean;
  fallback?: boolean;
}

function row(name: string, op: string, format: Format, match: number, mask: number, operands: string, cls: SemClass, o: RowOpts = {}): void {
  rows.push({
    name, op, format, match: match >>> 0, mask: mask >>> 0,
    operands: operands === '' ? [] : (operands.split(',') as Operand[]),
    cls, flow: o.flow ?? 'none', delaySlot: o.delaySlot ?? false,
    defs: o.defs ?? [], uses: o.uses ?? [], mem: o.mem, fmt: o.fmt, dstFmt: o.dstFmt, cop: o.cop,
    privileged: o.privileged, exceptions: o.exceptions ?? [], implemented: o.implemented ?? true,
    ...(o.value ? { value: parseBinding(o.value, MIPS_OPERANDS, 'value') as Binding<ValueOpName> } : {}),
    ...(o.cond ? { cond: parseBinding(o.cond, MIPS_OPERANDS, 'cond') as Binding<Comparison> } : {}),
    ...(o.fallback ? { fallback: true } : {}),
  });
}

// ---- SPECIAL (opcode 0), selected by funct ----
const SP = (fn: number): number => fn;
// Shifts by immediate: rs must be zero.
for (const [n, fn] of [['sll', 0], ['srl', 2], ['sra', 3]] as const) {
  row(n, n.toUpperCase(), 'R', SP(fn), M_OP | M_RS | M_FN, 'rd,rt,sa', 'shift', { value: `rd = ${n}(rt, sa)`, defs: ['rd'], uses: ['rt'] });
}
// Variable shifts: sa must be zero.
for (const [n, fn] of [['sllv', 4], ['srlv', 6], ['srav', 7]] as const) {
  row(n, n.toUpperCase(), 'R', SP(fn), M_OP | M_SA | M_FN, 'rd,rt,rs', 'shift', { value: `rd = ${n.slice(0, 3)}(rt, rs)`, defs: ['rd'], uses: ['rt', 'rs'] });
}
row('jr', 'JR', 'R', SP(8), M_OP | M_RT | M_RD | M_SA | M_FN, 'rs', 'jump', { uses: ['rs'], flow: 'ijump', delaySlot: true });
row('jalr', 'JALR', 'R', SP(9), M_OP | M_RT | M_SA | M_FN, 'rd,rs', 'jump', { defs: ['rd'], uses: ['rs'], flow: 'icall', delaySlot: true });
row('syscall', 'SYSCALL', 'R', SP(12), M_OP | M_FN, 'code20', 'trap', { flow: 'trap', exceptions: ['Sys'] });
row('break', 'BREAK', 'R', SP(13), M_OP | M_FN, 'code20', 'trap', { flow: 'trap', exceptions: ['Bp'] });
row('mfhi', 'MFHI', 'R', SP(16), M_OP | M_RS | M_RT | M_SA | M_FN, 'rd', 'hilo', { value: 'rd = or(hi, 0)', defs: ['rd'], uses: ['hi'] });
row('mthi', 'MTHI', 'R', SP(17), M_OP | M_RT | M_RD | M_SA | M_FN, 'rs', 'hilo', { value: 'hi = or(rs, 0)', defs: ['hi'], uses: ['rs'] });
row('mflo', 'MFLO', 'R', SP(18), M_OP | M_RS | M_RT | M_SA | M_FN, 'rd', 'hilo', { value: 'rd = or(lo, 0)', defs: ['rd'], uses: ['lo'] });
row('mtlo', 'MTLO', 'R', SP(19), M_OP | M_RT | M_RD | M_SA | M_FN, 'rs', 'hilo', { value: 'lo = or(rs, 0)', defs: ['lo'], uses: ['rs'] });
for (const [n, fn] of [['mult', 24], ['multu', 25], ['div', 26], ['divu', 27]] as const) {
  row(n, n.toUpperCase(), 'R', SP(fn), M_OP | M_RD | M_SA | M_FN, 'rs,rt', 'muldiv', { value: `hi, lo = ${n}(rs, rt)`, defs: ['hi', 'lo'], uses: ['rs', 'rt'] });
}
// add and sub raise Integer Overflow (the engines test the operation's exact result); addu and
// subu compute the same value without the test.
for (const [n, fn, op, ov] of [
  ['add', 32, 'add', true], ['addu', 33, 'add', false], ['sub', 34, 'sub', true], ['subu', 35, 'sub', false],
  ['and', 36, 'and', false], ['or', 37, 'or', false], ['xor', 38, 'xor', false], ['nor', 39, 'nor', false],
  ['slt', 42, 'slt', false], ['sltu', 43, 'sltu', false],
] as const) {
  row(n, n.toUpperCase(), 'R', SP(fn), M_OP | M_SA | M_FN, 'rd,rs,rt', 'alu', { value: `rd = ${op}(rs, rt)`, defs: ['rd'], uses: ['rs', 'rt'], exceptions: ov ? ['Ov'] : [] });
}

// ---- REGIMM (opcode 1), selected by rt ----
for (const [n, sub, link, cmp] of [['bltz', 0, false, 'lt'], ['bgez', 1, false, 'ge'], ['bltzal', 16, true, 'lt'], ['bgezal', 17, true, 'ge']] as const) {
  row(n, n.toUpperCase(), 'REGIMM', OP(1) | RT(sub), M_OP | M_RT, 'rs,boff', 'branch', {
    cond: `${cmp}(rs, 0)`, defs: link ? ['ra'] : [], uses: ['rs'], flow: link ? 'call' : 'branch', delaySlot: true,
  });
}

// ---- jumps and branches ----
row('j', 'J', 'J', OP(2), M_OP, 'jtgt', 'jump', { flow: 'jump', delaySlot: true });
row('jal', 'JAL', 'J', OP(3), M_OP, 'jtgt', 'jump', { defs: ['ra'], flow: 'call', delaySlot: true });
row('beq', 'BEQ', 'I', OP(4), M_OP, 'rs,rt,boff', 'branch', { cond: 'eq(rs, rt)', uses: ['rs', 'rt'], flow: 'branch', delaySlot: true });
row('bne', 'BNE', 'I', OP(5), M_OP, 'rs,rt,boff', 'branch', { cond: 'ne(rs, rt)', uses: ['rs', 'rt'], flow: 'branch', delaySlot: true });
row('blez', 'BLEZ', 'I', OP(6), M_OP | M_RT, 'rs,boff', 'branch', { cond: 'le(rs, 0)', uses: ['rs'], flow: 'branch', delaySlot: true });
row('bgtz', 'BGTZ', 'I', OP(7), M_OP | M_RT, 'rs,boff', 'branch', { cond: 'gt(rs, 0)', uses: ['rs'], flow: 'branch', delaySlot: true });

// ---- immediate arithmetic and logic ----
row('addi', 'ADDI', 'I', OP(8), M_OP, 'rt,rs,simm', 'alui', { value: 'rt = add(rs, simm)', defs: ['rt'], uses: ['rs'], exceptions: ['Ov'] });
row('addiu', 'ADDIU', 'I', OP(9), M_OP, 'rt,rs,simm', 'alui', { value: 'rt = add(rs, simm)', defs: ['rt'], uses: ['rs'] });
row('slti', 'SLTI', 'I', OP(10), M_OP, 'rt,rs,simm', 'alui', { value: 'rt = slt(rs, simm)', defs: ['rt'], uses: ['rs'] });
// sltiu compares unsigned with the sign-extended immediate (Kane & Heinrich 5-50).
row('sltiu', 'SLTIU', 'I', OP(11), M_OP, 'rt,rs,simm', 'alui', { value: 'rt = sltu(rs, simm)', defs: ['rt'], uses: ['rs'] });
row('andi', 'ANDI', 'I', OP(12), M_OP, 'rt,rs,uimm', 'alui', { value: 'rt = and(rs, uimm)', defs: ['rt'], uses: ['rs'] });
row('ori', 'ORI', 'I', OP(13), M_OP, 'rt,rs,uimm', 'alui', { value: 'rt = or(rs, uimm)', defs: ['rt'], uses: ['rs'] });
row('xori', 'XORI', 'I', OP(14), M_OP, 'rt,rs,uimm', 'alui', { value: 'rt = xor(rs, uimm)', defs: ['rt'], uses: ['rs'] });
row('lui', 'LUI', 'I', OP(15), M_OP | M_RS, 'rt,uimm', 'alui', { value: 'rt = const(luimm)', defs: ['rt'] });

// ---- loads and stores ----
const LD: ExcName[] = ['AdEL', 'TLBL'];
const ST: ExcName[] = ['AdES', 'TLBS', 'Mod'];
for (const [n, opc, width, signed, partial] of [
  ['lb', 32, 1, true, undefined], ['lh', 33, 2, true, undefined], ['lwl', 34, 4, false, 'left'], ['lw', 35, 4, false, undefined],
  ['lbu', 36, 1, false, undefined], ['lhu', 37, 2, false, undefined], ['lwr', 38, 4, false, 'right'],
] as const) {
  row(n, n.toUpperCase(), 'I', OP(opc), M_OP, 'rt,mem', 'load', {
    // lwl/lwr merge into rt, so they also read it.
    defs: ['rt'], uses: partial ? ['rs', 'rt'] : ['rs'],
    mem: { kind: 'load', width, signed, ...(partial ? { partial } : {}) },
    // lwl/lwr never take an alignment error, but a user access to kseg0/1/2 is still an AdEL.
    exceptions: LD,
  });
}
for (const [n, opc, width, partial] of [
  ['sb', 40, 1, undefined], ['sh', 41, 2, undefined], ['swl', 42, 4, 'left'], ['sw', 43, 4, undefined], ['swr', 46, 4, 'right'],
] as const) {
  row(n, n.toUpperCase(), 'I', OP(opc), M_OP, 'rt,mem', 'store', {
    uses: ['rs', 'rt'], mem: { kind: 'store', width, signed: false, ...(partial ? { partial } : {}) },
    exceptions: ST,
  });
}
row('lwc1', 'LWC1', 'I', OP(49), M_OP, 'ft,mem', 'load', {
  defs: ['ft'], uses: ['rs'], mem: { kind: 'load', width: 4, signed: false, fpr: true }, cop: 1, exceptions: [...LD, 'CpU'],
});
row('swc1', 'SWC1', 'I', OP(57), M_OP, 'ft,mem', 'store', {
  uses: ['rs', 'ft'], mem: { kind: 'store', width: 4, signed: false, fpr: true }, cop: 1, exceptions: [...ST, 'CpU'],
});

// ---- CP0: system control (Kane & Heinrich chapter 6) ----
const COPRS = (z: number, sub: number): number => OP(16 + z) | RS(sub);
row('mfc0', 'MFC0', 'COP', COPRS(0, 0), M_OP | M_RS | 0x7ff, 'rt,c0rd', 'cp0', { defs: ['rt'], uses: ['cp0'], cop: 0, privileged: true, exceptions: ['CpU'] });
row('mtc0', 'MTC0', 'COP', COPRS(0, 4), M_OP | M_RS | 0x7ff, 'rt,c0rd', 'cp0', { defs: ['cp0'], uses: ['rt'], cop: 0, privileged: true, exceptions: ['CpU'] });
// BC0F/BC0T test the CpCond0 input pin, which no device of this machine drives (always 0).
row('bc0f', 'BC0F', 'COP', COPRS(0, 8) | RT(0), M_OP | M_RS | M_RT, 'boff', 'branch', { cond: 'eq(0, 0)', flow: 'branch', delaySlot: true, cop: 0, privileged: true, exceptions: ['CpU'] });
row('bc0t', 'BC0T', 'COP', COPRS(0, 8) | RT(1), M_OP | M_RS | M_RT, 'boff', 'branch', { cond: 'ne(0, 0)', flow: 'branch', delaySlot: true, cop: 0, privileged: true, exceptions: ['CpU'] });
const CO0 = (fn: number): number => OP(16) | (1 << 25) | fn;
row('tlbr', 'TLBR', 'COP', CO0(1), 0xffffffff, '', 'cp0', { defs: ['tlb'], uses: ['tlb'], cop: 0, privileged: true, exceptions: ['CpU'] });
row('tlbwi', 'TLBWI', 'COP', CO0(2), 0xffffffff, '', 'cp0', { defs: ['tlb'], uses: ['tlb'], cop: 0, privileged: true, exceptions: ['CpU'] });
row('tlbwr', 'TLBWR', 'COP', CO0(6), 0xffffffff, '', 'cp0', { defs: ['tlb'], uses: ['tlb'], cop: 0, privileged: true, exceptions: ['CpU'] });
row('tlbp', 'TLBP', 'COP', CO0(8), 0xffffffff, '', 'cp0', { defs: ['tlb'], uses: ['tlb'], cop: 0, privileged: true, exceptions: ['CpU'] });
row('rfe', 'RFE', 'COP', CO0(16), 0xffffffff, '', 'cp0', { defs: ['status'], uses: ['status'], cop: 0, privileged: true, exceptions: ['CpU'] });
// Other CP0 operations and the CP0 load/store opcodes exist in the MIPS I encoding space but not on
// the R2000: binutils decodes them, the machine takes a Reserved Instruction exception.
const NOTR2000 = { exceptions: ['RI'] as ExcName[], implemented: false };
row('c0', 'COP0', 'COP', OP(16) | (1 << 25), M_OP | (1 << 25), 'cofun', 'reserved', { ...NOTR2000, fallback: true });
row('lwc0', 'LWC0', 'I', OP(48), M_OP, 'c0rt,mem', 'reserved', NOTR2000);
row('swc0', 'SWC0', 'I', OP(56), M_OP, 'c0rt,mem', 'reserved', NOTR2000);
// JALX (opcode 29) is the MIPS16 ASE's mode-switching call; an R2000 has no MIPS16 mode.
row('jalx', 'JALX', 'J', OP(29), M_OP, 'jtgt', 'reserved', NOTR2000);

// ---- CP1: the R2010 FPA (Kane & Heinrich chapter 8) ----
row('mfc1', 'MFC1', 'COP', COPRS(1, 0), M_OP | M_RS | 0x7ff, 'rt,fs', 'fmove', { defs: ['rt'], uses: ['fs'], cop: 1, exceptions: ['CpU'] });
row('cfc1', 'CFC1', 'COP', COPRS(1, 2), M_OP | M_RS | 0x7ff, 'rt,c1fs', 'fmove', { defs: ['rt'], uses: ['fcsr'], cop: 1, exceptions: ['CpU'] });
row('mtc1', 'MTC1', 'COP', COPRS(1, 4), M_OP | M_RS | 0x7ff, 'rt,fs', 'fmove', { defs: ['fs'], uses: ['rt'], cop: 1, exceptions: ['CpU'] });
row('ctc1', 'CTC1', 'COP', COPRS(1, 6), M_OP | M_RS | 0x7ff, 'rt,c1fs', 'fmove', { defs: ['fcsr'], uses: ['rt'], cop: 1, exceptions: ['CpU', 'FPE'] });
row('bc1f', 'BC1F', 'COP', COPRS(1, 8) | RT(0), M_OP | M_RS | M_RT, 'boff', 'branch', { cond: 'eq(fcc, 0)', uses: ['fcc'], flow: 'branch', delaySlot: true, cop: 1, exceptions: ['CpU'] });
row('bc1t', 'BC1T', 'COP', COPRS(1, 8) | RT(1), M_OP | M_RS | M_RT, 'boff', 'branch', { cond: 'ne(fcc, 0)', uses: ['fcc'], flow: 'branch', delaySlot: true, cop: 1, exceptions: ['CpU'] });

const FMT_CODE: Record<FpFmt, number> = { s: 16, d: 17, w: 20 };
const FR = (fmt: FpFmt, fn: number): number => OP(17) | RS(FMT_CODE[fmt]) | fn;
const FP_EXC: ExcName[] = ['CpU', 'FPE'];
for (const fmt of ['s', 'd'] as const) {
  for (const [n, fn] of [['add', 0], ['sub', 1], ['mul', 2], ['div', 3]] as const) {
    row(`${n}.${fmt}`, `${n.toUpperCase()}_${fmt.toUpperCase()}`, 'FR', FR(fmt, fn), M_OP | M_RS | M_FN, 'fd,fs,ft', 'farith', {
      defs: ['fd', 'fcsr'], uses: ['fs', 'ft', 'fcsr'], fmt, dstFmt: fmt, cop: 1, exceptions: FP_EXC,
    });
  }
  for (const [n, fn] of [['abs', 5], ['mov', 6], ['neg', 7]] as const) {
    row(`${n}.${fmt}`, `${n.toUpperCase()}_${fmt.toUpperCase()}`, 'FR', FR(fmt, fn), M_OP | M_RS | M_RT | M_FN, 'fd,fs', 'farith', {
      // mov never signals; abs and neg signal Invalid on a signaling NaN (R2010).
      defs: n === 'mov' ? ['fd'] : ['fd', 'fcsr'], uses: n === 'mov' ? ['fs'] : ['fs', 'fcsr'], fmt, dstFmt: fmt, cop: 1,
      exceptions: n === 'mov' ? ['CpU'] : FP_EXC,
    });
  }
}
for (const [dst, fn, srcs] of [['s', 32, ['d', 'w']], ['d', 33, ['s', 'w']], ['w', 36, ['s', 'd']]] as const) {
  for (const src of srcs) {
    row(`cvt.${dst}.${src}`, `CVT_${dst.toUpperCase()}_${src.toUpperCase()}`, 'FR', FR(src, fn), M_OP | M_RS | M_RT | M_FN, 'fd,fs', 'fcvt', {
      defs: ['fd', 'fcsr'], uses: ['fs', 'fcsr'], fmt: src, dstFmt: dst, cop: 1, exceptions: FP_EXC,
    });
  }
}
/** The 16 compare conditions, in cond-field order (Kane & Heinrich Table 8-9). */
export const FP_CONDS = ['f', 'un', 'eq', 'ueq', 'olt', 'ult', 'ole', 'ule', 'sf', 'ngle', 'seq', 'ngl', 'lt', 'nge', 'le', 'ngt'] as const;
for (const fmt of ['s', 'd'] as const) {
  FP_CONDS.forEach((c, i) => {
    row(`c.${c}.${fmt}`, `C_${c.toUpperCase()}_${fmt.toUpperCase()}`, 'FR', FR(fmt, 48 + i), M_OP | M_RS | M_SA | M_FN, 'fs,ft', 'fcmp', {
      defs: ['fcc', 'fcsr'], uses: ['fs', 'ft', 'fcsr'], fmt, cop: 1, exceptions: FP_EXC,
    });
  });
}
// Any other COP1 operation (a reserved fmt or function): the R2010 signals Unimplemented Operation
// (FCSR cause bit E), which the kernel emulates or turns into SIGFPE (Kane & Heinrich 8-3).
row('c1', 'COP1', 'COP', OP(17) | (1 << 25), M_OP | (1 << 25), 'cofun', 'funimp', { cop: 1, exceptions: ['CpU', 'FPE'], fallback: true });

// ---- coprocessors 2 and 3: architecturally defined in MIPS I, absent on this machine ----
for (const z of [2, 3] as const) {
  const cu = { cop: z, exceptions: ['CpU'] as ExcName[], implemented: false };
  row(`lwc${z}`, `LWC${z}`, 'I', OP(48 + z), M_OP, 'czrt,mem', 'cpz', { ...cu, uses: ['rs'] });
  row(`swc${z}`, `SWC${z}`, 'I', OP(56 + z), M_OP, 'czrt,mem', 'cpz', { ...cu, uses: ['rs'] });
  row(`mfc${z}`, `MFC${z}`, 'COP', COPRS(z, 0), M_OP | M_RS | 0x7ff, 'rt,czrd', 'cpz', { ...cu, defs: ['rt'] });
  row(`cfc${z}`, `CFC${z}`, 'COP', COPRS(z, 2), M_OP | M_RS | 0x7ff, 'rt,czrd', 'cpz', { ...cu, defs: ['rt'] });
  row(`mtc${z}`, `MTC${z}`, 'COP', COPRS(z, 4), M_OP | M_RS | 0x7ff, 'rt,czrd', 'cpz', { ...cu, uses: ['rt'] });
  row(`ctc${z}`, `CTC${z}`, 'COP', COPRS(z, 6), M_OP | M_RS | 0x7ff, 'rt,czrd', 'cpz', { ...cu, uses: ['rt'] });
  row(`bc${z}f`, `BC${z}F`, 'COP', COPRS(z, 8) | RT(0), M_OP | M_RS | M_RT, 'boff', 'cpz', { ...cu });
  row(`bc${z}t`, `BC${z}T`, 'COP', COPRS(z, 8) | RT(1), M_OP | M_RS | M_RT, 'boff', 'cpz', { ...cu });
  row(`c${z}`, `COP${z}`, 'COP', OP(16 + z) | (1 << 25), M_OP | (1 << 25), 'cofun', 'cpz', { ...cu, fallback: true });
}

/** Every row of the table, in a stable order. */
export const OPCODES: readonly OpSpec[] = rows;

/** Row by its semantic op id. */
export const OP_BY_ID: ReadonlyMap<string, OpSpec> = new Map(rows.map((r) => [r.op, r]));

for (const r of rows) {
  if ((r.match & ~r.mask) !== 0) throw new Error(`opcode table: ${r.name} match has bits outside its mask`);
}
if (OP_BY_ID.size !== rows.length) throw new Error('opcode table: duplicate op ids');
