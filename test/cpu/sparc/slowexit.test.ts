/**
 * Slow exits of the fast engine (codegen.ts, Gen.slowExit): a load or store after a block's first
 * instruction that the software page map does not serve (TLB miss, first touch, M bit clear, an
 * unmapped page) leaves the block before that instruction, or before its branch when it sits in a
 * delay slot, and the block starting there takes the slow path. The program below strides over
 * 128 pages (twice the TLB) so such accesses miss all the time: mid-block with icc pending, after
 * a SAVE in the same block, ldd/std, in the delay slots of a side exit, an annulled branch, a
 * taken `ba`, a self-loop's branch and a `jmpl %g0` (all left before the branch), and of a CALL
 * (which wrote %o7: its slot takes the slow path in place). One page is unmapped, so some of those
 * accesses trap. Both engines run it in lockstep with random budgets: every architectural value,
 * the TLB statistics, the trap log and the retired counts must agree after every slice.
 */
import { describe, expect, it } from 'vitest';
import type { SparcRefSink } from '../../../cpu/sparc/index.js';
import { FLUSH_ENTIRE } from '../../../cpu/sparc/mmu.js';
import { Prng } from '../../../format/prng.js';
import { A, G, L, O, SP, type Reg } from './asm.js';
import { ACC_RW, BareMachine, CODE_VA } from './machine.js';
import { lockstep } from './randprog.js';

const REGION = 0x00100000;
const REGION_PAGES = 128;
/** A page of the region left unmapped: accesses to it trap (data_access_exception). */
const HOLE = 77;
const STRIDE = 0x1008;

type Item = number | ((at: number) => number);

/** The program: words, and the indices of the instructions the test looks at. */
function program(): { words: number[]; at: Record<string, number> } {
  const items: Item[] = [];
  const at: Record<string, number> = {};
  const label = (name: string): void => {
    at[name] = items.length;
  };
  const br = (name: string, to: string, annul = false): Item => (i: number) => A.br(name, at[to]! - i, annul);
  const call = (to: string): Item => (i: number) => A.call(at[to]! - i);
  const ld = (name: string, rd: Reg | number, rs1: Reg, b: Reg | number): number => A.mem(name, rd, rs1, b);
  // The address of access site k: page (g4 / 4096 + 11 k) of the region, so that every site
  // keeps reaching pages it has not touched for more than the TLB's 64 entries.
  const site = (rd: Reg, k: number): number[] => [
    A.sethi(rd, k * 11 * 4096), A.op('add', rd, rd, G(4)), A.op('and', rd, rd, G(6)),
  ];
  items.push(
    ...A.set(G(3), REGION), ...A.set(G(6), REGION_PAGES * 4096 - 8), ...A.set(G(7), STRIDE),
    A.op('or', G(4), G(0), 0), A.op('or', G(5), G(0), 0),
  );
  label('loop');
  items.push(A.op('add', G(5), G(5), 1), A.op('andcc', G(0), G(5), 1));
  label('midLoad');
  items.push(ld('ld', G(1), G(3), G(4)), A.op('add', G(1), G(1), G(5)), ...site(O(0), 1));
  label('midStore');
  items.push(ld('st', G(1), G(3), O(0)), ...site(G(2), 2));
  label('sideBranch');
  items.push(br('be', 'skip1'), ld('ld', O(1), G(3), G(2)), A.op('add', O(1), O(1), 1));
  label('skip1');
  items.push(A.op('save', SP, SP, -96), ...site(L(2), 3));
  label('afterSave');
  items.push(ld('ldd', L(0), G(3), L(2)), ...site(L(3), 4), ld('std', L(0), G(3), L(3)), A.op('restore', G(0), G(0), G(0)));
  items.push(...site(L(4), 5), A.op('andcc', G(0), G(5), 2));
  label('annulBranch');
  items.push(br('bne', 'skip2', true), ld('ldub', O(2), G(3), L(4)), A.op('or', O(3), G(0), 1));
  label('skip2');
  items.push(...site(L(6), 6), A.op('or', L(5), G(0), 3), ...site(L(4), 7));
  label('callInsn');
  items.push(call('sub'), ld('ld', O(2), G(3), L(4)));
  // A self-loop block: a mid-block load and a store in the slot of its own branch.
  label('inner');
  items.push(
    A.op('subcc', L(5), L(5), 1), ld('ld', L(7), G(3), L(6)), A.op('add', L(6), L(6), G(7)), A.op('and', L(6), L(6), G(6)),
  );
  label('innerBranch');
  items.push(br('bne', 'inner'), ld('st', L(7), G(3), L(6)));
  items.push(A.op('add', G(4), G(4), G(7)), A.op('and', G(4), G(4), G(6)), ...site(O(4), 8));
  label('baBranch');
  items.push(br('ba', 'loop'), ld('lduh', O(3), G(3), O(4)));
  label('sub');
  items.push(...site(O(5), 9), ld('ld', O(4), G(3), O(5)), A.op('xor', O(4), O(4), G(5)), ...site(O(5), 10));
  label('retl');
  items.push(A.op('jmpl', G(0), O(7), 8), ld('ld', O(5), G(3), O(5)));
  const words = items.map((w, i) => (typeof w === 'number' ? w : w(i)));
  return { words, at };
}

/** A machine with the program and the region (its hole unmapped), started in user mode. */
function machine(engine: 'interp' | 'fast', words: number[]): BareMachine {
  const m = new BareMachine({ engine, memSize: 2 << 20 });
  m.loadProgram(words);
  m.map(REGION, REGION_PAGES * 4096, ACC_RW);
  m.mem.write32(m.pteAddr(REGION + HOLE * 4096), 0);
  m.cpu.mmu.flush(FLUSH_ENTIRE);
  m.start();
  return m;
}

const va = (index: number): number => (CODE_VA + index * 4) | 0;

/** The fast engine alone for about `n` instructions in one long budget (stopping only at traps). */
function runLong(m: BareMachine, n: number): void {
  while (m.cpu.instret < n) if (!m.run(n)) throw new Error('slow exit test: the machine stopped');
}

const DS_EXITS = ['sideBranch', 'annulBranch', 'innerBranch', 'baBranch', 'retl'];

describe('SPARC slow exits', () => {
  it('loads and stores that miss mid-block and in delay slots: both engines agree after every slice', () => {
    const { words } = program();
    const rng = new Prng(4242);
    const a = machine('interp', words);
    const b = machine('fast', words);
    lockstep(a, b, rng, 150000);
    // The page map missed often, translated code ran most of the program, some accesses trapped.
    expect(b.cpu.mmu.tlbMisses).toBeGreaterThan(5000);
    expect(b.cpu.translator.blockRuns).toBeGreaterThan(5000);
    expect(a.trapLog.length).toBeGreaterThan(10);
  });

  it('blocks start where only slow exits lead, and not at a CALL whose slot missed', () => {
    // One long budget: blocks start at branch targets, trap return points and slow exits only.
    const { words, at } = program();
    const m = machine('fast', words);
    runLong(m, 300000);
    const t = m.cpu.translator;
    expect(m.cpu.mmu.tlbMisses).toBeGreaterThan(10000);
    for (const name of ['midLoad', 'midStore', 'afterSave', ...DS_EXITS]) expect(t.debugSource(va(at[name]!)), name).toBeDefined();
    // A CALL wrote %o7 before its slot: the slot takes its slow path in place.
    expect(t.debugSource(va(at['callInsn']!))).toBeUndefined();
  });

  it('with the ground-truth sink: the same references on both engines, no exit from a delay slot', () => {
    const { words, at } = program();
    const runs = (['interp', 'fast'] as const).map((engine) => {
      const m = machine(engine, words);
      const ev: string[] = [];
      const sink: SparcRefSink = {
        ifetch: (v) => ev.push(`I ${v.toString(16)}`),
        load: (v, n) => ev.push(`L ${v.toString(16)} ${n}`),
        store: (v, n) => ev.push(`S ${v.toString(16)} ${n}`),
        kload: (v, n) => ev.push(`KL ${v.toString(16)} ${n}`),
        kstore: (v, n) => ev.push(`KS ${v.toString(16)} ${n}`),
      };
      m.cpu.sink = sink;
      runLong(m, 100000);
      return { m, ev, state: m.state() };
    });
    const fast = runs[1]!.m.cpu;
    expect(fast.mmu.tlbMisses).toBeGreaterThan(3000);
    expect(fast.translator.blockRuns).toBeGreaterThan(3000);
    expect(runs[1]!.ev.length).toBe(runs[0]!.ev.length);
    expect(runs[1]!.ev).toEqual(runs[0]!.ev);
    expect(runs[1]!.state).toEqual(runs[0]!.state);
    // Sink blocks (mode 1) leave before a mid-block access, never before a branch (it was reported).
    expect(fast.translator.debugSource(va(at['midLoad']!), 1)).toBeDefined();
    for (const name of DS_EXITS) expect(fast.translator.debugSource(va(at[name]!), 1), name).toBeUndefined();
  });
});
