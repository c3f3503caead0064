/**
 * The cut decides counted loops' predicates (tracer/slice.ts predicateRoots, tracer/cut.ts
 * PredRoot): a loop whose branches compare values computable in the loop from values defined
 * outside it gets those values recorded once per entry instead of a witness per iteration. On
 * sgefa's `daxpy.part.0` (mipsel-linux-gnu-objdump -d, quoted below) no address needs the count
 * n (a0): its two loops' back edges compare the running pointers with ends computed from n, so
 * before the rule n was not recorded and both back edges were witnessed. Predicates outside
 * loops get a node each, priced at the witnesses the placement would save (tracer/pred_cost.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCfg, externalEntries } from '../../tracer/cfg.js';
import { decidedPredicates } from '../../tracer/decide.js';
import { blockFrequencies, findLoops, frequencies, noReturnCallees } from '../../tracer/frequency.js';
import { predicateSavings } from '../../tracer/pred_cost.js';
import type { Program } from '../../tracer/program.js';
import { sliceFunction } from '../../tracer/slice.js';
import { buildBsd, loadBsd } from '../support/built.js';
import { toolsAvailable } from '../support/tools.js';


/** The final CFG of `func`, with what the cut's frequency estimate needs. */
function cfgOf(prog: Program, func: string) {
  const ext = externalEntries(prog);
  const cfgs = prog.funcs.map((f) => buildCfg({ prog, externalEntries: ext }, f));
  const i = prog.funcs.findIndex((f) => f.name === func);
  if (i < 0) throw new Error(`no function ${func}`);
  return { cfg: cfgs[i]!, func: prog.funcs[i]!, noReturn: noReturnCallees(prog, cfgs) };
}

function sliceOf(prog: Program, name: string) {
  const { cfg, func, noReturn } = cfgOf(prog, name);
  const freq = blockFrequencies(prog, cfg, noReturn);
  const s = sliceFunction(cfg, prog.isa, func, { carrySp: true, blockFreq: freq });
  return { cfg, s, decided: decidedPredicates(cfg, prog.isa, s) };
}

/** The first slicing pass of `name` (no predicate prices) and its block ending with the branch at `branchAt`. */
function firstPass(prog: Program, name: string, branchAt: number) {
  const { cfg, func, noReturn } = cfgOf(prog, name);
  const freq = frequencies(prog, cfg, noReturn);
  const first = sliceFunction(cfg, prog.isa, func, { carrySp: true, blockFreq: freq.block });
  const b = cfg.blocks.find((x) => x.insns.length > 0 && x.insns[x.insns.length - 1]!.addr === branchAt)!;
  return { cfg, func, freq, first, b };
}

describe.skipIf(!toolsAvailable())('counted loops decided by the cut', () => {
  // The binaries this file reads (cached: built once for the whole suite).
  beforeAll(() => buildBsd([['mipsel', 'sgefa'], ['mipsel', 'cc1'], ['sparc', 'compress']]), 600_000);

  it('sgefa daxpy.part.0 (MIPS): n is recorded at entry and both back edges are decided', () => {
    // 400ed4 andi t1,a0,0x3; 400ee4 beqz t1,...; 400eec sll t0,t1,3; addu t0,t0,v0 (v0: dy, loaded
    // from 20(sp)); loop 400ef8..400f1c bne a1,t0 (a1 = dy + 8 per iteration).
    // 400f24 slt a1,t1,a0; beqz a1,exit / addiu a0,a0,-1; 400f34 subu a0,a0,t1; and a0,a0,-4;
    // or a0,a0,t1; sll a0,a0,3; 400f54 addu a0,a0,a1 (a1 = dy + 32); loop 400f58..400ff0
    // bne a0,v0,400f58 (v0 = dy + 8 t1, + 32 per iteration).
    const { cfg, s, decided } = sliceOf(loadBsd('mipsel', 'sgefa'), 'daxpy.part.0');
    const blockEnding = (pc: number): number => {
      const b = cfg.blocks.find((x) => x.insns.length > 0 && x.insns[x.insns.length - 1]!.addr === pc);
      if (!b) throw new Error(`no block ending at 0x${pc.toString(16)}`);
      return b.id;
    };
    const unrolled = decided.get(blockEnding(0x400ff0));
    const prologue = decided.get(blockEnding(0x400f1c));
    expect(unrolled?.dc.slice(0, 3)).toEqual(['ne', 4, 2]);
    expect(prologue?.dc.slice(0, 3)).toEqual(['ne', 5, 8]);
    // The end pointer's computation (400f54 addu a0,a0,a1) is computed by regeneration.
    const site = (pc: number): number => {
      for (const b of cfg.blocks) {
        const i = b.insns.findIndex((d) => d.addr === pc);
        if (i >= 0) return s.df.insnSite[b.id]![i]!;
      }
      throw new Error(`no instruction at 0x${pc.toString(16)}`);
    };
    expect(unrolled!.sites.has(site(0x400f54))).toBe(true);
    expect(s.computed.has(site(0x400f54))).toBe(true);
    // What decides them is recorded outside the loops, once per call: t1 = n & 3 (400ed4, one
    // byte) and a0 = ((n - 1 - t1) & -4) | t1 (400f3c, or its shifted form); inside the loops
    // (400ef8..400f1c, 400f58..400ff0) nothing is recorded.
    const inLoop = (pc: number): boolean => (pc >= 0x400ef8 && pc <= 0x400f1c) || (pc >= 0x400f58 && pc <= 0x400ff0);
    const recorded: { pc: number; reg: number; width: number }[] = [];
    for (const b of cfg.blocks) {
      for (const [i, items] of s.bodyRecords[b.id]!) for (const r of items) recorded.push({ pc: b.insns[Math.max(i, 0)]!.addr, reg: r.reg, width: r.width });
    }
    expect(recorded).toContainEqual({ pc: 0x400ed4, reg: 9, width: 1 });
    expect(recorded.some((r) => r.reg === 4 && r.pc >= 0x400f34 && r.pc <= 0x400f54)).toBe(true);
    for (const r of recorded) expect(inLoop(r.pc), `record at 0x${r.pc.toString(16)}`).toBe(false);
    expect([...s.edgeRecords.keys()]).toEqual([]);
  });

  it('a predicate outside loops is decided when its price covers the records (sgefa daxpy.part.0, MIPS)', () => {
    // 400f24 slt a1,t1,a0; 400f28 beqz a1,exit: between the two loops, on t1 = n & 3 and n. With
    // the loop nodes only, t1 (400ed4, one byte) and the unrolled loop's end (400f34..400f54) are
    // recorded and 400f28 is witnessed; priced at what its witnesses cost the placement
    // (tracer/pred_cost.ts), the cut records n once at entry instead: every branch is decided.
    const prog = loadBsd('mipsel', 'sgefa');
    const { cfg, func, freq, first, b } = firstPass(prog, 'daxpy.part.0', 0x400f28);
    expect(decidedPredicates(cfg, prog.isa, first).has(b.id)).toBe(false);
    const costs = predicateSavings(cfg, prog.isa, first, freq.edge);
    expect(costs.get(b.id)).toBeGreaterThan(0);
    const s = sliceFunction(cfg, prog.isa, func, { carrySp: true, blockFreq: freq.block, predCosts: costs });
    const decided = decidedPredicates(cfg, prog.isa, s);
    expect(decided.get(b.id)?.dc.slice(0, 3)).toEqual(['eq', 5, 0]);
    for (const x of cfg.blocks) if (x.term === 'branch' && x.succ.length === 2) expect(decided.has(x.id), `0x${x.insns[x.insns.length - 1]!.addr.toString(16)}`).toBe(true);
    expect(s.entryRecords.get(0)?.map((r) => r.reg)).toContain(4);
    const bodyAt = new Set<number>();
    for (const x of cfg.blocks) for (const k of s.bodyRecords[x.id]!.keys()) bodyAt.add(x.insns[Math.max(k, 0)]!.addr);
    expect(bodyAt.has(0x400ed4)).toBe(false);
    for (const a of bodyAt) expect(a < 0x400ef8 || (a > 0x400f1c && a < 0x400f58) || a > 0x400ff0, `record at 0x${a.toString(16)}`).toBe(true);
  });

  it('a predicate in a loop without a loop node, on values set before the loop, is decided with no record in the loop (compress lzw_decompress, SPARC)', () => {
    // The innermost loop of the branch at 0x113c0 gets no loop node (not all of its branches
    // compare values computable from outside it); this one does (tracer/slice.ts
    // invariantInputs) and is priced at the witnesses it costs the placement.
    const prog = loadBsd('sparc', 'compress');
    const { cfg, func, freq, first, b } = firstPass(prog, 'lzw_decompress', 0x113c0);
    const loops = findLoops(cfg);
    const loop = loops.loops.get(loops.inner[b.id]!);
    expect(loop).toBeDefined();
    expect(decidedPredicates(cfg, prog.isa, first).has(b.id)).toBe(false);
    const costs = predicateSavings(cfg, prog.isa, first, freq.edge);
    expect(costs.get(b.id)).toBeGreaterThan(0);
    const s = sliceFunction(cfg, prog.isa, func, { carrySp: true, blockFreq: freq.block, predCosts: costs });
    expect(decidedPredicates(cfg, prog.isa, s).has(b.id)).toBe(true);
    // Whatever decides it is recorded outside the loop: the loop's records are those it had.
    const inLoop = (sl: typeof s): string[] => {
      const out: string[] = [];
      for (const v of loop!) for (const [k, items] of sl.bodyRecords[v]!) for (const r of items) out.push(`${v}:${k}:${r.reg}`);
      for (const [e, items] of sl.edgeRecords) if (loop!.has(cfg.edges[e]!.from) && loop!.has(cfg.edges[e]!.to)) for (const r of items) out.push(`e${e}:${r.reg}`);
      return out.sort();
    };
    for (const r of inLoop(s)) expect(inLoop(first)).toContain(r);
  });

  it('a loop exiting on loaded data is not decided by recording (cc1 strlen, MIPS)', () => {
    // strlen's loop exits on the byte it loads: no record once per entry decides it, and the cut
    // records nothing for it (strlen's addresses need only its argument, recorded at entry).
    const { cfg, s, decided } = sliceOf(loadBsd('mipsel', 'cc1'), 'strlen');
    const loopBranches = cfg.blocks.filter((b) => b.succ.some((e) => e.to <= b.id && e.kind === 'taken'));
    expect(loopBranches.length).toBeGreaterThan(0);
    for (const b of loopBranches) expect(decided.has(b.id)).toBe(false);
    let bodyRecords = 0;
    for (const m of s.bodyRecords) for (const items of m.values()) bodyRecords += items.length;
    expect(bodyRecords).toBe(0);
  });
});
