/**
 * The predicate forms regeneration can evaluate (tracer/decide.ts explains when it does): a MIPS
 * conditional branch comparing general registers (its row's `cond` binding), and a SPARC Bicc
 * after a `cmp` (subcc) or `tst` (orcc with zero) in its own block; each as a comparison of
 * operand registers. The cut asks for the
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
  const i = decodeMipsInsn(word);
  const c = i.spec?.cond;
  if (!c || c.a === undefined) return undefined;
  const a = operandSource(c.a, i);
  const b = operandSource(c.b, i);
  if (!('r' in a) || a.r >= 32 || ('r' in b && b.r >= 32)) return undefined;
  return { cmp: c.op, a: a.r, b: 'r' in b ? b.r : { k: b.k } };
}

/** The form of a SPARC Bicc decidable from a `cmp` or `tst` in its own block (tracer/decide.ts). */
export interface SparcForm {
  cmp: Cmp;
  a: SSrc;
  c: SSrc;
  /** The operand registers (architectural, not %g0), at window depth `depth`, read at body index `i`. */
  regs: number[];
  depth: number;
  i: number;
}

export function sparcForm(b: Block, df: Dataflow): SparcForm | undefined {
  if (b.term !== 'branch' || b.succ.length !== 2 || Number.isNaN(df.depthIn[b.id]!)) return undefined;
  const i = b.insns.length - 1;
  const br = b.insns[i]!;
  if (br.cti !== 'branch' || !br.cond || ((br.word >>> 22) & 7) !== 2) return undefined; // Bicc only
  if (!b.succ.some((e) => e.kind === 'taken') || !b.succ.some((e) => e.kind === 'fall')) return undefined;
  // The instruction that sets the condition codes, in this block; nothing between moves the window.
  let k = i - 1;
  while (k >= 0 && !b.insns[k]!.defs.includes(SPARC_ICC)) {
    if (b.insns[k]!.window !== 0 || b.insns[k]!.cti !== 'none') return undefined;
    k--;
  }
  if (k < 0) return undefined;
  const cc = b.insns[k]!;
  const w = cc.word;
  const rs1 = (w >>> 14) & 31;
  const imm = ((w >>> 13) & 1) === 1;
  const b2: SSrc = imm ? { k: (w << 19) >> 19 } : w & 31;
  let cmp: Cmp | undefined;
  let a: SSrc;
  let c: SSrc;
  if (cc.name === 'subcc') {
    cmp = SPARC_SUB[br.name];
    a = rs1;
    c = b2;
  } else if (cc.name === 'orcc' && (rs1 === 0 || b2 === 0 || (typeof b2 !== 'number' && b2.k === 0))) {
    cmp = SPARC_TST[br.name];
    a = rs1 === 0 ? b2 : rs1;
    c = { k: 0 };
  } else return undefined;
  if (!cmp) return undefined;
  const regs = [a, c].filter((x): x is number => typeof x === 'number' && x !== 0);
  // The operands hold at the branch what the cc instruction read: none is redefined from it on.
  for (let j = k; j < i; j++) if (b.insns[j]!.defs.some((r) => regs.includes(r))) return undefined;
  return { cmp, a, c, regs, depth: depthAt(df, b, i), i };
}

/**
 * The predicates decidedPredicates would decide if their operands were known (the same forms),
 * with the operands as canonical registers in the state at the branch: the cut (tracer/cut.ts
 * PredRoot) may choose to make them known instead of witnessing the predicate.
 */
export function predicateOperands(cfg: Cfg, isa: Isa, df: Dataflow): { block: number; state: State; regs: number[] }[] {
  const out: { block: number; state: State; regs: number[] }[] = [];
  if (isa.name !== 'mips') {
    for (const b of cfg.blocks) {
      const f = sparcForm(b, df);
      if (f) out.push({ block: b.id, state: df.stateAt(b, f.i), regs: f.regs.map((r) => isa.canon(r, f.depth)) });
    }
    return out;
  }
  for (const [b, i, br] of conditionalBranches(cfg, df)) {
    const form = mipsComparison(br.word);
    if (!form || !b.succ.some((e) => e.kind === 'taken') || !b.succ.some((e) => e.kind === 'fall')) continue;
    const rs = form.a;
    const rt = typeof form.b === 'number' ? form.b : 0;
    out.push({ block: b.id, state: df.stateAt(b, i), regs: [rs, rt].filter((r) => r !== 0).map((r) => isa.canon(r, 0)) });
  }
  return out;
}

/**
 * The blocks ending in a two-way conditional branch whose window depth is static: each with the
 * branch's index and the branch.
 */
export function* conditionalBranches(cfg: Cfg, df: Dataflow): Generator<[Block, number, Decoded]> {
  for (const b of cfg.blocks) {
    if (b.term !== 'branch' || b.succ.length !== 2 || Number.isNaN(df.depthIn[b.id]!)) continue;
    const i = b.insns.length - 1;
    const br = b.insns[i]!;
    if (br.cti === 'branch' && br.cond) yield [b, i, br];
  }
}

export function depthAt(df: Dataflow, b: Block, i: number): number {
  let d = df.depthIn[b.id]!;
  for (let k = 0; k < i; k++) d += df.win(b.insns[k]!);
  return d;
}
