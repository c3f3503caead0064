/**
 * Per-instruction differential tests against qemu-user (see support/stepdiff.ts): small programs,
 * both byte orders, both engines.
 */
import { describe, expect, it } from 'vitest';
import { toolsAvailable } from '../../support/tools.js';
import { buildProg } from './support/progs.js';
import { stepDiff } from './support/stepdiff.js';

const HAVE = toolsAvailable({ qemu: true });

const CASES: { prog: string; fpu?: boolean; signal?: string }[] = [
  { prog: 'partial' }, { prog: 'control' }, { prog: 'intops' }, { prog: 'fpu' }, { prog: 'fpregs', fpu: true },
  { prog: 'divzero', signal: 'SIGTRAP' },
];

const SIGNALS: Record<number, string> = { 5: 'SIGTRAP', 8: 'SIGFPE', 11: 'SIGSEGV' };

describe.skipIf(!HAVE)('MIPS per-instruction state equals qemu-user', () => {
  for (const target of ['mipsel', 'mips'] as const) {
    for (const engine of ['ref', 'fast'] as const) {
      for (const c of CASES) {
        it(`${c.prog} ${target} ${engine}`, () => {
          const exe = buildProg(target, c.prog, ['-DSMALL']);
          const r = stepDiff(target, exe, engine, c.fpu);
          expect(r.mismatches).toEqual([]);
          expect(r.instructions).toBeGreaterThan(c.signal ? 5 : 100);
          expect(r.emuStdout).toBe(r.qemuStdout);
          expect(r.emuExit.status).toBe(r.qemuStatus);
          expect(r.qemuSignal).toBe(c.signal ?? null);
          expect(r.emuExit.signal === null ? null : SIGNALS[r.emuExit.signal]).toBe(r.qemuSignal);
        });
      }
    }
  }
});
