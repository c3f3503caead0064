/**
 * Decided predicates (schema.md `dc`, tracer/decide.ts): regeneration evaluates the branch's
 * condition on the registers it holds at the end of the block's body instead of reading a
 * witness. Both engines use these: the interpreter (regen/process.ts) calls decideEdge, the
 * compiler (regen/compile.ts) inlines decideSource's expression. The comparisons are the CPUs'
 * (cpu/semantics.ts: a MIPS branch's row names the one it takes on).
 */
import { COMPARISON_TEMPLATES, compare, splice } from '../cpu/semantics.js';
import type { SDecide } from '../format/schema.js';

/** The edge a decided predicate takes, given its operands' values (32-bit comparison). */
export function decideEdge(dc: SDecide, a: number, b: number): number {
  return compare(dc[0], a, b) ? dc[3] : dc[4];
}

/** The comparisons a schema may name (regen/model.ts refuses others): cpu/semantics.ts's. */
export const COMPARISONS: ReadonlySet<string> = new Set(Object.keys(COMPARISON_TEMPLATES));

/** JavaScript for the condition, given the source expressions of its operands (int32 values). */
export function decideSource(dc: SDecide, a: string, b: string): string {
  const t = (COMPARISON_TEMPLATES as Record<string, string>)[dc[0]];
  if (!t) throw new Error(`unknown comparison ${JSON.stringify(dc[0])} in a decided predicate`);
  return splice(t, a, b);
}
