/**
 * The shortcuts of the read-only load proof (tracer/rodata.ts RangeAnalysis.settle,
 * tracer/induction.ts pre-tests) against the analysis without them, on every function of built
 * programs: the oracle is the same analysis asked the same questions with the shortcuts off.
 * RangeAnalysis memoizes, and a site on a cycle of definitions gets what the first evaluation to
 * reach it found, so what the shortcuts evaluate, or skip, could change later answers; these
 * tests check that none does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Block, Cfg } from '../../tracer/cfg.js';
import { buildCfg, externalEntries } from '../../tracer/cfg.js';
import { Dataflow } from '../../tracer/dataflow.js';
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

  it('settle changes no later answer: every definition settled first, last to first, leaves every load address as found without', () => {
    let refused = 0;
    let settled = 0;
    for (const [target, name] of PROGRAMS) {
      const prog = loadBsd(target, name);
      for (const { cfg, df, loads } of functions(prog)) {
        const plain = new RangeAnalysis(cfg, prog.isa, df);
        const want = loads.map((l) => plain.address(l.b, l.i, l.depth, l.mem));
        const ra = new RangeAnalysis(cfg, prog.isa, df);
        for (let k = df.sites.length - 1; k >= 0; k--) {
          const site = df.sites[k]!;
          for (const r of site.regs) {
            if (ra.settle(site, r) === null) refused++;
            else settled++;
          }
        }
        expect(loads.map((l) => ra.address(l.b, l.i, l.depth, l.mem))).toEqual(want);
      }
    }
    // Both kinds occur: evaluations kept, and evaluations that met a cycle and were undone.
    expect(refused).toBeGreaterThan(0);
    expect(settled).toBeGreaterThan(0);
  });

  it('the pre-tests skip no answer: lockstep ranges and load addresses are those of the analysis that never skips a solve', () => {
    let bounded = 0;
    for (const [target, name] of PROGRAMS) {
      const prog = loadBsd(target, name);
      const isa = prog.isa;
      for (const { cfg, df, loads } of functions(prog)) {
        // settledConstant always null: nothing is settled, so quiet never holds and every solve runs.
        const world = (skip: boolean): ((l: Load) => unknown) => {
          const ra = new RangeAnalysis(cfg, isa, df);
          const values = siteValues(ra);
          const ind = new Induction(cfg, isa, df, skip ? values : { ...values, settledConstant: () => null });
          return (l) => [ra.address(l.b, l.i, l.depth, l.mem), ind.range(l.b, l.i, isa.canon(l.mem.base, l.depth))];
        };
        const all = world(false);
        const some = world(true);
        const want = loads.map(all);
        expect(loads.map(some)).toEqual(want);
        bounded += want.filter((x) => (x as unknown[])[1] !== undefined).length;
      }
    }
    // cc1s scan (tracer/rodata.ts tests) among them.
    expect(bounded).toBeGreaterThan(0);
  });
});
