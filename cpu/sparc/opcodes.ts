/**
 * The SPARC v8 opcode table: one declarative description of every instruction of the integer
 * unit, the FPU and the (absent) coprocessor interface, after The SPARC Architecture Manual,
 * Version 8, Appendix B and Appendix F (opcode maps).
 *
 * Every consumer reads this table and nothing else about encodings: the decoder (decode.ts), the
 * disassembler (disasm.ts), the instrumenter's queries and the ISA-purity scan (query.ts), both
 * execution engines (they dispatch on `sem`) and the instruction-test generator.
 *
 * An entry fixes the opcode bits of one mnemonic (`match` under `mask`) and says:
 *   - `fmt`    which fields the word carries (call, sethi, branch, format-3 arithmetic, memory,
 *              FPop) and thus how decode extracts them;
 *   - `args`   the operand syntax (tokens below), in the manual's assembly order;
 *   - `sem`    the semantics class the engines implement (several mnemonics may share one);
 *   - `value`  what the instruction computes, once: a cpu/semantics.ts operation bound to the
 *              row's operands (add is `rd = add(rs1, ri)`), which both engines, the
 *              instrumenter and regeneration read (values.ts makes the engines' JavaScript);
 *   - `defs`/`uses`  registers and state written and read (roles below), so the instrumenter's
 *              slices and liveness need no knowledge of individual instructions;
 *   - `cti`    the control-transfer kind, `mem` the memory access, `priv`/`fpu`/`cp` the
 *              privilege and unit requirements, `zero` the fields the manual leaves unused
 *              ("should be zero"): hardware ignores them, the purity scan requires them clear
 *              (V9 reuses several of them, e.g. sllx is sll with bit 12 set).
 *
 * Operand tokens (`args`):
 *   rs1 rs2 rd       integer registers;   ri   rs2 or simm13 (by the i bit)
 *   [a]              effective address rs1 + (rs2 | simm13);   asi  the alternate space (i = 0)
 *   fs1 fs2 fd       FP registers, `:s` `:d` `:q` suffix giving the operand precision
 *   hi22             sethi constant;   disp22 / disp30  PC-relative targets;   c22 unimp constant
 *   ti               trap number rs1 + (rs2 | imm7);   %y %psr %wim %tbr %fsr %fq %asr  state
 *   cd c1 c2         coprocessor registers;  %csr %cq coprocessor state
 *
 * Register roles (`defs`, `uses`):
 *   'rd' 'rd2' (rd | 1, the odd half of a doubleword), 'rs1', 'rs2' (only when i = 0), 'o7'
 *   (call's link register %o7 = r15), 'fd' 'fs1' 'fs2' (FP, widened by the precision), 'icc',
 *   'y', 'psr', 'wim', 'tbr', 'fcc', 'fsr', 'cwp' (save/restore/rett change the window).
 */
import { parseBinding, type Binding, type ValueOpName } from '../semantics.js';

export type Fmt =
  | 'call' // op=1: disp30
  | 'sethi' // op=0 op2=4: rd, imm22
  | 'bicc' | 'fbfcc' | 'cbccc' // op=0 op2=2/6/7: a, cond, disp22
  | 'unimp' // op=0 op2=0: const22
  | 'arith' // op=2: rd, rs1, i, rs2 | simm13
  | 'mem' // op=3: rd, rs1, i, asi, rs2 | simm13
  | 'fpop' // op=2 op3=0x34/0x35: rd, rs1, opf, rs2
  | 'cpop'; // op=2 op3=0x36/0x37: rd, rs1, opc, rs2

export type CtiKind = 'bicc' | 'fbfcc' | 'cbccc' | 'call' | 'jmpl' | 'rett' | 'ticc';

export type MemKind = 'load' | 'store' | 'ldstub' | 'swap';

/** Which register file a memory instruction moves data to or from. */
export type MemUnit = 'r' | 'f' | 'fsr' | 'fq' | 'c' | 'csr' | 'cq';

export interface MemSpec {
  kind: MemKind;
  /** Access width in bytes. */
  width: 1 | 2 | 4 | 8;
  signed: boolean;
  /** Alternate-space form (lda, sta ...): privileged, asi field, i must be 0. */
  alt: boolean;
  unit: MemUnit;
}

export type Role =
  | 'rd' | 'rd2' | 'rs1' | 'rs2' | 'o7'
  | 'fd' | 'fs1' | 'fs2'
  | 'icc' | 'y' | 'psr' | 'wim' | 'tbr' | 'fcc' | 'fsr' | 'cwp' | 'asr';

export type Prec = 's' | 'd' | 'q';

/**
 * Operand names of the semantics bindings (values.ts): rs1; ri, the second operand (rs2, or
 * simm13 when i = 1); rd; the Y register; hi22, sethi's constant. Integer literals are constants.
 */
export const SPARC_OPERANDS: ReadonlySet<string> = new Set(['rd', 'rs1', 'ri', 'y', 'hi22']);

export interface OpSpec {
  /** Assembly mnemonic as the manual spells it in Appendix B (e.g. 'ldsb', 'bne', 'fitod'). */
  name: string;
  fmt: Fmt;
  /** Fixed opcode bits, and the mask they occupy. */
  match: number;
  mask: number;
  /** Fields the manual marks unused; a strict v8 word has them clear. */
  zero: number;
  args: string;
  sem: string;
  defs: readonly Role[];
  uses: readonly Role[];
  cti?: CtiKind;
  mem?: MemSpec;
  /** Bicc/FBfcc/CBccc/Ticc condition field value. */
  cond?: number;
  /** FPop: precision of the destination and of the sources. */
  precD?: Prec;
  precS?: Prec;
  /** Privileged: privileged_instruction when PSR.S = 0. */
  priv?: boolean;
  /** Uses the FPU: fp_disabled when PSR.EF = 0. */
  fpu?: boolean;
  /** Uses the coprocessor: cp_disabled when PSR.EC = 0 (always: this machine has none). */
  cp?: boolean;
  /** FPop that v8 chips leave to software (quad precision): unimplemented_FPop. */
  unimpl?: boolean;
  /** Arithmetic that sets the integer condition codes. */
  setsIcc?: boolean;
  /** What the instruction computes: a cpu/semantics.ts operation over the row's operands. */
  value?: Binding<ValueOpName>;
}

// ---- field positions (manual Figure 5-3 and Appendix F) ----
export const OP = (v: number): number => (v & 3) << 30;
export const OP2 = (v: number): number => (v & 7) << 22;
export const OP3 = (v: number): number => (v & 0x3f) << 19;
export const OPF = (v: number): number => (v & 0x1ff) << 5;
export const COND = (v: number): number => (v & 0xf) << 25;
export const RD = (v: number): number => (v & 31) << 25;
export const RS1 = (v: number): number => (v & 31) << 14;
export const I_BIT = 1 << 13;
export const A_BIT = 1 << 29;

const M_OP = OP(3);
const M_OP2 = OP2(7);
const M_OP3 = OP3(0x3f);
const M_OPF = OPF(0x1ff);
const M_COND = COND(0xf);
/** Bits 12:5: the asi field of memory instructions, unused in register-form arithmetic. */
export const F_ASI = 0xff << 5;
const F_RD = RD(31);
const F_RS1 = RS1(31);
const F_RS2 = 31;
/** Bits 12:7, unused in Ticc's immediate form (imm7 is bits 6:0). */
const F_TI_HI = 0x3f << 7;

/**
 * The register-or-immediate second operand of format 3 leaves bits 12:5 unused when i = 0, and a
 * shift count uses only bits 4:0 of simm13. `zero` is a function of i for these.
 */
export type ZeroRule = 'ri' | 'shift' | 'ticc' | 'none';

export interface OpSpecFull extends OpSpec {
  zeroRule: ZeroRule;
}

const table: OpSpecFull[] = [];

interface Extra {
  /** `value` binding, e.g. 'rd = add(rs1, ri)'. */
  value?: string;
  cti?: CtiKind;
  mem?: MemSpec;
  cond?: number;
  precD?: Prec;
  precS?: Prec;
  priv?: boolean;
  fpu?: boolean;
  cp?: boolean;
  unimpl?: boolean;
  setsIcc?: boolean;
  /** Fixed field values beyond the opcode (e.g. rd = 0 of wry, rs1 = 15 of stbar). */
  fixMatch?: number;
  fixMask?: number;
  zero?: number;
  zeroRule?: ZeroRule;
}

function add(
  name: string, fmt: Fmt, match: number, mask: number, args: string, sem: string,
  defs: readonly Role[], uses: readonly Role[], x: Extra = {},
): void {
  const { fixMatch = 0, fixMask = 0, zero = 0, zeroRule = 'none', value, ...rest } = x;
  table.push({
    name, fmt, match: (match | fixMatch) >>> 0, mask: (mask | fixMask) >>> 0, zero: zero >>> 0,
    zeroRule, args, sem, defs, uses, ...rest,
    ...(value ? { value: parseBinding(value, SPARC_OPERANDS, 'value') as Binding<ValueOpName> } : {}),
  });
}

// ---- format 1 and 2 ----
add('call', 'call', OP(1), M_OP, 'disp30', 'call', ['o7'], [], { cti: 'call' });
add('sethi', 'sethi', OP(0) | OP2(4), M_OP | M_OP2, 'hi22, rd', 'sethi', ['rd'], [], { value: 'rd = const(hi22)' });
add('unimp', 'unimp', OP(0) | OP2(0), M_OP | M_OP2, 'c22', 'unimp', [], [], { zero: F_RD });

/** Condition names of Bicc and Ticc (cond field 0..15), manual Table F-7. */
export const ICOND_NAMES = ['n', 'e', 'le', 'l', 'leu', 'cs', 'neg', 'vs', 'a', 'ne', 'g', 'ge', 'gu', 'cc', 'pos', 'vc'] as const;
/** Condition names of FBfcc (cond field 0..15), manual Table F-7. */
export const FCOND_NAMES = ['n', 'ne', 'lg', 'ul', 'l', 'ug', 'g', 'u', 'a', 'e', 'ue', 'ge', 'uge', 'le', 'ule', 'o'] as const;
/** Condition names of CBccc. */
export const CCOND_NAMES = ['n', '123', '12', '13', '1', '23', '2', '3', 'a', '0', '03', '02', '023', '01', '013', '012'] as const;

for (let c = 0; c < 16; c++) {
  // ba and bn do not read the condition codes.
  const iuse: Role[] = c === 0 || c === 8 ? [] : ['icc'];
  const fuse: Role[] = c === 0 || c === 8 ? [] : ['fcc'];
  add(`b${ICOND_NAMES[c]}`, 'bicc', OP(0) | OP2(2) | COND(c), M_OP | M_OP2 | M_COND, 'disp22', 'bicc', [], iuse, { cti: 'bicc', cond: c });
  add(`fb${FCOND_NAMES[c]}`, 'fbfcc', OP(0) | OP2(6) | COND(c), M_OP | M_OP2 | M_COND, 'disp22', 'fbfcc', [], fuse, { cti: 'fbfcc', cond: c, fpu: true });
  add(`cb${CCOND_NAMES[c]}`, 'cbccc', OP(0) | OP2(7) | COND(c), M_OP | M_OP2 | M_COND, 'disp22', 'cbccc', [], [], { cti: 'cbccc', cond: c, cp: true });
  // Ticc: bit 29 is reserved (V9's cc field lives in bits 12:11 of the same words).
  add(`t${ICOND_NAMES[c]}`, 'arith', OP(2) | OP3(0x3a) | COND(c), M_OP | M_OP3 | M_COND, 'ti', 'ticc', [], ['rs1', 'rs2', ...iuse], {
    cti: 'ticc', cond: c, zero: A_BIT, zeroRule: 'ticc',
  });
}

// ---- format 3, op = 2: arithmetic, logical, shift, control ----
const A3 = (op3: number): number => OP(2) | OP3(op3);
const M3 = M_OP | M_OP3;

// `value`: the computation of the rows whose result depends on their operands alone (and Y);
// addx/subx (the carry), mulscc and the tagged forms compute in ops.ts, their condition codes with
// them. The cc forms set icc from the value as values.ts's iccOf says.
interface AluRow { name: string; op3: number; sem?: string; value?: string; defs?: Role[]; uses?: Role[]; x?: Extra }
const V = (op: string): string => `rd = ${op}(rs1, ri)`;
const alu: AluRow[] = [
  { name: 'add', op3: 0x00, value: V('add') }, { name: 'and', op3: 0x01, value: V('and') },
  { name: 'or', op3: 0x02, value: V('or') }, { name: 'xor', op3: 0x03, value: V('xor') },
  { name: 'sub', op3: 0x04, value: V('sub') }, { name: 'andn', op3: 0x05, value: V('andn') },
  { name: 'orn', op3: 0x06, value: V('orn') }, { name: 'xnor', op3: 0x07, value: V('xnor') },
  { name: 'addx', op3: 0x08, uses: ['icc'] },
  { name: 'umul', op3: 0x0a, value: 'rd, y = umul(rs1, ri)', defs: ['y'] }, { name: 'smul', op3: 0x0b, value: 'rd, y = smul(rs1, ri)', defs: ['y'] },
  { name: 'subx', op3: 0x0c, uses: ['icc'] },
  { name: 'udiv', op3: 0x0e, value: V('udiv'), uses: ['y'] }, { name: 'sdiv', op3: 0x0f, value: V('sdiv'), uses: ['y'] },
  { name: 'addcc', op3: 0x10, value: V('add') }, { name: 'andcc', op3: 0x11, value: V('and') },
  { name: 'orcc', op3: 0x12, value: V('or') }, { name: 'xorcc', op3: 0x13, value: V('xor') },
  { name: 'subcc', op3: 0x14, value: V('sub') }, { name: 'andncc', op3: 0x15, value: V('andn') },
  { name: 'orncc', op3: 0x16, value: V('orn') }, { name: 'xnorcc', op3: 0x17, value: V('xnor') },
  { name: 'addxcc', op3: 0x18, uses: ['icc'] },
  { name: 'umulcc', op3: 0x1a, value: 'rd, y = umul(rs1, ri)', defs: ['y'] }, { name: 'smulcc', op3: 0x1b, value: 'rd, y = smul(rs1, ri)', defs: ['y'] },
  { name: 'subxcc', op3: 0x1c, uses: ['icc'] },
  { name: 'udivcc', op3: 0x1e, value: V('udiv'), uses: ['y'] }, { name: 'sdivcc', op3: 0x1f, value: V('sdiv'), uses: ['y'] },
  { name: 'taddcc', op3: 0x20 }, { name: 'tsubcc', op3: 0x21 },
  { name: 'taddcctv', op3: 0x22 }, { name: 'tsubcctv', op3: 0x23 },
  // mulscc reads Y and icc (N xor V) and writes both.
  { name: 'mulscc', op3: 0x24, defs: ['y'], uses: ['y', 'icc'] },
];
for (const r of alu) {
  const cc = (r.op3 & 0x10) !== 0 || r.op3 >= 0x20;
  add(r.name, 'arith', A3(r.op3), M3, 'rs1, ri, rd', r.sem ?? r.name,
    ['rd', ...(cc ? ['icc' as Role] : []), ...(r.defs ?? [])],
    ['rs1', 'rs2', ...(r.uses ?? [])],
    { zeroRule: 'ri', setsIcc: cc, ...(r.value ? { value: r.value } : {}), ...r.x });
}
for (const [name, op3] of [['sll', 0x25], ['srl', 0x26], ['sra', 0x27]] as const) {
  add(name, 'arith', A3(op3), M3, 'rs1, ri, rd', name, ['rd'], ['rs1', 'rs2'], { value: V(name), zeroRule: 'shift' });
}

// Read/write state registers. rd %y is op3 0x28 with rs1 = 0; rs1 = 15, rd = 0 is stbar; any
// other rs1 reads an ancillary state register (implementation-dependent; none exist here).
add('rdy', 'arith', A3(0x28), M3, '%y, rd', 'rdy', ['rd'], ['y'], { value: 'rd = or(y, 0)', fixMask: F_RS1, zero: I_BIT | 0x1fff });
add('stbar', 'arith', A3(0x28) | RS1(15), M3 | F_RS1 | F_RD, '', 'stbar', [], [], { zero: I_BIT | 0x1fff });
add('rdasr', 'arith', A3(0x28), M3, '%asr, rd', 'rdasr', ['rd'], ['asr'], { zero: I_BIT | 0x1fff });
add('rdpsr', 'arith', A3(0x29), M3, '%psr, rd', 'rdpsr', ['rd'], ['psr'], { priv: true, zero: F_RS1 | I_BIT | 0x1fff });
add('rdwim', 'arith', A3(0x2a), M3, '%wim, rd', 'rdwim', ['rd'], ['wim'], { priv: true, zero: F_RS1 | I_BIT | 0x1fff });
add('rdtbr', 'arith', A3(0x2b), M3, '%tbr, rd', 'rdtbr', ['rd'], ['tbr'], { priv: true, zero: F_RS1 | I_BIT | 0x1fff });
add('wry', 'arith', A3(0x30), M3 | F_RD, 'rs1, ri, %y', 'wry', ['y'], ['rs1', 'rs2'], { value: 'y = wry(rs1, ri)', zeroRule: 'ri' });
add('wrasr', 'arith', A3(0x30), M3, 'rs1, ri, %asr', 'wrasr', ['asr'], ['rs1', 'rs2'], { zeroRule: 'ri' });
add('wrpsr', 'arith', A3(0x31), M3, 'rs1, ri, %psr', 'wrpsr', ['psr', 'icc', 'cwp'], ['rs1', 'rs2'], { priv: true, zero: F_RD, zeroRule: 'ri' });
add('wrwim', 'arith', A3(0x32), M3, 'rs1, ri, %wim', 'wrwim', ['wim'], ['rs1', 'rs2'], { priv: true, zero: F_RD, zeroRule: 'ri' });
add('wrtbr', 'arith', A3(0x33), M3, 'rs1, ri, %tbr', 'wrtbr', ['tbr'], ['rs1', 'rs2'], { priv: true, zero: F_RD, zeroRule: 'ri' });

add('jmpl', 'arith', A3(0x38), M3, '[a], rd', 'jmpl', ['rd'], ['rs1', 'rs2'], { cti: 'jmpl', zeroRule: 'ri' });
add('rett', 'arith', A3(0x39), M3, '[a]', 'rett', ['psr', 'cwp'], ['rs1', 'rs2', 'psr', 'wim'], { cti: 'rett', priv: true, zero: F_RD, zeroRule: 'ri' });
add('flush', 'arith', A3(0x3b), M3, '[a]', 'flush', [], ['rs1', 'rs2'], { zero: F_RD, zeroRule: 'ri' });
// save/restore: the sum of the old window's operands goes to rd of the new window (ops.ts).
add('save', 'arith', A3(0x3c), M3, 'rs1, ri, rd', 'save', ['rd', 'cwp'], ['rs1', 'rs2', 'wim'], { value: 'rd = save(rs1, ri)', zeroRule: 'ri' });
add('restore', 'arith', A3(0x3d), M3, 'rs1, ri, rd', 'restore', ['rd', 'cwp'], ['rs1', 'rs2', 'wim'], { value: 'rd = restore(rs1, ri)', zeroRule: 'ri' });

// ---- format 3, op = 3: loads and stores ----
const L3 = (op3: number): number => OP(3) | OP3(op3);
interface MemRow { name: string; op3: number; kind: MemKind; width: 1 | 2 | 4 | 8; signed?: boolean; unit?: MemUnit }
const mems: MemRow[] = [
  { name: 'ld', op3: 0x00, kind: 'load', width: 4 },
  { name: 'ldub', op3: 0x01, kind: 'load', width: 1 },
  { name: 'lduh', op3: 0x02, kind: 'load', width: 2 },
  { name: 'ldd', op3: 0x03, kind: 'load', width: 8 },
  { name: 'st', op3: 0x04, kind: 'store', width: 4 },
  { name: 'stb', op3: 0x05, kind: 'store', width: 1 },
  { name: 'sth', op3: 0x06, kind: 'store', width: 2 },
  { name: 'std', op3: 0x07, kind: 'store', width: 8 },
  { name: 'ldsb', op3: 0x09, kind: 'load', width: 1, signed: true },
  { name: 'ldsh', op3: 0x0a, kind: 'load', width: 2, signed: true },
  { name: 'ldstub', op3: 0x0d, kind: 'ldstub', width: 1 },
  { name: 'swap', op3: 0x0f, kind: 'swap', width: 4 },
];
for (const m of mems) {
  for (const alt of [false, true]) {
    const name = alt ? `${m.name}a` : m.name;
    const op3 = m.op3 | (alt ? 0x10 : 0);
    const load = m.kind !== 'store';
    const store = m.kind !== 'load';
    const defs: Role[] = load ? (m.width === 8 ? ['rd', 'rd2'] : ['rd']) : [];
    const uses: Role[] = ['rs1', 'rs2', ...(store ? (m.width === 8 ? ['rd', 'rd2'] as Role[] : ['rd'] as Role[]) : [])];
    const args = m.kind === 'store' ? (alt ? 'rd, [a]asi' : 'rd, [a]') : (alt ? '[a]asi, rd' : '[a], rd');
    // Alternate forms carry the asi in bits 12:5 and require i = 0: with i = 1 they decode but
    // raise illegal_instruction (after the privilege check, which has higher priority).
    add(name, 'mem', L3(op3), M_OP | M_OP3, args, m.kind, defs, uses, {
      mem: { kind: m.kind, width: m.width, signed: m.signed ?? false, alt, unit: 'r' },
      priv: alt, zeroRule: alt ? 'none' : 'ri', ...(alt ? { zero: I_BIT } : {}),
    });
  }
}
// Floating-point and coprocessor loads and stores (no alternate forms in v8).
interface UnitMemRow { name: string; op3: number; kind: MemKind; width: 4 | 8; unit: MemUnit; args: string; defs: Role[]; uses: Role[]; priv?: boolean }
const fmems: UnitMemRow[] = [
  { name: 'ldf', op3: 0x20, kind: 'load', width: 4, unit: 'f', args: '[a], fd:s', defs: ['fd'], uses: ['rs1', 'rs2'] },
  { name: 'ldfsr', op3: 0x21, kind: 'load', width: 4, unit: 'fsr', args: '[a], %fsr', defs: ['fsr', 'fcc'], uses: ['rs1', 'rs2'] },
  { name: 'lddf', op3: 0x23, kind: 'load', width: 8, unit: 'f', args: '[a], fd:d', defs: ['fd'], uses: ['rs1', 'rs2'] },
  { name: 'stf', op3: 0x24, kind: 'store', width: 4, unit: 'f', args: 'fd:s, [a]', defs: [], uses: ['rs1', 'rs2', 'fd'] },
  { name: 'stfsr', op3: 0x25, kind: 'store', width: 4, unit: 'fsr', args: '%fsr, [a]', defs: [], uses: ['rs1', 'rs2', 'fsr', 'fcc'] },
  { name: 'stdfq', op3: 0x26, kind: 'store', width: 8, unit: 'fq', args: '%fq, [a]', defs: ['fsr'], uses: ['rs1', 'rs2', 'fsr'], priv: true },
  { name: 'stdf', op3: 0x27, kind: 'store', width: 8, unit: 'f', args: 'fd:d, [a]', defs: [], uses: ['rs1', 'rs2', 'fd'] },
];
for (const m of fmems) {
  add(m.name, 'mem', L3(m.op3), M_OP | M_OP3, m.args, m.kind === 'load' ? 'fload' : 'fstore', m.defs, m.uses, {
    mem: { kind: m.kind, width: m.width, signed: false, alt: false, unit: m.unit },
    fpu: true, zeroRule: 'ri', ...(m.priv ? { priv: true } : {}),
    // ldfsr/stfsr/stdfq carry no register number in rd.
    ...(m.unit === 'f' ? {} : { zero: F_RD }),
  });
}
const cmems: UnitMemRow[] = [
  { name: 'ldc', op3: 0x30, kind: 'load', width: 4, unit: 'c', args: '[a], cd', defs: [], uses: ['rs1', 'rs2'] },
  { name: 'ldcsr', op3: 0x31, kind: 'load', width: 4, unit: 'csr', args: '[a], %csr', defs: [], uses: ['rs1', 'rs2'] },
  { name: 'lddc', op3: 0x33, kind: 'load', width: 8, unit: 'c', args: '[a], cd', defs: [], uses: ['rs1', 'rs2'] },
  { name: 'stc', op3: 0x34, kind: 'store', width: 4, unit: 'c', args: 'cd, [a]', defs: [], uses: ['rs1', 'rs2'] },
  { name: 'stcsr', op3: 0x35, kind: 'store', width: 4, unit: 'csr', args: '%csr, [a]', defs: [], uses: ['rs1', 'rs2'] },
  { name: 'stdcq', op3: 0x36, kind: 'store', width: 8, unit: 'cq', args: '%cq, [a]', defs: [], uses: ['rs1', 'rs2'], priv: true },
  { name: 'stdc', op3: 0x37, kind: 'store', width: 8, unit: 'c', args: 'cd, [a]', defs: [], uses: ['rs1', 'rs2'] },
];
for (const m of cmems) {
  add(m.name, 'mem', L3(m.op3), M_OP | M_OP3, m.args, 'cpmem', m.defs, m.uses, {
    mem: { kind: m.kind, width: m.width, signed: false, alt: false, unit: m.unit },
    cp: true, zeroRule: 'ri', ...(m.priv ? { priv: true } : {}),
    ...(m.unit === 'c' ? {} : { zero: F_RD }),
  });
}

// ---- FPop1 (op3 = 0x34) and FPop2 (op3 = 0x35), manual Table F-5 ----
interface FpRow { name: string; opf: number; sem: string; d: Prec; s: Prec; shape: 'one' | 'two' | 'cmp' }
const fpops: FpRow[] = [
  { name: 'fitos', opf: 0x0c4, sem: 'fito', d: 's', s: 's', shape: 'one' },
  { name: 'fitod', opf: 0x0c8, sem: 'fito', d: 'd', s: 's', shape: 'one' },
  { name: 'fitoq', opf: 0x0cc, sem: 'fito', d: 'q', s: 's', shape: 'one' },
  { name: 'fstoi', opf: 0x0d1, sem: 'ftoi', d: 's', s: 's', shape: 'one' },
  { name: 'fdtoi', opf: 0x0d2, sem: 'ftoi', d: 's', s: 'd', shape: 'one' },
  { name: 'fqtoi', opf: 0x0d3, sem: 'ftoi', d: 's', s: 'q', shape: 'one' },
  { name: 'fstod', opf: 0x0c9, sem: 'fcvt', d: 'd', s: 's', shape: 'one' },
  { name: 'fstoq', opf: 0x0cd, sem: 'fcvt', d: 'q', s: 's', shape: 'one' },
  { name: 'fdtos', opf: 0x0c6, sem: 'fcvt', d: 's', s: 'd', shape: 'one' },
  { name: 'fdtoq', opf: 0x0ce, sem: 'fcvt', d: 'q', s: 'd', shape: 'one' },
  { name: 'fqtos', opf: 0x0c7, sem: 'fcvt', d: 's', s: 'q', shape: 'one' },
  { name: 'fqtod', opf: 0x0cb, sem: 'fcvt', d: 'd', s: 'q', shape: 'one' },
  { name: 'fmovs', opf: 0x001, sem: 'fmovs', d: 's', s: 's', shape: 'one' },
  { name: 'fnegs', opf: 0x005, sem: 'fnegs', d: 's', s: 's', shape: 'one' },
  { name: 'fabss', opf: 0x009, sem: 'fabss', d: 's', s: 's', shape: 'one' },
  { name: 'fsqrts', opf: 0x029, sem: 'fsqrt', d: 's', s: 's', shape: 'one' },
  { name: 'fsqrtd', opf: 0x02a, sem: 'fsqrt', d: 'd', s: 'd', shape: 'one' },
  { name: 'fsqrtq', opf: 0x02b, sem: 'fsqrt', d: 'q', s: 'q', shape: 'one' },
  { name: 'fadds', opf: 0x041, sem: 'fadd', d: 's', s: 's', shape: 'two' },
  { name: 'faddd', opf: 0x042, sem: 'fadd', d: 'd', s: 'd', shape: 'two' },
  { name: 'faddq', opf: 0x043, sem: 'fadd', d: 'q', s: 'q', shape: 'two' },
  { name: 'fsubs', opf: 0x045, sem: 'fsub', d: 's', s: 's', shape: 'two' },
  { name: 'fsubd', opf: 0x046, sem: 'fsub', d: 'd', s: 'd', shape: 'two' },
  { name: 'fsubq', opf: 0x047, sem: 'fsub', d: 'q', s: 'q', shape: 'two' },
  { name: 'fmuls', opf: 0x049, sem: 'fmul', d: 's', s: 's', shape: 'two' },
  { name: 'fmuld', opf: 0x04a, sem: 'fmul', d: 'd', s: 'd', shape: 'two' },
  { name: 'fmulq', opf: 0x04b, sem: 'fmul', d: 'q', s: 'q', shape: 'two' },
  { name: 'fsmuld', opf: 0x069, sem: 'fmul', d: 'd', s: 's', shape: 'two' },
  { name: 'fdmulq', opf: 0x06e, sem: 'fmul', d: 'q', s: 'd', shape: 'two' },
  { name: 'fdivs', opf: 0x04d, sem: 'fdiv', d: 's', s: 's', shape: 'two' },
  { name: 'fdivd', opf: 0x04e, sem: 'fdiv', d: 'd', s: 'd', shape: 'two' },
  { name: 'fdivq', opf: 0x04f, sem: 'fdiv', d: 'q', s: 'q', shape: 'two' },
  { name: 'fcmps', opf: 0x051, sem: 'fcmp', d: 's', s: 's', shape: 'cmp' },
  { name: 'fcmpd', opf: 0x052, sem: 'fcmp', d: 'd', s: 'd', shape: 'cmp' },
  { name: 'fcmpq', opf: 0x053, sem: 'fcmp', d: 'q', s: 'q', shape: 'cmp' },
  { name: 'fcmpes', opf: 0x055, sem: 'fcmpe', d: 's', s: 's', shape: 'cmp' },
  { name: 'fcmped', opf: 0x056, sem: 'fcmpe', d: 'd', s: 'd', shape: 'cmp' },
  { name: 'fcmpeq', opf: 0x057, sem: 'fcmpe', d: 'q', s: 'q', shape: 'cmp' },
];
for (const f of fpops) {
  const op3 = f.shape === 'cmp' ? 0x35 : 0x34;
  const quad = f.d === 'q' || f.s === 'q';
  const args = f.shape === 'one' ? `fs2:${f.s}, fd:${f.d}` : f.shape === 'two' ? `fs1:${f.s}, fs2:${f.s}, fd:${f.d}` : `fs1:${f.s}, fs2:${f.s}`;
  const defs: Role[] = f.shape === 'cmp' ? ['fcc', 'fsr'] : ['fd', 'fsr'];
  const uses: Role[] = f.shape === 'one' ? ['fs2', 'fsr'] : ['fs1', 'fs2', 'fsr'];
  add(f.name, 'fpop', A3(op3) | OPF(f.opf), M3 | M_OPF, args, f.sem, defs, uses, {
    fpu: true, precD: f.d, precS: f.s, ...(quad ? { unimpl: true } : {}),
    zero: f.shape === 'one' ? F_RS1 : f.shape === 'cmp' ? F_RD : 0,
  });
}
// Coprocessor operate instructions: the machine has no coprocessor (cp_disabled).
add('cpop1', 'cpop', A3(0x36), M3, 'opc, c1, c2, cd', 'cpop', [], [], { cp: true });
add('cpop2', 'cpop', A3(0x37), M3, 'opc, c1, c2, cd', 'cpop', [], [], { cp: true });

/** The table, in declaration order. */
export const OPCODES: readonly OpSpecFull[] = table;

/** Looks an entry up by mnemonic (each mnemonic appears once). */
export function opcodeByName(name: string): OpSpecFull {
  const s = table.find((e) => e.name === name);
  if (!s) throw new Error(`no SPARC opcode named ${name}`);
  return s;
}

/** Unused bits of a concrete word given its entry (depends on the i bit for format 3). */
export function zeroBits(spec: OpSpecFull, word: number): number {
  const i = (word & I_BIT) !== 0;
  let z = spec.zero;
  switch (spec.zeroRule) {
    case 'ri': if (!i) z |= F_ASI; break;
    case 'shift': z |= F_ASI; break; // shcnt is bits 4:0 of simm13 when i = 1
    case 'ticc': z |= i ? F_TI_HI : F_ASI; break;
    case 'none': break;
  }
  return z >>> 0;
}

/** Field masks exported for the generator and the decoder. */
export const FIELDS = { F_RD, F_RS1, F_RS2, F_ASI, I_BIT, A_BIT, M_COND } as const;
