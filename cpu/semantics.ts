/**
 * What instructions compute, written once for both CPUs: the value operations and comparisons
 * the opcode tables' rows name (cpu/mips/opcodes.ts, cpu/sparc/opcodes.ts), as JavaScript
 * expression templates. A row binds an operation to its operands — MIPS addu is
 * `rd = add(rs, rt)`, SPARC add is `rd = add(rs1, ri)`, `add` is `($a + $b) | 0` — and every
 * consumer reads that one definition:
 *   - the reference interpreters compile each row's binding once, when it first runs (compile),
 *   - the block translators splice the template into the code they generate (splice),
 *   - the instrumenter names the operation in a slice (tracer ComputeOp) and evaluates it with
 *     evalValue (tracer/semantics.ts), and
 *   - regeneration's schema compiler splices the template too (regen/compile.ts; its
 *     interpreter calls evalValue), as it does the comparisons of decided branches.
 *
 * Templates are over `$a`, `$b` (the sources, int32 values) and `$y` (the SPARC Y register, the
 * dividend's high word for udiv/sdiv) and give int32 results. What is not a value stays with the
 * engines, as the manuals specify it: exceptions (overflow, division by zero, alignment), delay
 * slots and annulling, condition codes, memory and privileged state.
 */
import type { Comparison, ComputeName } from '../format/schema.js';
import { mulHi, sdiv64, sdivOverflows, udiv64, udivOverflows } from './arith.js';

export interface ValueOp {
  /** 2: sources $a and $b; 1: only $b (const). */
  readonly args: 1 | 2;
  /** The results, in the order of a binding's destinations. */
  readonly out: readonly string[];
  /**
   * The exact (unwrapped) result, for the rows that raise Integer Overflow when it is not an
   * int32 (MIPS add, addi, sub); out[0] is it wrapped to 32 bits.
   */
  readonly exact?: string;
  /** Reads $y. */
  readonly y?: boolean;
}

const wrapped = (exact: string): ValueOp => ({ args: 2, out: [`(${exact}) | 0`], exact });
const one = (e: string): ValueOp => ({ args: 2, out: [e] });

/** The value operations: one for each name of the schema format's ComputeName but ldro. */
export const VALUE_OPS = {
  add: wrapped('$a + $b'),
  sub: wrapped('$a - $b'),
  and: one('$a & $b'),
  or: one('$a | $b'),
  xor: one('$a ^ $b'),
  nor: one('~($a | $b)'),
  andn: one('$a & ~$b'),
  orn: one('$a | ~$b'),
  xnor: one('~($a ^ $b)'),
  sll: one('$a << ($b & 31)'),
  srl: one('($a >>> ($b & 31)) | 0'),
  sra: one('$a >> ($b & 31)'),
  slt: one('$a < $b ? 1 : 0'),
  sltu: one('($a >>> 0) < ($b >>> 0) ? 1 : 0'),
  const: { args: 1, out: ['$b'] },
  // MIPS mult/div write [HI, LO]. Division by zero (and INT_MIN / -1) is undefined on the R2000:
  // the divisor is then 1, as in QEMU.
  // The high words are arith.ts's smulHi and umulHi, spelled as their one call of mulHi.
  mult: { args: 2, out: ['mulHi($a, $b >> 16, $b & 0xffff)', 'Math.imul($a, $b)'] },
  multu: { args: 2, out: ['mulHi($a >>> 0, $b >>> 16, $b & 0xffff)', 'Math.imul($a, $b)'] },
  div: { args: 2, out: ['$a % ($b === 0 || ($a === -2147483648 && $b === -1) ? 1 : $b) | 0', '($a / ($b === 0 || ($a === -2147483648 && $b === -1) ? 1 : $b)) | 0'] },
  divu: { args: 2, out: ['($a >>> 0) % (($b >>> 0) || 1) | 0', 'Math.trunc(($a >>> 0) / (($b >>> 0) || 1)) | 0'] },
  // SPARC umul/smul write [rd, Y]; udiv/sdiv divide Y:rs1 (manual B.16, B.19).
  umul: { args: 2, out: ['Math.imul($a, $b)', 'mulHi($a >>> 0, $b >>> 16, $b & 0xffff)'] },
  smul: { args: 2, out: ['Math.imul($a, $b)', 'mulHi($a, $b >> 16, $b & 0xffff)'] },
  udiv: { args: 2, out: ['udiv64($y, $a, $b)'], y: true },
  sdiv: { args: 2, out: ['sdiv64($y, $a, $b)'], y: true },
  wry: one('$a ^ $b'),
  // SPARC save/restore: the sum, written to rd of the new window.
  save: wrapped('$a + $b'),
  restore: wrapped('$a + $b'),
} satisfies Record<ValueOpName, ValueOp>;

export type ValueOpName = Exclude<ComputeName, 'ldro'>;

/** The comparisons of conditional branches and decided predicates (format/schema.ts SDecide). */
export const COMPARISON_TEMPLATES = {
  eq: '$a === $b',
  ne: '$a !== $b',
  lt: '$a < $b',
  le: '$a <= $b',
  gt: '$a > $b',
  ge: '$a >= $b',
  ltu: '($a >>> 0) < ($b >>> 0)',
  leu: '($a >>> 0) <= ($b >>> 0)',
  gtu: '($a >>> 0) > ($b >>> 0)',
  geu: '($a >>> 0) >= ($b >>> 0)',
} as const satisfies Record<Comparison, string>;

export type { Comparison };

/** Functions the templates call; generated code receives them as parameters of these names. */
export const HELPERS = { mulHi, udiv64, sdiv64, udivOverflows, sdivOverflows } as const;
export const HELPER_NAMES = Object.keys(HELPERS) as readonly (keyof typeof HELPERS)[];
export const HELPER_VALUES: readonly unknown[] = HELPER_NAMES.map((n) => HELPERS[n]);

/**
 * A row's binding of an operation to its operands, parsed from `d1, d2 = op(a, b)` (values) or
 * `op(a, b)` (comparisons). Operand names are the table's own (rd, rs, rt, simm, ...); a
 * literal integer is a constant.
 */
export interface Binding<N extends string = string> {
  op: N;
  d: string[];
  a?: string;
  b: string;
}

/** Parses a binding and checks it against the operations and the table's operand names. */
export function parseBinding(text: string, operands: ReadonlySet<string>, kind: 'value' | 'cond'): Binding {
  const m = /^(?:([\w ,]+?)\s*=\s*)?(\w+)\(([\w -]*(?:,[\w -]*)?)\)$/.exec(text.trim());
  if (!m) throw new Error(`semantics: cannot parse ${JSON.stringify(text)}`);
  const d = m[1] ? m[1].split(',').map((s) => s.trim()) : [];
  const op = m[2]!;
  const args = m[3]!.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const known = (x: string): boolean => operands.has(x) || /^-?\d+$/.test(x);
  for (const x of [...d, ...args]) if (!known(x)) throw new Error(`semantics: ${text}: unknown operand ${x}`);
  if (kind === 'cond') {
    if (!(op in COMPARISON_TEMPLATES) || args.length !== 2 || d.length) throw new Error(`semantics: ${text}: not a comparison`);
    return { op, d, a: args[0], b: args[1]! };
  }
  const v = (VALUE_OPS as Record<string, ValueOp>)[op];
  if (!v) throw new Error(`semantics: ${text}: no operation ${op}`);
  if (args.length !== v.args || d.length !== v.out.length) throw new Error(`semantics: ${text}: ${op} takes ${v.args} sources and gives ${v.out.length} results`);
  return v.args === 1 ? { op, d, b: args[0]! } : { op, d, a: args[0], b: args[1]! };
}

/** A JavaScript expression as an operand of a template: parenthesized unless it is atomic. */
const ATOM = /^(?:[\w.$]+(?:\[[\w .+]+\])?|\d+)$/;

function operand(e: string): string {
  return ATOM.test(e) ? e : `(${e})`;
}

/** An integer operation of two literals in a spliced template, e.g. `(5 & 31)` or `((-1) >>> 0)`. */
const LITERAL_OP = /\((-?\d+|\(-\d+\)) (&|\||\^|<<|>>>|>>) (-?\d+|\(-\d+\))\)/g;
const literal = (t: string): number => Number(t.replace(/[()]/g, ''));

function fold(x: number, op: string, y: number): number {
  switch (op) {
    case '&': return x & y;
    case '|': return x | y;
    case '^': return x ^ y;
    case '<<': return x << y;
    case '>>>': return x >>> y;
    default: return x >> y;
  }
}

/**
 * The template with its placeholders replaced by the given expressions; integer operations on
 * two literals (an immediate shift count masked with 31, say) are computed here, so that
 * translated code does not compute them every time it runs before V8 optimises it.
 */
export function splice(template: string, a: string | undefined, b: string, y = 'y'): string {
  // Translators splice the same instructions again and again (a block, then its regions).
  const key = `${template}\n${a}\n${b}\n${y}`;
  let e = SPLICED.get(key);
  if (e === undefined) {
    e = template.replace(/\$([aby])/g, (_, p: string) => operand(p === 'a' ? a ?? '0' : p === 'b' ? b : y));
    e = e.replace(LITERAL_OP, (_, x: string, op: string, z: string) => {
      const v = fold(literal(x), op, literal(z));
      return v < 0 ? `(${v})` : String(v);
    });
    if (SPLICED.size >= 1 << 16) SPLICED.clear();
    SPLICED.set(key, e);
  }
  return e;
}

const SPLICED = new Map<string, string>();

/**
 * A spliced value for storing into an Int32Array (a register file): the store converts to int32
 * as `| 0` does, so an outer `(e) | 0` is left to it — in code V8 has not optimised yet, every
 * operation counts.
 */
export function int32Store(e: string): string {
  if (e.endsWith(' | 0') && ATOM.test(e.slice(0, -4))) return e.slice(0, -4);
  if (!e.startsWith('(') || !e.endsWith(') | 0')) return e;
  let depth = 0;
  for (let k = 0; k < e.length - 4; k++) {
    if (e[k] === '(') depth++;
    else if (e[k] === ')' && --depth === 0 && k < e.length - 5) return e;
  }
  return e.slice(1, -5);
}

const OPS: ReadonlyMap<string, ValueOp> = new Map(Object.entries(VALUE_OPS));

export function valueOp(name: string): ValueOp {
  const v = OPS.get(name);
  if (v === undefined) throw new Error(`semantics: no operation ${name}`);
  return v;
}

/**
 * Compiles `body` (JS over the parameters `params` and the helpers) once: the interpreters'
 * and evaluators' share of the generated code.
 */
export function compile<F>(params: readonly string[], body: string): F {
  const make = new Function(...HELPER_NAMES, `return function (${params.join(', ')}) { ${body} };`) as (...h: unknown[]) => F;
  return make(...HELPER_VALUES);
}

const EVAL = new Map<string, (a: number, b: number, y: number) => number[]>();

/**
 * The results of operation `op` for sources a, b and Y (in the order of its destinations). The
 * sources may be any numbers: their int32 values are used.
 */
export function evalValue(op: string, a: number, b: number, y: number): number[] {
  let f = EVAL.get(op);
  if (f === undefined) {
    const v = valueOp(op);
    f = compile<(a: number, b: number, y: number) => number[]>(['a', 'b', 'y'], `a |= 0; b |= 0; y |= 0; return [${v.out.map((t) => splice(t, 'a', 'b', 'y')).join(', ')}];`);
    EVAL.set(op, f);
  }
  return f(a, b, y);
}

const CMP = new Map<string, (a: number, b: number) => boolean>();

/** Whether comparison `cmp` holds for the int32 values of a and b. */
export function compare(cmp: Comparison, a: number, b: number): boolean {
  let f = CMP.get(cmp);
  if (f === undefined) {
    f = compile<(a: number, b: number) => boolean>(['a', 'b'], `a |= 0; b |= 0; return ${splice(COMPARISON_TEMPLATES[cmp], 'a', 'b')};`);
    CMP.set(cmp, f);
  }
  return f(a, b);
}
