/**
 * Predicates regeneration could decide (issue 6, lead "witnesses at predicates regeneration can
 * decide"; measured, not used by the placement yet): a two-way conditional branch whose condition
 * depends only on values regeneration already knows at that point without recording anything
 * more (tracer/slice.ts knownWithoutRecords) — on the MIPS the registers the branch compares, on
 * the SPARC the operands of every instruction whose integer condition codes reach the branch (a
 * cc-setting add, sub, and, or, xor, andn, orn or xnor; anything else that sets them, a call or
 * a system call, makes the predicate undecidable). Regeneration evaluating such a branch would
 * need no witness to tell its out-edges apart.
 */
import type { Block, Cfg } from './cfg.js';
import type { Isa } from './isa.js';
import { knownWithoutRecords, type SliceResult } from './slice.js';

const SPARC_ICC = 64;
const CC_OPS = new Set(['addcc', 'subcc', 'andcc', 'orcc', 'xorcc', 'andncc', 'orncc', 'xnorcc']);

/** The blocks of `cfg` ending in a conditional branch regeneration could evaluate. */
export function decidablePredicates(cfg: Cfg, isa: Isa, s: SliceResult): Set<number> {
  const out = new Set<number>();
  const df = s.df;
  for (const b of cfg.blocks) {
    if (b.term !== 'branch' || b.succ.length !== 2 || Number.isNaN(df.depthIn[b.id]!)) continue;
    const i = b.insns.length - 1;
    const br = b.insns[i]!;
    if (br.cti !== 'branch' || !br.cond) continue;
    if (decidable(b, i, isa, s)) out.add(b.id);
  }
  return out;
}

function decidable(b: Block, i: number, isa: Isa, s: SliceResult): boolean {
  const df = s.df;
  const br = b.insns[i]!;
  const depth = depthAt(s, b, i);
  const st = df.stateAt(b, i);
  if (isa.name === 'mips') return br.uses.every((r) => r === 0 || knownWithoutRecords(s, isa, st, r, depth));
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

function depthAt(s: SliceResult, b: Block, i: number): number {
  let d = s.df.depthIn[b.id]!;
  for (let k = 0; k < i; k++) d += s.df.win(b.insns[k]!);
  return d;
}
