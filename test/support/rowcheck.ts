/**
 * Shared parts of the generated instruction tests (test/cpu/mips/qemu_rows.test.ts,
 * test/cpu/sparc/qemu_rows.test.ts, test/cpu/mips/support/gen.ts): edge-biased operand values,
 * building a generated assembly program with the guest toolchain, the seeded order of a
 * program's row instances, and the record of which rows a check reached.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Prng } from '../../format/prng.js';

/** Values a 32-bit operand is biased towards: 0, ±1, the extremes, the 16-bit edges. */
export const EDGES: readonly number[] = [0, 1, -1, 0x7fffffff, -0x80000000, 0x8000, 0x7fff, -0x8000, 0xffff];

/** A 32-bit value biased towards `edges` and small numbers. */
export function edgy(rng: Prng, edges: readonly number[] = EDGES): number {
  switch (rng.below(8)) {
    case 0: return rng.pick(edges) | 0;
    case 1: return rng.below(64) - 32;
    default: return rng.u32() | 0;
  }
}

/**
 * Builds assembly `text` with `gcc` and `flags` into dir (name plus a hash of text and flags, so
 * a built program is reused); the source stays beside it.
 */
export function buildAsmText(gcc: string, flags: readonly string[], dir: string, name: string, text: string): string {
  const out = join(dir, `${name}-${createHash('sha256').update(text).update(flags.join(' ')).digest('hex').slice(0, 16)}`);
  if (existsSync(out)) return out;
  mkdirSync(dir, { recursive: true });
  const src = `${out}.${process.pid}.S`;
  writeFileSync(src, text);
  const tmp = `${out}.${process.pid}.tmp`;
  execFileSync(gcc, [...flags, '-o', tmp, src], { stdio: ['ignore', 'pipe', 'pipe'] });
  renameSync(tmp, out);
  return out;
}

/** `perRow` copies of every row, shuffled with `below` (a seeded generator's). */
export function instanceOrder<T>(rows: readonly T[], perRow: number, below: (n: number) => number): T[] {
  const order: T[] = [];
  for (const r of rows) for (let k = 0; k < perRow; k++) order.push(r);
  for (let k = order.length - 1; k > 0; k--) {
    const j = below(k + 1);
    [order[k], order[j]] = [order[j]!, order[k]!];
  }
  return order;
}

/** Rows reached by the checks of a test file: row name -> how it was checked. */
export class RowsReached {
  readonly how = new Map<string, string>();
  constructor(private readonly rowOf: (word: number) => { name: string } | undefined) {}
  /** Marks the rows of the executed words (the first way a row was reached is kept). */
  words(words: readonly number[], how: string): void {
    for (const w of words) {
      const r = this.rowOf(w);
      if (r && !this.how.has(r.name)) this.how.set(r.name, how);
    }
  }
  /** The rows of `all` no check reached. */
  missing(all: readonly { name: string }[]): string[] {
    return all.filter((r) => !this.how.has(r.name)).map((r) => r.name);
  }
}
