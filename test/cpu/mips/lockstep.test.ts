/**
 * Both engines in lockstep on whole programs (test programs and, when built, the Linux-flavour
 * guest programs): identical architectural state after every block and identical memory.
 */
import { describe, expect, it } from 'vitest';
import { toolsAvailable } from '../../support/tools.js';
import { MipsLinuxProcess } from '../../../bench/linuxuser_mips.js';
import { buildProg } from './support/progs.js';
import { lockstep } from './support/lockstep.js';
import { Prng } from '../../../format/prng.js';
import type { FastEngine } from '../../../cpu/mips/translate.js';

const HAVE = toolsAvailable();

function pair(exe: string) {
  const mk = (engine: 'ref' | 'fast'): MipsLinuxProcess =>
    new MipsLinuxProcess({ elf: exe, engine, argv: [exe], memSize: 16 << 20 });
  const f = mk('fast');
  const r = mk('ref');
  const side = (p: MipsLinuxProcess) => ({ cpu: p.cpu, handle: () => p.handleException(), done: () => p.done });
  return { f, r, fs: side(f), rs: side(r) };
}

describe.skipIf(!HAVE)('MIPS engines in lockstep', () => {
  for (const target of ['mipsel', 'mips'] as const) {
    for (const prog of ['partial', 'control', 'intops', 'fpu', 'fpregs']) {
      it(`${prog} ${target}, block by block`, () => {
        const { f, r, fs, rs } = pair(buildProg(target, prog));
        const res = lockstep(fs, rs, 5_000_000);
        expect(res.diffs).toEqual([]);
        expect(f.done).toBe(true);
        expect(f.user.stdout.toString()).toBe(r.user.stdout.toString());
        expect(res.blocks).toBeGreaterThan(10);
      });
      it(`${prog} ${target}, regions from the second dispatch, random budgets`, () => {
        const { f, r, fs, rs } = pair(buildProg(target, prog));
        const eng = f.cpu.engine as FastEngine;
        eng.regionThreshold = 2;
        eng.regionStart = 0;
        const rng = new Prng(prog.length * 131 + target.length);
        const res = lockstep(fs, rs, 5_000_000, 200, () => 1 + rng.below(rng.below(2) ? 40 : 4000));
        expect(res.diffs).toEqual([]);
        expect(f.done).toBe(true);
        expect(f.user.stdout.toString()).toBe(r.user.stdout.toString());
        if (res.instructions > 10_000) expect(eng.regions).toBeGreaterThan(0);
      });
      if (target === 'mipsel' && (prog === 'control' || prog === 'intops')) {
        it(`${prog} ${target}, regions from a start mid-run (blocks already past the threshold form theirs)`, () => {
          const { f, r, fs, rs } = pair(buildProg(target, prog));
          const eng = f.cpu.engine as FastEngine;
          eng.regionThreshold = 8;
          eng.regionStart = 3000;
          const rng = new Prng(prog.length * 71 + 5);
          const res = lockstep(fs, rs, 5_000_000, 200, () => 1 + rng.below(rng.below(2) ? 40 : 4000));
          expect(res.diffs).toEqual([]);
          expect(f.done).toBe(true);
          expect(f.user.stdout.toString()).toBe(r.user.stdout.toString());
          expect(res.instructions).toBeGreaterThan(20_000);
          expect(eng.regions).toBeGreaterThan(0);
        });
      }
      it(`${prog} ${target}, random budgets (links, budget tails)`, () => {
        const { f, r, fs, rs } = pair(buildProg(target, prog));
        const rng = new Prng(prog.length * 977 + target.length);
        const res = lockstep(fs, rs, 5_000_000, 200, () => 1 + rng.below(rng.below(2) ? 40 : 4000));
        expect(res.diffs).toEqual([]);
        expect(f.done).toBe(true);
        expect(f.user.stdout.toString()).toBe(r.user.stdout.toString());
      });
    }
  }
});
