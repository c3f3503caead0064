/**
 * The cut's static frequency estimate (tracer/frequency.ts) on small hand-made graphs. Expected
 * values are worked out by hand from the heuristics' probabilities (in the comments), not taken
 * from the implementation's output.
 */
import { describe, expect, it } from 'vitest';
import type { Block, Cfg, Edge, EdgeKind, TermKind } from '../../tracer/cfg.js';
import {
  blockFrequencies, combine, doomedBlocks, edgeProbabilities, noReturnCallees, postDominators,
} from '../../tracer/frequency.js';
import type { Decoded } from '../../tracer/isa.js';
import type { Func, FuncRole, Program } from '../../tracer/program.js';

interface BlockSpec {
  term: TermKind;
  /** Successors: [block id or 'exit', edge kind]. */
  succ: [number | 'exit', EdgeKind][];
  /** Direct call target. */
  target?: number;
  /** Mnemonic of the block's last instruction (opcode heuristic). */
  last?: string;
  entry?: boolean;
}

function makeCfg(addr: number, specs: BlockSpec[], role?: FuncRole): Cfg {
  const func = { index: 0, name: `f${addr.toString(16)}`, aliases: [], addr, end: addr + 0x100, insns: [], role } as unknown as Func;
  const exit = specs.length;
  const blocks: Block[] = specs.map((s, id) => ({
    id, start: addr + 8 * id, insns: s.last ? [{ name: s.last } as Decoded] : [], term: s.term, succ: [], pred: [],
    entry: s.entry ?? id === 0, ...(s.target !== undefined ? { target: s.target } : {}),
  }));
  blocks.push({ id: exit, start: 0, insns: [], term: 'exit', succ: [], pred: [], entry: false });
  const edges: Edge[] = [];
  specs.forEach((s, from) => {
    for (const [t, kind] of s.succ) {
      const to = t === 'exit' ? exit : t;
      const e: Edge = { id: edges.length, from, to, kind, ds: true, weight: 0 };
      edges.push(e);
      blocks[from]!.succ.push(e);
      blocks[to]!.pred.push(e);
    }
  });
  return { func, blocks, edges, exit, byAddr: new Map() };
}

/** A program of the given graphs: funcAt knows their start addresses only. */
function makeProg(cfgs: Cfg[]): Program {
  const byAddr = new Map(cfgs.map((c) => [c.func.addr, c.func]));
  return { funcs: cfgs.map((c) => c.func), funcAt: (a: number) => byAddr.get(a) } as unknown as Program;
}

const NORET = 0x1000;
/** A function that never returns: its one block is a longjmp. */
const longjmpCfg = (): Cfg => makeCfg(NORET, [{ term: 'longjmp', succ: [['exit', 'exit']] }], 'longjmp');

describe('combine', () => {
  it('is Dempster–Shafer', () => {
    // 0.8 ⊕ 0.7 = 0.56 / (0.56 + 0.06)
    expect(combine(0.8, 0.7)).toBeCloseTo(0.56 / 0.62, 12);
    expect(combine(0.5, 0.3)).toBeCloseTo(0.3, 12);
  });
});

describe('no-return', () => {
  it('finds functions that do not return, through calls and declared padding', () => {
    const H = longjmpCfg();
    // G: call H, then return: H never returns, so neither does G.
    const G = makeCfg(0x2000, [{ term: 'call', target: NORET, succ: [[1, 'return']] }, { term: 'return', succ: [['exit', 'exit']] }]);
    // F: call G, then return.
    const F = makeCfg(0x3000, [{ term: 'call', target: 0x2000, succ: [[1, 'return']] }, { term: 'return', succ: [['exit', 'exit']] }]);
    // K: a branch to a call of G or to a return: returns.
    const K = makeCfg(0x4000, [
      { term: 'branch', succ: [[1, 'taken'], [2, 'fall']] },
      { term: 'call', target: 0x2000, succ: [[2, 'return']] },
      { term: 'return', succ: [['exit', 'exit']] },
    ]);
    // D returns by its graph, but E's call of it is followed by padding (a halt vertex).
    const D = makeCfg(0x5000, [{ term: 'return', succ: [['exit', 'exit']] }]);
    const E = makeCfg(0x6000, [{ term: 'call', target: 0x5000, succ: [[1, 'return']] }, { term: 'halt', succ: [['exit', 'exit']] }]);
    const cfgs = [H, G, F, K, D, E];
    const none = noReturnCallees(makeProg(cfgs), cfgs);
    expect([...none].sort((a, b) => a - b)).toEqual([NORET, 0x2000, 0x3000, 0x5000, 0x6000]);
  });

  it('strict (what the dataflow relies on): roles, conservative functions and indirect jumps may return', () => {
    // H is the longjmp function (a role): it may return, and so G and F through it. J leaves by an
    // indirect jump (a tail call through a register): it may return. C never returns by its graph
    // but is in conservative mode. D stays declared by the padding after E's call; E halts.
    const H = longjmpCfg();
    const G = makeCfg(0x2000, [{ term: 'call', target: NORET, succ: [[1, 'return']] }, { term: 'return', succ: [['exit', 'exit']] }]);
    const F = makeCfg(0x3000, [{ term: 'call', target: 0x2000, succ: [[1, 'return']] }, { term: 'return', succ: [['exit', 'exit']] }]);
    const D = makeCfg(0x5000, [{ term: 'return', succ: [['exit', 'exit']] }]);
    const E = makeCfg(0x6000, [{ term: 'call', target: 0x5000, succ: [[1, 'return']] }, { term: 'halt', succ: [['exit', 'exit']] }]);
    const J = makeCfg(0x7000, [{ term: 'ijump', succ: [['exit', 'exit']] }]);
    const C = makeCfg(0x8000, [{ term: 'halt', succ: [['exit', 'exit']] }]);
    const cfgs = [H, G, F, D, E, J, C];
    cfgs.forEach((c, i) => ((c.func as { index: number }).index = i));
    const prog = makeProg(cfgs);
    expect([...noReturnCallees(prog, cfgs)].sort((a, b) => a - b)).toEqual([NORET, 0x2000, 0x3000, 0x5000, 0x6000, 0x7000, 0x8000]);
    const strict = noReturnCallees(prog, cfgs, { strict: true, conservative: new Set([6]) });
    expect([...strict].sort((a, b) => a - b)).toEqual([0x5000, 0x6000]);
  });

  it('dooms the error path of a guard and prices it at 1/1000', () => {
    // 0: branch taken -> 1 (call the no-return routine, whose edge returns to 2), fall -> 2;
    // 2: return.
    const H = longjmpCfg();
    const f = makeCfg(0x2000, [
      { term: 'branch', succ: [[1, 'taken'], [2, 'fall']] },
      { term: 'call', target: NORET, succ: [[2, 'return']] },
      { term: 'return', succ: [['exit', 'exit']] },
    ]);
    const prog = makeProg([H, f]);
    const none = noReturnCallees(prog, [H, f]);
    expect(doomedBlocks(prog, f, none)).toEqual([false, true, false, false]);
    const p = edgeProbabilities(prog, f, none, { noReturn: true, loop: false, call: false, ret: false, opcode: false });
    expect(p[0]).toBeCloseTo(0.001, 12);
    expect(p[1]).toBeCloseTo(0.999, 12);
    expect(p[2]).toBe(1);
    const freq = blockFrequencies(prog, f, none, { noReturn: true, loop: false, call: false, ret: false, opcode: false });
    // 0: entry 1; 1: 0.001; 2: 0.999 + 0.001; EXIT: 1.
    expect(freq[0]).toBeCloseTo(1, 12);
    expect(freq[1]).toBeCloseTo(0.001, 12);
    expect(freq[2]).toBeCloseTo(1, 12);
    expect(freq[3]).toBeCloseTo(1, 12);
    // All heuristics: no-return 0.001, call 0.22 (the call block does not postdominate 0), and
    // return: the fall edge goes to the returning block 2, so it is taken 0.28 and the taken
    // edge 0.72:
    //   0.001 ⊕ 0.22 = 0.00022 / (0.00022 + 0.77922) = 0.000282254
    //   ⊕ 0.72       = 0.000203223 / (0.000203223 + 0.999717746 * 0.28) = 0.000725474
    const all = edgeProbabilities(prog, f, none);
    expect(all[0]).toBeCloseTo(0.000725474, 8);
  });
});

describe('loops', () => {
  const only = { noReturn: false, loop: true, call: false, ret: false, opcode: false };
  it('a while loop: the exit edge of the header is taken 1 time in 5', () => {
    // 0 -> 1; 1: taken -> 3 (out), fall -> 2; 2 -> 1 (back edge); 3: return.
    const f = makeCfg(0x2000, [
      { term: 'fall', succ: [[1, 'fall']] },
      { term: 'branch', succ: [[3, 'taken'], [2, 'fall']] },
      { term: 'branch', succ: [[1, 'taken']] },
      { term: 'return', succ: [['exit', 'exit']] },
    ]);
    const prog = makeProg([f]);
    const p = edgeProbabilities(prog, f, new Set(), only);
    expect(p[1]).toBeCloseTo(0.2, 12);
    expect(p[2]).toBeCloseTo(0.8, 12);
    // The header runs LOOP_MULTIPLIER = 10 times per entry; inside, 2 gets 0.8 of it. The exit
    // edge, 0.2 of the header's 10, is scaled by 0.1 / 0.2 to carry out the 1 that entered.
    const freq = blockFrequencies(prog, f, new Set(), only);
    expect(freq.slice(0, 4).map((x) => +x.toFixed(9))).toEqual([1, 10, 8, 1]);
  });

  it('nested loops multiply: an inner self-loop inside an outer loop', () => {
    // 0 -> 1; 1: taken -> 4 (out), fall -> 2; 2: taken -> 2 (inner back edge), fall -> 3;
    // 3 -> 1 (outer back edge); 4: return.
    const f = makeCfg(0x2000, [
      { term: 'fall', succ: [[1, 'fall']] },
      { term: 'branch', succ: [[4, 'taken'], [2, 'fall']] },
      { term: 'branch', succ: [[2, 'taken'], [3, 'fall']] },
      { term: 'branch', succ: [[1, 'taken']] },
      { term: 'return', succ: [['exit', 'exit']] },
    ]);
    const prog = makeProg([f]);
    const p = edgeProbabilities(prog, f, new Set(), only);
    // Edges: 0 0->1, 1 1->4, 2 1->2, 3 2->2, 4 2->3, 5 3->1. At 2 the back edge 0.88 and the
    // fall edge 0.12; at 1 the exit 0.2.
    expect(p[3]).toBeCloseTo(0.88, 12);
    expect(p[4]).toBeCloseTo(0.12, 12);
    expect(p[1]).toBeCloseTo(0.2, 12);
    const freq = blockFrequencies(prog, f, new Set(), only);
    // Inner loop {2}: exit 2 -> 3 carries 0.12 per header run, scaled by 0.1 / 0.12. Outer loop
    // {1, 2, 3} from 1 at 1: 2 = 0.8 * 10 = 8, 3 = 8 * 0.12 * (0.1 / 0.12) = 0.8, the exit 1 -> 4
    // 0.2, scaled by 0.1 / 0.2. Function: 1 = 10, 2 = 80, 3 = 8, 4 = 10 * 0.2 * 0.5 = 1.
    expect(freq[1]).toBeCloseTo(10, 9);
    expect(freq[2]).toBeCloseTo(80, 9);
    expect(freq[3]).toBeCloseTo(8, 9);
    expect(freq[4]).toBeCloseTo(1, 9);
  });
});

describe('call, return and opcode heuristics', () => {
  it('a call that postdominates the branch is not a hint; bltz is taken 16 %', () => {
    // 0: bltz, taken -> 1, fall -> 2; 1 -> 2; 2: call, -> 3; 3: return.
    const f = makeCfg(0x2000, [
      { term: 'branch', last: 'bltz', succ: [[1, 'taken'], [2, 'fall']] },
      { term: 'fall', succ: [[2, 'fall']] },
      { term: 'call', target: 0x9000, succ: [[3, 'return']] },
      { term: 'return', succ: [['exit', 'exit']] },
    ]);
    const prog = makeProg([f]);
    expect(postDominators(f).slice(0, 4)).toEqual([2, 2, 3, 4]);
    const p = edgeProbabilities(prog, f, new Set());
    expect(p[0]).toBeCloseTo(0.16, 12);
    expect(p[1]).toBeCloseTo(0.84, 12);
  });

  it('a call on one side only is taken 22 %, a return 28 %', () => {
    // 0: taken -> 1 (call, -> 3), fall -> 2 (return); 3: return.
    const f = makeCfg(0x2000, [
      { term: 'branch', succ: [[1, 'taken'], [2, 'fall']] },
      { term: 'call', target: 0x9000, succ: [[3, 'return']] },
      { term: 'return', succ: [['exit', 'exit']] },
      { term: 'return', succ: [['exit', 'exit']] },
    ]);
    const prog = makeProg([f]);
    const call = edgeProbabilities(prog, f, new Set(), { noReturn: false, loop: false, call: true, ret: false, opcode: false });
    expect(call[0]).toBeCloseTo(0.22, 12);
    // Return: the fall edge goes to a return, taken 0.28; with the call: 0.22 ⊕ 0.72 for the
    // taken edge = 0.1584 / (0.1584 + 0.2184) = 0.420382.
    const ret = edgeProbabilities(prog, f, new Set(), { noReturn: false, loop: false, call: false, ret: true, opcode: false });
    expect(ret[1]).toBeCloseTo(0.28, 12);
    const both = edgeProbabilities(prog, f, new Set(), { noReturn: false, loop: false, call: true, ret: true, opcode: false });
    expect(both[0]).toBeCloseTo(0.420382, 6);
  });

  it('a return behind an unconditional chain counts (an error path to the shared epilogue)', () => {
    // 0: taken -> 1 (-> 2 -> 3 return), fall -> 4 (a call, -> 3).
    const f = makeCfg(0x2000, [
      { term: 'branch', succ: [[1, 'taken'], [4, 'fall']] },
      { term: 'fall', succ: [[2, 'fall']] },
      { term: 'branch', succ: [[3, 'taken']] },
      { term: 'return', succ: [['exit', 'exit']] },
      { term: 'call', target: 0x9000, succ: [[3, 'return']] },
    ]);
    const prog = makeProg([f]);
    const ret = edgeProbabilities(prog, f, new Set(), { noReturn: false, loop: false, call: false, ret: true, opcode: false });
    expect(ret[0]).toBeCloseTo(0.28, 12);
    expect(ret[1]).toBeCloseTo(0.72, 12);
  });
});
