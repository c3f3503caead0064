/**
 * Values regeneration carries across calls (docs/tracer.md "Data addresses"):
 *   - return values a callee's own regeneration leaves known (tracer/instrument.ts
 *     interprocedural, tracer/dataflow.ts DataflowOptions.returned): textgen's `strlen` returns
 *     `p - s`, which its slice computes for its loads, so `word` need not record its result;
 *   - MIPS caller-saved registers a callee never writes, transitively (instrument.ts callKeeps,
 *     DataflowOptions.callKeeps): gcc keeps t3, t6 and t9 live across sgefa's calls of `daxpy`.
 * The end-to-end check (every regeneration equal to the ground truth) is the programs test and
 * bench/tracer.ts; here the rules themselves, on the shipped builds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCfg, externalEntries, type Cfg } from '../../tracer/cfg.js';
import { Dataflow } from '../../tracer/dataflow.js';
import { frequencies, noReturnCallees } from '../../tracer/frequency.js';
import { callKeeps } from '../../tracer/instrument.js';
import { interprocedural } from '../../tracer/interproc.js';
import type { Program } from '../../tracer/program.js';
import { knownWithoutRecords, sliceFunction, type SliceResult } from '../../tracer/slice.js';
import { buildBsd, loadBsd } from '../support/built.js';
import { toolsAvailable } from '../support/tools.js';


/** The instrumenter's first slicing pass over every function. */
function firstPass(prog: Program): { cfgs: Cfg[]; slices: SliceResult[]; freqs: ReturnType<typeof frequencies>[] } {
  const ext = externalEntries(prog);
  const cfgs = prog.funcs.map((f) => buildCfg({ prog, externalEntries: ext }, f));
  const noReturn = noReturnCallees(prog, cfgs);
  const freqs = cfgs.map((cfg) => frequencies(prog, cfg, noReturn));
  const slices = prog.funcs.map((f, i) => sliceFunction(cfgs[i]!, prog.isa, f, { carrySp: true, blockFreq: freqs[i]!.block }));
  return { cfgs, slices, freqs };
}

const index = (prog: Program, name: string): number => {
  const i = prog.funcs.findIndex((f) => f.name === name);
  if (i < 0) throw new Error(`no function ${name}`);
  return i;
};

/** The call blocks of function `fi` whose direct target is function `callee`. */
function callsOf(prog: Program, cfg: Cfg, callee: string) {
  const addr = prog.funcs[index(prog, callee)]!.addr;
  return cfg.blocks.filter((b) => b.term === 'call' && b.target === addr);
}

describe.skipIf(!toolsAvailable())('values carried across calls', () => {
  beforeAll(() => buildBsd([['mipsel', 'textgen'], ['sparc', 'textgen'], ['mipsel', 'sgefa']]), 600_000);

  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target} textgen: functions whose every way out is a return with a known result qualify, others not`, () => {
      const prog = loadBsd(target, 'textgen');
      const { cfgs, slices } = firstPass(prog);
      const rv = interprocedural(prog, cfgs, slices);
      const names = new Set([...rv.funcs].map((i) => prog.funcs[i]!.name));
      // strlen: `p - s`; memcpy returns its first argument.
      expect(names).toContain('strlen');
      expect(names).toContain('memcpy');
      // A tail call hands the result to another function.
      for (const [i, cfg] of cfgs.entries()) {
        if (cfg.blocks.some((b) => b.term === 'tail')) expect(names.has(prog.funcs[i]!.name), prog.funcs[i]!.name).toBe(false);
      }
      // memcmp returns the difference of two loaded bytes, which no address needs.
      expect(names).not.toContain('memcmp');
      // Every qualifying function gets its return register as a root at each of its returns,
      // and only those.
      for (const fi of rv.funcs) {
        const cfg = cfgs[fi]!;
        const roots = rv.exitRoots.get(fi)!;
        for (const e of cfg.blocks[cfg.exit]!.pred) {
          if (cfg.blocks[e.from]!.term === 'return') expect(roots.get(e.id), `${prog.funcs[fi]!.name} edge ${e.id}`).toEqual([prog.isa.RET]);
        }
        expect([...roots.keys()].every((id) => cfg.blocks[cfg.edges[id]!.from]!.term === 'return')).toBe(true);
      }
      // Direct calls of them, and only those, are marked in their callers.
      for (const [ci, m] of rv.returned) {
        for (const [bid, regs] of m) {
          const b = cfgs[ci]!.blocks[bid]!;
          expect(b.term).toBe('call');
          expect(rv.funcs.has(prog.funcAt(b.target!)!.index)).toBe(true);
          expect(regs).toEqual([prog.isa.RET]);
        }
      }
    });
  }

  it('mipsel textgen word: strlen\'s result is known after the call only when strlen returns it known', () => {
    const prog = loadBsd('mipsel', 'textgen');
    const { cfgs, slices, freqs } = firstPass(prog);
    const rv = interprocedural(prog, cfgs, slices);
    const wi = index(prog, 'word');
    const cfg = cfgs[wi]!;
    const [call] = callsOf(prog, cfg, 'strlen');
    expect(call).toBeDefined();
    const ret = call!.succ.find((e) => e.kind === 'return')!;
    const after = cfg.blocks[ret.to]!;
    const known = (s: SliceResult): boolean => knownWithoutRecords(s, prog.isa, s.df.stateAt(after, 0), prog.isa.RET, 0);
    expect(known(slices[wi]!)).toBe(false);
    expect(rv.returned.get(wi)?.get(call!.id)).toEqual([prog.isa.RET]);
    const s = sliceFunction(cfg, prog.isa, prog.funcs[wi]!, { carrySp: true, blockFreq: freqs[wi]!.block, returned: rv.returned.get(wi)! });
    expect(known(s)).toBe(true);
    // No record of v0 on the call's return edge.
    expect((s.edgeRecords.get(ret.id) ?? []).some((r) => r.reg === prog.isa.RET && r.why === 'call')).toBe(false);
  });

  it('mipsel sgefa: calls of daxpy keep t3, t6 and t9; nothing that makes a system call keeps v0, v1 or a3; ra is never kept', () => {
    const prog = loadBsd('mipsel', 'sgefa');
    const ext = externalEntries(prog);
    const cfgs = prog.funcs.map((f) => buildCfg({ prog, externalEntries: ext }, f));
    const keeps = callKeeps(prog, cfgs);
    const mi = index(prog, 'main');
    const m = keeps.get(mi)!;
    const daxpy = callsOf(prog, cfgs[mi]!, 'daxpy.part.0');
    expect(daxpy.length).toBeGreaterThan(0);
    for (const b of daxpy) for (const r of [11, 14, 25]) expect(m.get(b.id)).toContain(r);
    const fwrite = callsOf(prog, cfgs[mi]!, 'fwrite');
    expect(fwrite.length).toBeGreaterThan(0);
    for (const b of fwrite) for (const r of [2, 3, 7]) expect(m.get(b.id) ?? []).not.toContain(r);
    for (const mm of keeps.values()) for (const regs of mm.values()) expect(regs).not.toContain(prog.isa.LINK);
    // The dataflow: after a daxpy call, t3's definitions are those before the call.
    const df = new Dataflow(cfgs[mi]!, prog.isa, { carried: [prog.isa.SP], callPreserved: prog.isa.callPreserves, callKeeps: m });
    const plain = new Dataflow(cfgs[mi]!, prog.isa, { carried: [prog.isa.SP], callPreserved: prog.isa.callPreserves });
    const b = daxpy[0]!;
    const after = cfgs[mi]!.blocks[b.succ.find((e) => e.kind === 'return')!.to]!;
    const t3 = prog.isa.canon(11, 0);
    expect(plain.reaching(plain.stateAt(after, 0), t3).some((id) => plain.sites[id]!.kind === 'call')).toBe(true);
    expect(df.reaching(df.stateAt(after, 0), t3).some((id) => df.sites[id]!.kind === 'call' && df.sites[id]!.block === b.id)).toBe(false);
  });
});
