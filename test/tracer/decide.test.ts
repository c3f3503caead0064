/**
 * Decided predicates (tracer/decide.ts, regen/decide.ts), against the SPARC CPU's own condition
 * codes: for every Bicc the tracer decides after `cmp a, b` (subcc) or `tst x` (orcc with zero),
 * the comparison the schema names takes the branch exactly when the CPU's icc (cpu/sparc/state.ts,
 * from the same operands) satisfies the branch's condition; likewise the result register against
 * 0 after `addcc`/`subcc` (be, bne, bneg, bpos) and after a logical cc operation (cpu/sparc/ops.ts ICOND, manual Table
 * F-7). And the compiled condition (decideSource) agrees with the interpreter's (decideEdge).
 * The programs' ground-truth tests (programs.test.ts, test/regen) check the whole chain.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PhysMem } from '../../cpu/physmem.js';
import { ICOND_NAMES } from '../../cpu/sparc/opcodes.js';
import { ICOND } from '../../cpu/sparc/ops.js';
import { CC_ADD, CC_LOGIC, CC_SUB, SparcState } from '../../cpu/sparc/state.js';
import { decideEdge, decideSource } from '../../regen/decide.js';
import { SPARC_RESULT, SPARC_SUB, SPARC_TST } from '../../tracer/predicates.js';
import type { SDecide } from '../../format/schema.js';

const word = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, 1, -1, 2 ** 31 - 1, -(2 ** 31)));
const T = 7;
const F = 9;

function taken(st: SparcState, branch: string): boolean {
  const cond = ICOND_NAMES.indexOf(branch.slice(1) as (typeof ICOND_NAMES)[number]);
  expect(cond).toBeGreaterThanOrEqual(0);
  return ICOND[(cond << 4) | st.icc] !== 0;
}

describe('decided SPARC branches', () => {
  const st = new SparcState(new PhysMem(4096, 'big'));
  it('after cmp a, b: the comparison equals the CPU condition', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        st.ccOp = CC_SUB;
        st.ccA = a;
        st.ccB = b;
        for (const [br, cmp] of Object.entries(SPARC_SUB)) {
          expect(decideEdge([cmp, 1, 2, T, F], a, b) === T, `${br} ${a} ${b}`).toBe(taken(st, br));
        }
      }),
      { numRuns: 2000 },
    );
  });
  it('after tst x: the comparison with 0 equals the CPU condition', () => {
    fc.assert(
      fc.property(word, (x) => {
        st.ccOp = CC_LOGIC;
        st.ccA = x;
        for (const [br, cmp] of Object.entries(SPARC_TST)) {
          expect(decideEdge([cmp, 1, { k: 0 }, T, F], x, 0) === T, `${br} ${x}`).toBe(taken(st, br));
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('decided SPARC branches on a cc instruction\'s result', () => {
  const st = new SparcState(new PhysMem(4096, 'big'));
  it('after addcc/subcc rd: the result against 0 equals the CPU condition (Z and N only)', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        for (const [op, r] of [[CC_ADD, (a + b) | 0], [CC_SUB, (a - b) | 0]] as const) {
          st.ccOp = op;
          st.ccA = a;
          st.ccB = b;
          for (const [br, cmp] of Object.entries(SPARC_RESULT)) {
            expect(decideEdge([cmp, 1, { k: 0 }, T, F], r, 0) === T, `${op} ${br} ${a} ${b}`).toBe(taken(st, br));
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
  it('no other branch is a function of an addcc/subcc result alone', () => {
    // bl after subcc is N xor V: 0x7fffffff - (-1) overflows to a negative result, yet a > b.
    expect(SPARC_RESULT['bl']).toBeUndefined();
    st.ccOp = CC_SUB;
    st.ccA = 0x7fffffff;
    st.ccB = -1;
    expect(taken(st, 'bl')).toBe(false);
    expect(decideEdge(['lt', 1, { k: 0 }, T, F], (0x7fffffff - -1) | 0, 0)).toBe(T);
  });
});

describe('decided predicates, compiled and interpreted', () => {
  const cmps: SDecide[0][] = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'ltu', 'leu', 'gtu', 'geu'];
  const fns = cmps.map((c) => new Function('a', 'b', `return ${decideSource([c, 1, 2, T, F], 'a', 'b')};`) as (a: number, b: number) => boolean);
  it('decideSource and decideEdge agree', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        cmps.forEach((c, i) => expect(fns[i]!(a, b) ? T : F, `${c} ${a} ${b}`).toBe(decideEdge([c, 1, 2, T, F], a, b)));
      }),
      { numRuns: 1000 },
    );
  });
});
