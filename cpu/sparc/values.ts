/**
 * The operands of the SPARC opcode table's semantics bindings (opcodes.ts `value`; the
 * operations are cpu/semantics.ts's) and the JavaScript both engines make of a row's binding: the
 * reference interpreter compiles each row once, the translator splices one instruction's
 * operands in. Both have the sources' values at hand already (the interpreter as `a`, `b`).
 *
 *   rs1        the first source register;   ri  the second operand: rs2, or simm13 when i = 1
 *   rd         the destination register (%g0 is not written)
 *   y          the Y register;   hi22  sethi's constant, imm22 << 10
 *
 * Condition codes are the engines' (state.ts's lazy forms): iccOf says which form a row sets.
 */
import type { Insn } from './decode.js';
import type { OpSpecFull } from './opcodes.js';
import { REG_Y } from './query.js';
import { CC_ADD, CC_LOGIC, CC_SUB } from './state.js';
import { splice, valueOp } from '../semantics.js';

/** icc of a row that sets it from its value: the lazy form, or CC_DIV (N, Z, V = the quotient did not fit, C = 0). */
export const CC_DIV = -1;

export function iccOf(s: OpSpecFull): number | undefined {
  const v = s.value;
  if (!s.setsIcc || !v) return undefined;
  switch (v.op) {
    case 'add': return CC_ADD;
    case 'sub': return CC_SUB;
    case 'udiv': case 'sdiv': return CC_DIV;
    default: return CC_LOGIC;
  }
}

/** The sources' JS: rs1 and ri as given (`a`, `b`), Y and sethi's constant. */
function operandJs(name: string, d: Insn | undefined, a: string, b: string): string {
  switch (name) {
    case 'rs1': return a;
    case 'ri': return b;
    case 'y': return 'c.y';
    case 'hi22': return d === undefined ? '(d.imm22 << 10)' : String((d.imm22 << 10) | 0);
    default: return name; // an integer literal
  }
}

export interface ValueCode {
  /** Statements run first: results into v0, v1 ... and the writes of the destinations other than rd. */
  pre: string;
  /** rd's new value (an expression), or null when the row does not write rd. */
  rd: string | null;
}

/**
 * The JS of row s's value binding over sources `a` (rs1) and `b` (ri). With one result the
 * expression is returned as is; with more, every result is computed before any is written.
 */
export function valueCode(s: OpSpecFull, d: Insn | undefined, a: string, b: string, tmp: () => string): ValueCode {
  const v = s.value!;
  const op = valueOp(v.op);
  const A = v.a === undefined ? undefined : operandJs(v.a, d, a, b);
  const B = operandJs(v.b, d, a, b);
  const outs = op.out.map((t) => splice(t, A, B, 'c.y'));
  if (outs.length === 1) {
    if (v.d[0] === 'rd') return { pre: '', rd: outs[0]! };
    return { pre: `c.y = ${outs[0]};`, rd: null };
  }
  const ts = outs.map(() => tmp());
  let pre = outs.map((e, k) => `${ts[k]} = ${e};`).join(' ');
  let rd: string | null = null;
  v.d.forEach((n, k) => {
    if (n === 'rd') rd = ts[k]!;
    else pre += ` c.y = ${ts[k]};`;
  });
  return { pre, rd };
}

/**
 * Operand `name` of instruction d as the instrumenter sees it: a register of the current window
 * (Y in query.ts's numbering) or a constant.
 */
export function operandSource(name: string, d: Insn): { r: number } | { k: number } {
  switch (name) {
    case 'rd': return { r: d.rd };
    case 'rs1': return { r: d.rs1 };
    case 'ri': return d.i ? { k: d.simm13 } : { r: d.rs2 };
    case 'y': return { r: REG_Y };
    case 'hi22': return { k: (d.imm22 << 10) | 0 };
    default: return { k: Number(name) };
  }
}
