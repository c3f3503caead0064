/**
 * The functions that can run (tracer/reached.ts): a function the instrumenter finds unreachable
 * never executes. The oracle is the ground truth of the original program's run: every
 * instruction fetched lies in a function the instrumenter counts as reached. Those found
 * unreachable keep a complete instrumentation (regeneration equals the ground truth on the same
 * runs: test/tracer/programs.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TARGET_NAMES } from '../../format/target.js';
import { BUILD_DIR, variant } from '../../images/build.js';
import { buildUserProgram } from '../../images/runtime.js';
import { EV_I, TruthCursor, type TruthEvent } from '../../regen/truth_cursor.js';
import type { Schema } from '../../format/schema.js';
import { buildBsd } from '../support/built.js';
import { toolsAvailable } from '../support/tools.js';
import { checkBehavesAndRegenerates, traced, type Traced } from './support/trace.js';

/**
 * Functions reached only through a table of code addresses in data (twice, thrice), one nothing
 * refers to (never_called: global, so the link keeps it) and one only it calls (only_from_never).
 */
const SOURCE = `#include <stdio.h>
__attribute__((noinline)) static int twice(int x) { return 2 * x; }
__attribute__((noinline)) static int thrice(int x) { return 3 * x; }
int (*table[])(int) = { twice, thrice };
__attribute__((noinline)) int only_from_never(int x) { return table[1](x) - 1; }
__attribute__((noinline)) int never_called(int x) { return only_from_never(x) + 1; }
int main(int argc, char **argv) {
  int s = 0;
  for (int i = 0; i < 2; i++) s += table[i](argc + i);
  printf("%d\\n", s);
  return 0;
}
`;

/** The function index (schema.functions, in address order) holding pc, or -1. */
function funcOf(functions: Schema['functions'], pc: number): number {
  let lo = 0;
  let hi = functions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (functions[mid]!.addr <= pc) lo = mid;
    else hi = mid - 1;
  }
  return pc >= functions[lo]!.addr && pc < functions[lo]!.end ? lo : -1;
}

/** The functions the original run fetched instructions of (its ground truth). */
function executed(t: Traced): Set<number> {
  const cur = new TruthCursor(t.orig.truth!, `${t.path} (original run)`, 1);
  const ev: TruthEvent = { kind: 0, addr: 0, size: 0 };
  const ran = new Set<number>();
  while (cur.next(ev)) {
    if (ev.kind !== EV_I) continue;
    const fi = funcOf(t.inst.schema.functions, ev.addr >>> 0);
    if (fi >= 0) ran.add(fi);
  }
  return ran;
}

/** The names of the functions the instrumenter found unreachable that the original run executed (expected: none). */
function executedUnreached(t: Traced): string[] {
  const ran = executed(t);
  expect(ran.size).toBeGreaterThan(1);
  return [...ran].filter((fi) => t.inst.unreached.has(fi)).map((fi) => t.inst.schema.functions[fi]!.name);
}

const PROGRAMS: [string, string | undefined][] = [['hello', undefined], ['textgen', 'small'], ['egrep', 'anchors'], ['ttest-sig', undefined], ['li', 'queens6']];

describe.skipIf(!toolsAvailable())('functions nothing reaches', () => {
  beforeAll(() => buildBsd(TARGET_NAMES.flatMap((t) => PROGRAMS.map(([n]) => [t, n] as const))), 600_000);

  for (const target of TARGET_NAMES) {
    for (const [name, test] of PROGRAMS) {
      it(`${target} ${name}: every function the original run executes is reached`, async () => {
        const t = await traced(target, name, test);
        const { functions, stats } = t.inst.schema;
        expect(stats['unreachedFunctions']).toBe(t.inst.unreached.size);
        // The C library brings functions these programs never call: the check is not vacuous.
        expect(t.inst.unreached.size).toBeGreaterThan(0);
        expect(t.inst.unreached.size).toBeLessThan(functions.length);
        expect(executedUnreached(t)).toEqual([]);
      }, 120_000);
    }

    it(`${target}: functions reached only through code addresses in data are reached; one nothing refers to and its callee are not`, async () => {
      const dir = join(BUILD_DIR, 'reached');
      mkdirSync(dir, { recursive: true });
      const src = join(dir, 'pointers.c');
      writeFileSync(src, SOURCE);
      const path = join(dir, `pointers-${target}`);
      await buildUserProgram(variant(target, 'bsd'), [src], path, ['-O2']);
      const { t } = checkBehavesAndRegenerates(path, 'pointers', 10_000_000);
      expect(t.orig.stdout.toString('latin1')).toBe('8\n');
      const names = new Set([...t.inst.unreached].map((fi) => t.inst.schema.functions[fi]!.name));
      expect(names).toContain('never_called');
      expect(names).toContain('only_from_never');
      for (const f of ['main', 'twice', 'thrice']) expect(names.has(f), f).toBe(false);
      expect(executedUnreached(t)).toEqual([]);
    }, 120_000);
  }
});
