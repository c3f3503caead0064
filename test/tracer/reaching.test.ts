/**
 * The reaching definitions' solution (tracer/reaching.ts, through tracer/dataflow.ts Dataflow)
 * against a plain reference (support/reaching_ref.ts: a worklist iteration with full merges, Sets):
 * every block's start state of every function of built programs — which registers are explicit,
 * each one's set, in ascending site order, and the implicit set — for the first pass's options (no
 * carried register) and the slicing pass's (the stack pointer carried, the argument registers
 * carried into the root), on the first pass's graphs and on graphs where every code word of the
 * program is an entry (the case labels of jump tables become entries other than the start). A set's
 * order is part of the result (the analyses read sites in it): ascending site ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TargetName } from '../../format/target.js';
import { buildCfg, externalEntries, type Cfg } from '../../tracer/cfg.js';
import { Dataflow, type DataflowOptions } from '../../tracer/dataflow.js';
import { buildBsd, loadBsd } from '../support/built.js';
import { toolsAvailable } from '../support/tools.js';
import { referenceStartStates } from './support/reaching_ref.js';

const PROGRAMS: readonly (readonly [TargetName, string])[] = [['mipsel', 'li'], ['mips', 'compress'], ['sparc', 'li']];

/** The start states a Dataflow hands out (stateAt(b, 0)), as plain lists, the explicit registers in ascending order. */
function solved(df: Dataflow, cfg: Cfg): { explicit: [number, number[]][]; implicit: number[] }[] {
  return cfg.blocks.map((b) => {
    const s = df.stateAt(b, 0);
    const explicit: [number, number[]][] = [];
    s.forEachExplicit((r) => explicit.push([r, [...s.get(r)]]));
    for (const [r] of explicit) if (!s.has(r) || s.get(r) !== df.reaching(s, r)) throw new Error(`register ${r}: get/has disagree with forEachExplicit`);
    return { explicit: explicit.sort((x, y) => x[0] - y[0]), implicit: [...s.implicit] };
  });
}

const ascending = (l: readonly number[]): number[] => [...l].sort((x, y) => x - y);

describe.skipIf(!toolsAvailable())('reaching definitions (tracer/reaching.ts) against the reference iteration', () => {
  beforeAll(() => buildBsd(PROGRAMS), 600_000);

  for (const [target, program] of PROGRAMS) {
    it(`${target} ${program}: every function's start states, each set in ascending order`, () => {
      const prog = loadBsd(target, program);
      const isa = prog.isa;
      const exts = [externalEntries(prog), externalEntries(prog, { tableWords: new Set(), codeValues: [] })];
      const optionSets: DataflowOptions[] = [
        { carried: [], callPreserved: isa.callPreserves },
        { carried: [isa.SP], callPreserved: isa.callPreserves, rootCarried: isa.name === 'mips' ? [4, 5, 6, 7] : [8, 9, 10, 11, 12, 13] },
      ];
      let functions = 0;
      let blocks = 0;
      let otherEntries = 0;
      let derivations = 0;
      for (const f of prog.funcs) {
        if (f.anonymous || !f.sized) continue;
        for (const ext of exts) {
          let cfg: Cfg;
          try {
            cfg = buildCfg({ prog, externalEntries: ext }, f);
          } catch {
            continue; // conservative mode's (tracer/conservative.ts): no dataflow
          }
          functions++;
          if (cfg.blocks.some((b) => b.entry && b.id !== 0)) otherEntries++;
          for (const opts of optionSets) {
            const df = new Dataflow(cfg, isa, opts);
            const carriedAt = (b: number): number[] =>
              (b === 0 && opts.rootCarried ? [...opts.carried, ...opts.rootCarried] : opts.carried).map((r) => isa.canon(r, df.depthIn[b]!));
            const ref = referenceStartStates(df, carriedAt).map((s) => ({
              explicit: [...s.explicit.entries()].map(([r, l]): [number, number[]] => [r, ascending(l)]).sort((x, y) => x[0] - y[0]),
              implicit: ascending(s.implicit),
            }));
            const got = solved(df, cfg);
            blocks += cfg.blocks.length;
            // One comparison per function (a mismatch names the function and the options).
            expect({ func: f.name, carried: opts.carried, states: got }).toEqual({ func: f.name, carried: opts.carried, states: ref });
            // The same root-carried registers added to the dataflow without them (Dataflow.withRootCarried)
            // give the same states, and its own states are untouched.
            if (opts.rootCarried) {
              const without = new Dataflow(cfg, isa, { ...opts, rootCarried: [] });
              const before = solved(without, cfg);
              const derived = without.withRootCarried(opts.rootCarried);
              expect({ func: f.name, derived: solved(derived, cfg) }).toEqual({ func: f.name, derived: got });
              expect(solved(without, cfg)).toEqual(before);
              derivations++;
            }
          }
        }
      }
      expect(functions).toBeGreaterThan(0);
      expect(blocks).toBeGreaterThan(functions);
      // The entry rule at entries other than the start is exercised (the case labels of the
      // program's jump tables, on the second graphs).
      expect(otherEntries).toBeGreaterThan(0);
      expect(derivations).toBe(functions);
    });
  }
});
