/**
 * The two test commands split a matrix: `npm test` runs one representative of each check (each
 * ISA, each configuration, each oracle), `npm run test:full` (files named `*.full.test.ts`) the
 * rest. A matrix is defined once, in a support module that takes the part to register; the
 * quick file and the full file register complementary parts under the same test names, so every
 * case runs in exactly one of the two commands and is found by its name in either.
 */
export type Part = 'quick' | 'full';

/** Whether a case the matrix marks `quick` (or not) belongs to `part`. */
export function inPart(part: Part, quick: boolean): boolean {
  return (part === 'quick') === quick;
}

/**
 * Throws when a name of the list that splits a matrix (its quick cases, or its full-only ones)
 * matches none of its cases: a misspelt or removed case would otherwise move a check from one
 * command to the other silently.
 */
export function checkSplitNames(where: string, listed: Iterable<string>, cases: Iterable<string>): void {
  const have = new Set(cases);
  const missing = [...listed].filter((n) => !have.has(n));
  if (missing.length > 0) throw new Error(`${where}: the split names no case ${missing.join(', ')}`);
}
