/**
 * The shortcuts of the read-only load proof (tracer/rodata.ts RangeAnalysis.alone, tracer/induction.ts
 * pre-tests) against the analysis without them, on every function of built programs: the oracle
 * is the same analysis asked the same questions with the shortcuts off. RangeAnalysis memoizes,
 * and a site on a cycle of definitions gets what the first evaluation to reach it found, so an
 * answer could depend on what was asked before; alone's must not, and the pre-tests must skip
 * only solves that find nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Block, Cfg } from '../../tracer/cfg.js';
import { buildCfg, externalEntries } from '../../tracer/cfg.js';
import { Dataflow, type Site } from '../../tracer/dataflow.js';
import { Induction } from '../../tracer/induction.js';
import type { MemRef } from '../../tracer/isa.js';
import type { Program } from '../../tracer/program.js';
import { RangeAnalysis, siteValues } from '../../tracer/rodata.js';
import type { TargetName } from '../../format/target.js';
import { buildBsd, loadBsd } from '../support/built.js';
import { toolsAvailable } from '../support/tools.js';

interface Load {
  b: Block;
  i: number;
  depth: number;
  mem: MemRef;
}

/** Every function's CFG, reaching definitions and loads (body and delay slot), in block order. */
function functions(prog: Program): { cfg: Cfg; df: Dataflow; loads: Load[] }[] {
  const isa = prog.isa;
  const ext = externalEntries(prog);
  return prog.funcs.map((f) => {
    const cfg = buildCfg({ prog, externalEntries: ext }, f);
    const df = new Dataflow(cfg, isa, { carried: [isa.SP], callPreserved: isa.callPreserves });
    const loads: Load[] = [];
    for (const b of cfg.blocks) {
      if (Number.isNaN(df.depthIn[b.id]!)) continue;
      b.insns.forEach((d, i) => {
        if (d.mem?.kind === 'load') loads.push({ b, i, depth: df.sites[df.insnSite[b.id]![i]!]!.depth, mem: d.mem });
      });
      const ds = df.dsSite[b.id];
      if (b.ds?.mem?.kind === 'load' && ds !== undefined) loads.push({ b, i: b.insns.length, depth: df.sites[ds]!.depth, mem: b.ds.mem });
    }
    return { cfg, df, loads };
  });
}

const PROGRAMS: [TargetName, string][] = [['mipsel', 'cc1'], ['sparc', 'cc1'], ['mipsel', 'textgen']];

describe.skipIf(!toolsAvailable())('shortcuts of the read-only load proof', () => {
  beforeAll(() => buildBsd(PROGRAMS), 600_000);

  it('alone answers every question as an analysis asked it first, whatever was asked before', () => {
    // Atom ids number registers in order of first use: compare what a form says of the value.
    const value = (f: ReturnType<RangeAnalysis['site']>): unknown => f && { k: f.k, c: f.c, r: f.atom?.r };
    let questions = 0;
    let ordered = 0;
    for (const [target, name] of PROGRAMS) {
      const prog = loadBsd(target, name);
      for (const { cfg, df } of functions(prog)) {
        const fresh = (site: Site, r: number): unknown => value(new RangeAnalysis(cfg, prog.isa, df).site(site, r));
        // Every definition, first to last and last to first, through alone and through site.
        const forward = df.sites.flatMap((site) => site.regs.map((r) => [site, r] as const));
        for (const order of [forward, [...forward].reverse()]) {
          const ra = new RangeAnalysis(cfg, prog.isa, df);
          const plain = new RangeAnalysis(cfg, prog.isa, df);
          for (const [site, r] of order) {
            const want = fresh(site, r);
            expect(value(ra.alone(site, r))).toEqual(want);
            if (!isDeepStrictEqual(value(plain.site(site, r)), want)) ordered++;
            questions++;
          }
        }
      }
    }
    expect(questions).toBeGreaterThan(0);
    // site, asked in the same order, answers some differently from a first question: the order matters there.
    expect(ordered).toBeGreaterThan(0);
  });

  it('the pre-tests skip no answer: lockstep ranges are those of the analysis that never skips a solve', () => {
    let bounded = 0;
    for (const [target, name] of PROGRAMS) {
      const prog = loadBsd(target, name);
      const isa = prog.isa;
      for (const { cfg, df, loads } of functions(prog)) {
        // Without the pre-tests (each answering "not unknown"), every solve runs.
        const world = (skip: boolean): ((l: Load) => unknown) => {
          const ind = new Induction(cfg, isa, df, siteValues(cfg, isa, df));
          if (!skip) Object.assign(ind, { forgotten: () => false, unknownOnEveryPath: () => false, unknownAt: () => false });
          return (l) => ind.range(l.b, l.i, isa.canon(l.mem.base, l.depth));
        };
        const all = world(false);
        const some = world(true);
        const want = loads.map(all);
        expect(loads.map(some)).toEqual(want);
        bounded += want.filter((x) => x !== undefined).length;
      }
    }
    // cc1s scan (tracer/rodata.ts tests) among them.
    expect(bounded).toBeGreaterThan(0);
  });
});
