/**
 * Per-instruction differential against qemu-sparc: for each CPU test program, the state before
 * every instruction (PC, nPC, %g/%o/%l/%i of the current window, PSR icc, Y) on emu's reference
 * interpreter under the test Linux layer equals `qemu-sparc -singlestep -d cpu,nochain` (see
 * qemulog.ts for the normalisations).
 */
import { describe, expect, it } from 'vitest';
import { toolsAvailable } from '../../support/tools.js';
import { STEP_PROGS, buildProg } from './progs.js';
import { compareTraces, emuTrace, qemuTrace } from './qemulog.js';

const have = toolsAvailable({ qemu: true });

describe.skipIf(!have)('SPARC per-instruction state vs qemu-sparc', () => {
  for (const name of STEP_PROGS) {
    it(`${name}: identical state before every instruction`, () => {
      const exe = buildProg(name);
      const q = qemuTrace(exe);
      expect(q.length).toBeGreaterThan(1000);
      const e = emuTrace(exe, 'interp', q[0]!.r[14]!, q.length + 10);
      expect(compareTraces(q, e)).toBeUndefined();
      expect(e.length).toBe(q.length);
    });
  }
});
