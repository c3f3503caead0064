/**
 * Decided predicates (schema.md `dc`, tracer/decide.ts): regeneration evaluates the branch's
 * condition on the registers it holds at the end of the block's body instead of reading a
 * witness. Both engines use these: the interpreter (regen/process.ts) calls decideEdge, the
 * compiler (regen/compile.ts) inlines decideSource's expression.
 */
import type { SDecide } from '../format/schema.js';

/** The edge a decided predicate takes, given its operands' values (32-bit comparison). */
export function decideEdge(dc: SDecide, a: number, b: number): number {
  const u = UNSIGNED.has(dc[0]);
  return holds(dc[0], u ? a >>> 0 : a | 0, u ? b >>> 0 : b | 0) ? dc[3] : dc[4];
}

const UNSIGNED = new Set<SDecide[0]>(['ltu', 'leu', 'gtu', 'geu']);

/** The comparisons a schema may name (regen/model.ts refuses others). */
export const COMPARISONS: ReadonlySet<string> = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'ltu', 'leu', 'gtu', 'geu']);

function holds(cmp: SDecide[0], a: number, b: number): boolean {
  switch (cmp) {
    case 'eq': return a === b;
    case 'ne': return a !== b;
    case 'lt': case 'ltu': return a < b;
    case 'le': case 'leu': return a <= b;
    case 'gt': case 'gtu': return a > b;
    case 'ge': case 'geu': return a >= b;
  }
}

const JS_OP: Record<SDecide[0], string> = {
  eq: '===', ne: '!==', lt: '<', le: '<=', gt: '>', ge: '>=', ltu: '<', leu: '<=', gtu: '>', geu: '>=',
};

/** JavaScript for the condition, given the source expressions of its operands. */
export function decideSource(dc: SDecide, a: string, b: string): string {
  const op = JS_OP[dc[0]];
  if (!op) throw new Error(`unknown comparison ${JSON.stringify(dc[0])} in a decided predicate`);
  const cv = UNSIGNED.has(dc[0]) ? '>>> 0' : '| 0';
  return `((${a}) ${cv}) ${op} ((${b}) ${cv})`;
}
