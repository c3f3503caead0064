/**
 * The operands of the MIPS opcode table's semantics bindings (opcodes.ts `value`, `cond`, named
 * in opcodes.ts MIPS_OPERANDS; the operations are cpu/semantics.ts's) and the JavaScript both
 * engines make of a row's binding:
 * the reference interpreter compiles each row once, reading the fields of the instruction at run
 * time (`i`), the translator splices the fields of one instruction in as constants.
 *
 *   rs rt rd   general registers (a destination rd or rt of register 0 is not written)
 *   sa         shift amount;   simm  sign-extended immediate;   uimm  zero-extended immediate
 *   luimm      the immediate in the upper half (lui)
 *   hi lo      the multiply/divide registers (r[32], r[33])
 *   fcc        the FPU condition bit (FCSR.C), for bc1f/bc1t
 *
 * Generated code sees `r` (GPRs, HI, LO), `fpu` and the cpu/semantics.ts helpers.
 */
import type { Insn } from './decode.js';
import { FCSR_C } from './fpu.js';
import type { OpSpec } from './opcodes.js';
import { REG_FCC, REG_HI, REG_LO } from './query.js';
import { COMPARISON_TEMPLATES, int32Store, splice, valueOp, type Comparison } from '../semantics.js';

const REG_FIELDS: Record<string, 'rs' | 'rt' | 'rd'> = { rs: 'rs', rt: 'rt', rd: 'rd' };

/**
 * JS for operand `name`: of instruction i (constants; register 0 reads as 0), or, with i
 * undefined, read from the run-time instruction `i`.
 */
export function operandJs(name: string, i: Insn | undefined): string {
  const f = REG_FIELDS[name];
  if (f) return i === undefined ? `r[i.${f}]` : i[f] === 0 ? '0' : `r[${i[f]}]`;
  switch (name) {
    case 'hi': return 'r[32]';
    case 'lo': return 'r[33]';
    case 'sa': return i === undefined ? 'i.sa' : String(i.sa);
    case 'simm': return i === undefined ? 'i.simm' : String(i.simm);
    case 'uimm': return i === undefined ? 'i.imm' : String(i.imm);
    case 'luimm': return i === undefined ? '(i.imm << 16)' : String((i.imm << 16) | 0);
    case 'fcc': return `(fpu.fcsr & ${FCSR_C})`;
    default: return name; // an integer literal
  }
}

/** The destination `name` as an assignable expression, or null when it is register 0. */
function destJs(name: string, i: Insn | undefined): string | null {
  const f = REG_FIELDS[name];
  if (f && i !== undefined && i[f] === 0) return null;
  return operandJs(name, i);
}

/**
 * Statements computing row s's value binding and writing its destinations. For a row with the
 * Integer Overflow exception (add, addi, sub), the code `overflow()` gives runs instead when the
 * exact result is not an int32 (nothing is written); it is asked for only then (a translator's
 * overflow exit is made by asking).
 */
export function valueJs(s: OpSpec, i: Insn | undefined, overflow: () => string): string {
  const v = s.value!;
  const op = valueOp(v.op);
  const a = v.a === undefined ? undefined : operandJs(v.a, i);
  const b = operandJs(v.b, i);
  if (op.exact && s.exceptions.includes('Ov')) {
    const d = destJs(v.d[0]!, i);
    return `{ const t = ${splice(op.exact, a, b)}; if (t > 2147483647 || t < -2147483648) ${overflow()}${d ? ` ${d} = t;` : ''} }`;
  }
  const dests = v.d.map((n) => destJs(n, i));
  // Every destination is an element of `r`, an Int32Array.
  if (op.out.length === 1) return dests[0] ? `${dests[0]} = ${int32Store(splice(op.out[0]!, a, b))};` : '';
  // mult, div ...: the sources read once, every result before any write (a destination may be a source).
  const outs = op.out.map((t) => splice(t, a === undefined ? undefined : 'a', 'b'));
  return `{ const ${a === undefined ? '' : `a = ${a}, `}b = ${b}; ${outs.map((e, k) => `const v${k} = ${e};`).join(' ')} ${dests.map((d, k) => (d ? `${d} = v${k};` : '')).join(' ')} }`;
}

/** The condition of row s's branch, a JS boolean expression. */
export function condJs(s: OpSpec, i: Insn | undefined): string {
  const c = s.cond!;
  return splice(COMPARISON_TEMPLATES[c.op as Comparison], operandJs(c.a!, i), operandJs(c.b, i));
}

/**
 * Operand `name` of instruction i as the instrumenter sees it: a register (query.ts's numbering:
 * HI, LO and the FPU condition bit after the GPRs) or a constant.
 */
export function operandSource(name: string, i: Insn): { r: number } | { k: number } {
  const f = REG_FIELDS[name];
  if (f) return { r: i[f] };
  switch (name) {
    case 'hi': return { r: REG_HI };
    case 'lo': return { r: REG_LO };
    case 'fcc': return { r: REG_FCC };
    case 'sa': return { k: i.sa };
    case 'simm': return { k: i.simm };
    case 'uimm': return { k: i.imm };
    case 'luimm': return { k: (i.imm << 16) | 0 };
    default: return { k: Number(name) };
  }
}
