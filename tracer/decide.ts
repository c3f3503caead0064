/**
 * Predicates regeneration decides (issue 6, docs/tracer.md "Witnesses at predicates regeneration
 * decides"): a two-way conditional branch whose condition depends only on values regeneration
 * knows at that point without recording anything more (tracer/slice.ts knownWithoutRecords: every
 * definition reaching an operand is computed from values the cut computes or records) needs no
 * witness: regeneration evaluates the condition and takes the edge.
 *
 * MIPS (decided): `beq`/`bne` compare two registers, `blez`/`bgtz`/`bltz`/`bgez` one with zero.
 * The condition reads the registers before the delay slot executes (Kane & Heinrich, the branch
 * "compares ... the contents of general registers rs and rt" in its own cycle; the slot follows),
 * and regeneration chooses the edge at the end of the block's body, before the edge's delay-slot
 * item: the same values. Records are placed before the branch (a body record after the
 * instruction defining the value, or after the load delay), so every recorded operand is
 * regenerated before the choice. The definitions of the operands become computed sites.
 *
 * SPARC (decided): a Bicc whose condition codes were set in its own block by `subcc a, b`
 * (`cmp`: Z, N xor V, C of a - b are a = b, a < b signed, a < b unsigned, manual 5.1.2.1 and
 * Table F-7) or by an `orcc` of one register with zero (`tst`: V = C = 0, N and Z of the value),
 * with neither operand redefined (and no window move) between the two: the condition is then the
 * comparison of the operands' values at the branch, and no condition codes need to be
 * regeneration state (signal frames, forks and jmp_bufs keep none). bneg/bpos/bvs/bvc after
 * `cmp`, bcs/bcc after `tst`, and condition codes set in another block (or by anything else) stay
 * witnessed.
 * SPARC (measured, decidablePredicates): also the predicates whose condition codes come from any
 * cc-setting add, sub, and, or, xor, andn, orn or xnor of known operands, possibly in an earlier
 * block (a call or a system call setting them makes the predicate undecidable): deciding those
 * would need the condition codes as regeneration state.
 */
import type { Block, Cfg } from './cfg.js';
import type { Dataflow, State } from './dataflow.js';
import type { Decoded, Isa } from './isa.js';
import type { SDecide, SSrc } from '../format/schema.js';
import { knownWithoutRecords, type SliceResult } from './slice.js';

const SPARC_ICC = 64;
type Cmp = SDecide[0];
/** Bicc after `cmp a, b` (subcc): the comparison of a with b (manual Table F-7). */
export const SPARC_SUB: Record<string, Cmp> = {
  be: 'eq', bne: 'ne', bl: 'lt', ble: 'le', bg: 'gt', bge: 'ge', bcs: 'ltu', bleu: 'leu', bgu: 'gtu', bcc: 'geu',
};
/** Bicc after `tst x` (orcc of x with zero; V = C = 0): the comparison of x with 0. */
export const SPARC_TST: Record<string, Cmp> = {
  be: 'eq', bne: 'ne', bl: 'lt', ble: 'le', bg: 'gt', bge: 'ge', bneg: 'lt', bpos: 'ge',
};
const CC_OPS = new Set(['addcc', 'subcc', 'andcc', 'orcc', 'xorcc', 'andncc', 'orncc', 'xnorcc']);

/** MIPS conditional branches: the comparison of rs with rt (two-register forms) or with zero. */
const MIPS_CMP: Record<string, { cmp: SDecide[0]; rt: boolean }> = {
  beq: { cmp: 'eq', rt: true },
  bne: { cmp: 'ne', rt: true },
  blez: { cmp: 'le', rt: false },
  bgtz: { cmp: 'gt', rt: false },
  bltz: { cmp: 'lt', rt: false },
  bgez: { cmp: 'ge', rt: false },
};

export interface Decision {
  /** The schema's condition (format/schema.ts SDecide). */
  dc: SDecide;
  /** Sites regeneration must compute for the operands (tracer/dataflow.ts site ids). */
  sites: Set<number>;
}

/**
 * The predicates of `cfg` regeneration decides, with their conditions.
 */
export function decidedPredicates(cfg: Cfg, isa: Isa, s: SliceResult): Map<number, Decision> {
  const out = new Map<number, Decision>();
  if (isa.name !== 'mips') {
    for (const b of cfg.blocks) {
      const d = decideSparc(b, isa, s);
      if (d) out.set(b.id, d);
    }
    return out;
  }
  const df = s.df;
  for (const [b, i, br] of conditionalBranches(cfg, s.df)) {
    const form = MIPS_CMP[br.name];
    if (!form) continue;
    const taken = b.succ.find((e) => e.kind === 'taken');
    const fall = b.succ.find((e) => e.kind === 'fall');
    if (!taken || !fall) continue;
    const rs = (br.word >>> 21) & 31;
    const rt = form.rt ? (br.word >>> 16) & 31 : 0;
    const st = df.stateAt(b, i);
    const sites = new Set<number>();
    if (![rs, rt].every((r) => r === 0 || knownWithoutRecords(s, isa, st, r, 0, sites))) continue;
    out.set(b.id, { dc: [form.cmp, rs, form.rt ? rt : { k: 0 }, taken.id, fall.id], sites });
  }
  return out;
}

/**
 * Marks the sites of the decisions computed in the slice (their instructions get their `c`
 * annotation in the schema). Computing more than the addresses need is harmless: every site's
 * sources are themselves computed or recorded.
 */
export function computeDecisions(s: SliceResult, decisions: Map<number, Decision>): void {
  for (const d of decisions.values()) {
    for (const id of d.sites) {
      if (s.computed.has(id)) continue;
      s.computed.add(id);
      const site = s.df.sites[id]!;
      if (site.kind === 'insn') s.computedInsn[site.block]!.add(site.index);
      else if (site.kind === 'ds') s.computedDs[site.block] = true;
    }
  }
}

/** The form of a SPARC Bicc decidable from a `cmp` or `tst` in its own block (see the top). */
interface SparcForm {
  cmp: Cmp;
  a: SSrc;
  c: SSrc;
  /** The operand registers (architectural, not %g0), at window depth `depth`, read at body index `i`. */
  regs: number[];
  depth: number;
  i: number;
}

function sparcForm(b: Block, df: Dataflow): SparcForm | undefined {
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

/** A SPARC Bicc decided from a `cmp` or `tst` in its own block (see the top), or undefined. */
function decideSparc(b: Block, isa: Isa, s: SliceResult): Decision | undefined {
  const f = sparcForm(b, s.df);
  if (!f) return undefined;
  const taken = b.succ.find((e) => e.kind === 'taken')!;
  const fall = b.succ.find((e) => e.kind === 'fall')!;
  const st = s.df.stateAt(b, f.i);
  const sites = new Set<number>();
  if (!f.regs.every((r) => knownWithoutRecords(s, isa, st, r, f.depth, sites))) return undefined;
  return { dc: [f.cmp, f.a, f.c, taken.id, fall.id], sites };
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
    const form = MIPS_CMP[br.name];
    if (!form || !b.succ.some((e) => e.kind === 'taken') || !b.succ.some((e) => e.kind === 'fall')) continue;
    const rs = (br.word >>> 21) & 31;
    const rt = form.rt ? (br.word >>> 16) & 31 : 0;
    out.push({ block: b.id, state: df.stateAt(b, i), regs: [rs, rt].filter((r) => r !== 0).map((r) => isa.canon(r, 0)) });
  }
  return out;
}

/**
 * The blocks of `cfg` ending in a conditional branch regeneration could evaluate (statistics):
 * the `decided` ones (decidedPredicates' result) and, on the SPARC, those only condition codes kept
 * as regeneration state would decide.
 */
export function decidablePredicates(cfg: Cfg, isa: Isa, s: SliceResult, decided: ReadonlyMap<number, Decision>): Set<number> {
  if (isa.name === 'mips') return new Set(decided.keys());
  const out = new Set<number>();
  for (const [b, i] of conditionalBranches(cfg, s.df)) if (decided.has(b.id) || decidableSparc(b, i, isa, s)) out.add(b.id);
  return out;
}

/**
 * The blocks ending in a two-way conditional branch whose window depth is static: each with the
 * branch's index and the branch.
 */
function* conditionalBranches(cfg: Cfg, df: Dataflow): Generator<[Block, number, Decoded]> {
  for (const b of cfg.blocks) {
    if (b.term !== 'branch' || b.succ.length !== 2 || Number.isNaN(df.depthIn[b.id]!)) continue;
    const i = b.insns.length - 1;
    const br = b.insns[i]!;
    if (br.cti === 'branch' && br.cond) yield [b, i, br];
  }
}

function decidableSparc(b: Block, i: number, isa: Isa, s: SliceResult): boolean {
  const df = s.df;
  const br = b.insns[i]!;
  const depth = depthAt(df, b, i);
  const st = df.stateAt(b, i);
  if (!br.uses.includes(SPARC_ICC) || br.uses.some((r) => r !== SPARC_ICC)) return false; // FBfcc, CBccc
  const defs = df.reaching(st, isa.canon(SPARC_ICC, depth));
  if (defs.length === 0) return false;
  for (const id of defs) {
    const site = df.sites[id]!;
    if (site.kind !== 'insn' || !site.insn || !CC_OPS.has(site.insn.name)) return false;
    const sb = df.cfg.blocks[site.block]!;
    const before = df.stateAt(sb, site.index);
    for (const r of site.insn.uses) {
      if (r !== 0 && !knownWithoutRecords(s, isa, before, r, site.depth)) return false;
    }
  }
  return true;
}

function depthAt(df: Dataflow, b: Block, i: number): number {
  let d = df.depthIn[b.id]!;
  for (let k = 0; k < i; k++) d += df.win(b.insns[k]!);
  return d;
}
