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
 * SPARC (decided): a Bicc whose condition codes were set by `subcc a, b` (`cmp`: Z, N xor V, C
 * of a - b are a = b, a < b signed, a < b unsigned, manual 5.1.2.1 and Table F-7), by an `orcc`
 * of one register with zero (`tst`: V = C = 0, N and Z of the value), or, for the conditions
 * that read only Z and N, by any addcc/subcc/logical cc instruction as its result register rd
 * against 0 (after a logical one, V = C = 0: every condition of `tst`), with the registers of
 * that comparison not redefined (and no window move) between the two: the condition is then
 * the comparison of those registers' values at the branch, and no condition codes need to be
 * regeneration state (signal frames, forks and jmp_bufs keep none). The cc instruction is the
 * last one in the branch's block; or, when the block sets none, on each edge into it the
 * predecessor's delay slot executing on that edge or the last one of its body, all giving the
 * same comparison (predicates.ts sparcForm: gcc fills a branch's delay slot with the next
 * test's `cmp`). Blocks entered from outside the function, after a call, a trap or a jump
 * table, conditions no form covers (bvs, bcs after `tst`) and condition codes set further back
 * stay witnessed.
 * SPARC (measured, decidablePredicates): also the predicates whose condition codes come from any
 * cc-setting add, sub, and, or, xor, andn, orn or xnor of known operands, possibly in an earlier
 * block (a call or a system call setting them makes the predicate undecidable): deciding those
 * would need the condition codes as regeneration state.
 */
import type { Block, Cfg, Edge } from './cfg.js';
import type { Isa } from './isa.js';
import type { SDecide } from '../format/schema.js';
import { CC_OPS, conditionalBranches, depthAt, mipsComparison, predicateOperands, SPARC_ICC, sparcForm } from './predicates.js';
import { depthAfterDs, entryDependence, knownCanonWithoutRecords, knownWithoutRecords, markComputedInsn, type EntryDependence, type KnownMemo, type SliceResult } from './slice.js';
import type { State } from './dataflow.js';

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
  const branches = conditionalBranches(cfg, s.df);
  for (let k = 0; k < branches.length; k++) {
    const b = branches[k]!;
    const i = b.insns.length - 1;
    const form = mipsComparison(b.insns[i]!.word);
    if (!form) continue;
    const taken = b.succ.find((e) => e.kind === 'taken');
    const fall = b.succ.find((e) => e.kind === 'fall');
    if (!taken || !fall) continue;
    const rs = form.a;
    const rt = typeof form.b === 'number' ? form.b : 0;
    const st = df.stateAt(b, i);
    const sites = new Set<number>();
    if (![rs, rt].every((r) => r === 0 || knownWithoutRecords(s, isa, st, r, 0, sites))) continue;
    out.set(b.id, { dc: [form.cmp, rs, form.b, taken.id, fall.id], sites });
  }
  return out;
}

/**
 * The blocks among `ops` (predicateOperands of the same slice: the forms decidedPredicates reads,
 * with their operands as canonical registers) that decidedPredicates decides: those whose every
 * operand is known without records. Without the sites to compute; the walks share what they
 * settle (slice.ts KnownMemo). In `ops`' order.
 */
export function decidedAmong(s: SliceResult, ops: readonly { block: number; state: State; regs: readonly number[] }[]): Set<number> {
  const memo: KnownMemo = [];
  const out = new Set<number>();
  for (const p of ops) if (p.regs.every((r) => knownCanonWithoutRecords(s, p.state, r, memo))) out.add(p.block);
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
      if (site.kind === 'insn') markComputedInsn(s, site.block, site.index);
      else if (site.kind === 'ds') s.computedDs[site.block] = true;
    }
  }
}

/** A SPARC Bicc decided from the instruction that set its condition codes (see the top), or undefined. */
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
 * The blocks of `cfg` ending in a conditional branch regeneration could evaluate (statistics):
 * the `decided` ones (decidedPredicates' result) and, on the SPARC, those only condition codes kept
 * as regeneration state would decide.
 */
export function decidablePredicates(cfg: Cfg, isa: Isa, s: SliceResult, decided: ReadonlyMap<number, Decision>): Set<number> {
  if (isa.name === 'mips') return new Set(decided.keys());
  const out = new Set<number>();
  for (const b of conditionalBranches(cfg, s.df)) if (decided.has(b.id) || decidableSparc(b, b.insns.length - 1, isa, s)) out.add(b.id);
  return out;
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

/**
 * What would make some of a function's predicates decided beyond what its slice computes and
 * records (slice.ts entryDependence): the dependences of the operands of each predicate all of
 * whose operands have one. pr46909-1's `foo` compares its argument with constants.
 * tracer/interproc.ts interprocedural offers the registers to the direct callers as arguments to
 * compute at the call.
 */
export function predicateArguments(cfg: Cfg, isa: Isa, s: SliceResult, calleeOf: (block: number) => number | undefined): EntryDependence[] {
  const predicates: EntryDependence[] = [];
  for (const p of predicateOperands(cfg, isa, s.df)) {
    // A predicate counts only when every operand's dependence is known: stop at the first unknown.
    const deps: EntryDependence[] = [];
    for (const r of p.regs) {
      const d = entryDependence(s, isa, p.state, r, calleeOf);
      if (d === undefined) break;
      deps.push(d);
    }
    if (deps.length === p.regs.length) predicates.push(...deps);
  }
  return predicates;
}

/**
 * What would make a function's return value known at each of its returns `returns` beyond what
 * its slice computes and records (slice.ts entryDependence), in the order of `returns`; undefined
 * as soon as one return's value needs something else (the function then returns nothing known).
 * pr49281's `foo` returns `(x << 2) | 4`. tracer/interproc.ts interprocedural takes the callees'
 * return values as known.
 */
export function returnDependences(
  cfg: Cfg, isa: Isa, s: SliceResult, returns: readonly Edge[], calleeOf: (block: number) => number | undefined,
): EntryDependence[] | undefined {
  const out: EntryDependence[] = [];
  for (const e of returns) {
    const d = entryDependence(s, isa, s.df.stateAfterDs(e), isa.canon(isa.RET, depthAfterDs(s.df, cfg, e)), calleeOf);
    if (d === undefined) return undefined;
    out.push(d);
  }
  return out;
}
