/**
 * The predicate forms regeneration can evaluate (tracer/decide.ts explains when it does): a MIPS
 * conditional branch comparing general registers (its row's `cond` binding), and a SPARC Bicc
 * after a `cmp` (subcc), a `tst` (orcc with zero) or a cc instruction whose result decides it,
 * in its own block or on every edge into it; each as a comparison of registers. The cut asks for the
 * operands (predicateOperands, tracer/slice.ts), the decision for the forms (tracer/decide.ts),
 * the loop analysis for the SPARC comparisons (tracer/induction.ts).
 */
import type { Block, Cfg } from './cfg.js';
import type { Dataflow, State } from './dataflow.js';
import type { Decoded, Isa } from './isa.js';
import type { SDecide, SSrc } from '../format/schema.js';
import { decode as decodeMipsInsn } from '../cpu/mips/decode.js';
import { operandSource } from '../cpu/mips/values.js';

export const SPARC_ICC = 64;
export type Cmp = SDecide[0];
/** Bicc after `cmp a, b` (subcc): the comparison of a with b (manual Table F-7). */
export const SPARC_SUB: Record<string, Cmp> = {
  be: 'eq', bne: 'ne', bl: 'lt', ble: 'le', bg: 'gt', bge: 'ge', bcs: 'ltu', bleu: 'leu', bgu: 'gtu', bcc: 'geu',
};
/** Bicc after `tst x` (orcc of x with zero; V = C = 0): the comparison of x with 0. */
export const SPARC_TST: Record<string, Cmp> = {
  be: 'eq', bne: 'ne', bl: 'lt', ble: 'le', bg: 'gt', bge: 'ge', bneg: 'lt', bpos: 'ge',
};

/**
 * A MIPS conditional branch as a comparison of a general register with a register or a constant
 * (its opcode-table row's `cond` binding), or undefined (bc1f/bc1t test the FPU condition bit,
 * bc0f/bc0t a pin).
 */
export function mipsComparison(word: number): { cmp: Cmp; a: number; b: SSrc } | undefined {
  let form = comparisons.get(word);
  if (form === undefined) comparisons.set(word, (form = comparisonOf(word) ?? null));
  if (form === null) return undefined;
  // A copy: the caller may keep it (a decision's condition in the schema).
  return { cmp: form.cmp, a: form.a, b: typeof form.b === 'number' ? form.b : { k: form.b.k } };
}

/** mipsComparison by instruction word (null: none), for every program: the word alone decides it. */
const comparisons = new Map<number, { cmp: Cmp; a: number; b: SSrc } | null>();

function comparisonOf(word: number): { cmp: Cmp; a: number; b: SSrc } | undefined {
  const i = decodeMipsInsn(word);
  const c = i.spec?.cond;
  if (!c || c.a === undefined) return undefined;
  const a = operandSource(c.a, i);
  const b = operandSource(c.b, i);
  if (!('r' in a) || a.r >= 32 || ('r' in b && b.r >= 32)) return undefined;
  return { cmp: c.op, a: a.r, b: 'r' in b ? b.r : { k: b.k } };
}

/** The form of a SPARC Bicc decidable from the instruction that set its condition codes (tracer/decide.ts). */
export interface SparcForm {
  cmp: Cmp;
  a: SSrc;
  c: SSrc;
  /** The operand registers (architectural, not %g0), at window depth `depth`, read at body index `i`. */
  regs: number[];
  depth: number;
  i: number;
}

/** Condition-code instructions whose result register gives Z and N (manual 5.1.2.1): V = C = 0 for the logical ones. */
const CC_LOGICAL = new Set(['andcc', 'orcc', 'xorcc', 'andncc', 'orncc', 'xnorcc']);
const CC_ARITH = new Set(['addcc', 'subcc']);
/** Bicc on the result of addcc/subcc: only Z and N are the result's (V and C are the operation's). */
export const SPARC_RESULT: Record<string, Cmp> = { be: 'eq', bne: 'ne', bneg: 'lt', bpos: 'ge' };
/** Every integer instruction that sets the condition codes from its operation (decide.ts, sparcForm). */
export const CC_OPS: ReadonlySet<string> = new Set([...CC_ARITH, ...CC_LOGICAL]);

type Form = { cmp: Cmp; a: SSrc; c: SSrc; regs: number[] };

/**
 * The comparisons equivalent to Bicc `br` on the condition codes `cc` sets, given the
 * instructions executed after it up to the branch (none of which sets the condition codes or
 * moves the window): `cmp a, b` (subcc) as a against b, `tst x` (orcc with zero) as x against 0,
 * and the result register rd (not %g0) against 0 for the conditions that depend only on the
 * result's Z and N (all of them after a logical op, which clears V and C). A form holds only when
 * none of its registers is redefined from the cc instruction (for the operand forms, itself
 * included) up to the branch.
 */
function formsOf(cc: Decoded, br: Decoded, after: readonly Decoded[]): Form[] {
  const w = cc.word;
  const rd = (w >>> 25) & 31;
  const rs1 = (w >>> 14) & 31;
  const imm = ((w >>> 13) & 1) === 1;
  const b2: SSrc = imm ? { k: (w << 19) >> 19 } : w & 31;
  const isZero = (x: SSrc): boolean => x === 0 || (typeof x !== 'number' && x.k === 0);
  const forms: { form: Form; self: boolean }[] = [];
  const add = (cmp: Cmp | undefined, a: SSrc, c: SSrc, self: boolean): void => {
    if (!cmp) return;
    forms.push({ form: { cmp, a, c, regs: [a, c].filter((x): x is number => typeof x === 'number' && x !== 0) }, self });
  };
  if (cc.name === 'subcc') add(SPARC_SUB[br.name], rs1, b2, true);
  else if (cc.name === 'orcc' && (rs1 === 0 || isZero(b2))) add(SPARC_TST[br.name], rs1 === 0 ? b2 : rs1, { k: 0 }, true);
  if (rd !== 0 && CC_LOGICAL.has(cc.name)) add(SPARC_TST[br.name], rd, { k: 0 }, false);
  if (rd !== 0 && CC_ARITH.has(cc.name)) add(SPARC_RESULT[br.name], rd, { k: 0 }, false);
  return forms
    .filter(({ form, self }) => ![...(self ? [cc] : []), ...after].some((x) => x.defs.some((r) => form.regs.includes(r))))
    .map(({ form }) => form);
}

const formKey = (f: Form): string => JSON.stringify([f.cmp, f.a, f.c]);

/**
 * The forms a Bicc's condition codes have on one path into the branch: `seq` is what executes,
 * in order, up to the branch; the cc instruction is the last one in it that sets them. Undefined
 * when none does, or when something after it moves the window.
 */
function pathForms(seq: readonly Decoded[], br: Decoded): Form[] | undefined {
  let k = seq.length - 1;
  while (k >= 0 && !seq[k]!.defs.includes(SPARC_ICC)) k--;
  if (k < 0) return undefined;
  const after = seq.slice(k + 1);
  if (after.some((x) => x.window !== 0 || x.cti !== 'none')) return undefined;
  if (!CC_OPS.has(seq[k]!.name)) return undefined;
  return formsOf(seq[k]!, br, after);
}

/**
 * The form of a SPARC Bicc decidable from the instruction that set its condition codes: in its
 * own block, or, when its block's body sets none, on every edge into the block (the last setter
 * of the predecessor's body, or the predecessor's delay slot where it executes on that edge:
 * gcc fills a branch's slot with the next test's `cmp`). Every path must give the same
 * comparison of registers that nothing redefines up to the branch; regeneration then evaluates
 * it on the registers it holds at the branch, with no condition codes as state. A block entered
 * from outside the function, after a call or a trap (the callee or the kernel sets the codes), or
 * through a jump table is not decided.
 */
export function sparcForm(b: Block, df: Dataflow): SparcForm | undefined {
  if (b.term !== 'branch' || b.succ.length !== 2 || Number.isNaN(df.depthIn[b.id]!)) return undefined;
  const i = b.insns.length - 1;
  const br = b.insns[i]!;
  if (br.cti !== 'branch' || !br.cond || ((br.word >>> 22) & 7) !== 2) return undefined; // Bicc only
  if (!b.succ.some((e) => e.kind === 'taken') || !b.succ.some((e) => e.kind === 'fall')) return undefined;
  const body = b.insns.slice(0, i);
  let forms: Form[] | undefined;
  if (body.some((x) => x.defs.includes(SPARC_ICC))) forms = pathForms(body, br);
  else {
    if (b.entry || b.pred.length === 0) return undefined;
    for (const e of b.pred) {
      const p = df.cfg.blocks[e.from]!;
      if ((e.kind !== 'taken' && e.kind !== 'fall') || (p.term !== 'fall' && p.term !== 'branch')) return undefined;
      if (Number.isNaN(df.depthIn[p.id]!)) return undefined;
      const pbody = p.term === 'branch' ? p.insns.slice(0, -1) : p.insns;
      const seq = [...pbody, ...(e.ds && p.ds ? [p.ds] : []), ...body];
      const f = pathForms(seq, br);
      if (!f) return undefined;
      forms = forms === undefined ? f : forms.filter((x) => f.some((y) => formKey(x) === formKey(y)));
    }
  }
  const f = forms?.[0];
  if (!f) return undefined;
  return { ...f, depth: depthAt(df, b, i), i };
}

/** A predicate's block, the state at its branch and its operands (canonical registers). */
export interface PredicateOperands {
  readonly block: number;
  readonly state: State;
  readonly regs: readonly number[];
}

/** predicateOperands' answer per dataflow (the slicing passes, the pricing, the interprocedural analysis and the decisions ask the same dataflow; callers only read it). */
const operandsOf = new WeakMap<Dataflow, readonly PredicateOperands[]>();

/**
 * The predicates decidedPredicates would decide if their operands were known (the same forms),
 * with the operands as canonical registers in the state at the branch: the cut (tracer/cut.ts
 * PredRoot) may choose to make them known instead of witnessing the predicate. `cfg` and `isa`
 * are the dataflow's.
 */
export function predicateOperands(cfg: Cfg, isa: Isa, df: Dataflow): readonly PredicateOperands[] {
  let out = operandsOf.get(df);
  if (out === undefined) operandsOf.set(df, (out = findPredicateOperands(cfg, isa, df)));
  return out;
}

function findPredicateOperands(cfg: Cfg, isa: Isa, df: Dataflow): PredicateOperands[] {
  const out: PredicateOperands[] = [];
  if (isa.name !== 'mips') {
    for (const b of cfg.blocks) {
      const f = sparcForm(b, df);
      if (f) out.push({ block: b.id, state: df.stateAt(b, f.i), regs: f.regs.map((r) => isa.canon(r, f.depth)) });
    }
    return out;
  }
  const branches = conditionalBranches(cfg, df);
  for (let k = 0; k < branches.length; k++) {
    const b = branches[k]!;
    const i = b.insns.length - 1;
    const form = mipsComparison(b.insns[i]!.word);
    if (!form || !b.succ.some((e) => e.kind === 'taken') || !b.succ.some((e) => e.kind === 'fall')) continue;
    const rs = form.a;
    const rt = typeof form.b === 'number' ? form.b : 0;
    out.push({ block: b.id, state: df.stateAt(b, i), regs: [rs, rt].filter((r) => r !== 0).map((r) => isa.canon(r, 0)) });
  }
  return out;
}

/**
 * The blocks ending in a two-way conditional branch whose window depth is static, in block order
 * (the branch is the block's last instruction).
 */
export function conditionalBranches(cfg: Cfg, df: Dataflow): Block[] {
  const out: Block[] = [];
  for (let k = 0; k < cfg.blocks.length; k++) {
    const b = cfg.blocks[k]!;
    if (b.term !== 'branch' || b.succ.length !== 2 || Number.isNaN(df.depthIn[b.id]!)) continue;
    const br = b.insns[b.insns.length - 1]!;
    if (br.cti === 'branch' && br.cond) out.push(b);
  }
  return out;
}

export function depthAt(df: Dataflow, b: Block, i: number): number {
  let d = df.depthIn[b.id]!;
  for (let k = 0; k < i; k++) d += df.win(b.insns[k]!);
  return d;
}
