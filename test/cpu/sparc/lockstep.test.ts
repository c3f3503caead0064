/**
 * Both engines in lockstep on programs generated from the opcode table: the interpreter and the
 * translator run the same program on identical machines with random budgets (so runs end between
 * arbitrary instructions), and every architectural value (all windows, PSR, WIM, TBR, Y, PC/nPC,
 * FPU, MMU registers, TLB statistics, retired count, memory digest) must agree after every run
 * and every trap. Traps are handled identically on both (machine.ts).
 */
import { describe, expect, it } from 'vitest';
import { OPCODES } from '../../../cpu/sparc/opcodes.js';
import { Prng } from '../../../format/prng.js';
import { lockstep, randomProgram, twoMachines } from './randprog.js';

describe('SPARC engines in lockstep', () => {
  const blockRuns: number[] = [];
  for (let seed = 1; seed <= 12; seed++) {
    it(`random user program, seed ${seed}`, () => {
      const rng = new Prng(seed);
      const words = randomProgram(rng, { supervisor: false, length: 600 });
      const [a, b] = twoMachines(words, seed, false);
      const n = lockstep(a, b, rng, 20000);
      expect(n).toBeGreaterThan(5000);
      blockRuns.push(b.cpu.translator.blockRuns);
    });
  }
  it('ran the translator\'s code in those programs, not only the interpreter', () => {
    // Small budgets, traps and CTI couples send part of the work to the interpreter.
    expect(blockRuns.length).toBe(12);
    expect(blockRuns.reduce((x, y) => x + y, 0)).toBeGreaterThan(10000);
  });
  it('random supervisor programs (PSR, WIM, TBR, alternate spaces, MMU registers)', () => {
    // Random PSR writes may clear ET, and a later trap then stops the machine in error mode: some
    // programs end early, on both engines alike.
    let long = 0;
    for (let seed = 101; seed <= 112; seed++) {
      const rng = new Prng(seed);
      const words = randomProgram(rng, { supervisor: true, length: 600 });
      const [a, b] = twoMachines(words, seed, true);
      if (lockstep(a, b, rng, 4000) > 1000) long++;
    }
    expect(long).toBeGreaterThan(6);
  });

  it('covers every opcode-table entry in the generated programs', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new Prng(seed);
      for (const w of randomProgram(rng, { supervisor: false, length: 600 })) {
        for (const s of OPCODES) if (((w & s.mask) >>> 0) === s.match) seen.add(s.name);
      }
    }
    for (let seed = 101; seed <= 130; seed++) {
      const rng = new Prng(seed);
      for (const w of randomProgram(rng, { supervisor: true, length: 600 })) {
        for (const s of OPCODES) if (((w & s.mask) >>> 0) === s.match) seen.add(s.name);
      }
    }
    const missing = OPCODES.filter((s) => !seen.has(s.name)).map((s) => s.name);
    expect(missing).toEqual([]);
  });

  it('with 4 and 16 register windows', () => {
    for (const nw of [4, 16]) {
      const rng = new Prng(nw);
      const words = randomProgram(rng, { supervisor: false, length: 400 });
      const [a, b] = twoMachines(words, nw, false, nw);
      lockstep(a, b, rng, 3000);
    }
  });
});

