/**
 * Every row of the MIPS opcode table against qemu-user, the oracle of what each instruction
 * computes (the engines share one definition of it, so lockstep no longer checks it):
 *   - the rows qemu runs as the R2000/R2010 do: seeded instances of each (support/rowprog.ts) in
 *     one program per byte order, the state before every instruction (PC, GPRs, HI, LO, FCR31,
 *     FGRs) compared with `qemu -singlestep -d cpu,fpu`;
 *   - the rows that end a process in user mode (break; add, addi, sub on overflow; coprocessor 0,
 *     which user mode may not use, and coprocessor 2, absent): one program each, the same state
 *     up to the instruction and the same signal. What the coprocessor-0 rows do in kernel mode
 *     qemu-user cannot show; exceptions.test.ts checks it against the manual on a bare machine;
 *   - the rows qemu's MIPS32 model defines otherwise (rowprog.ts qemuDiffers): on a bare machine,
 *     each raises the exception its row declares (RI, CpU, or the FPA's Unimplemented Operation).
 * The last test lists every row none of these reached, and fails if there is one.
 */
import { describe, expect, it } from 'vitest';
import { lookup } from '../../../cpu/mips/decode.js';
import { OPCODES, type OpSpec } from '../../../cpu/mips/opcodes.js';
import { EXC_CPU, EXC_INT, EXC_RI, SR_CU1 } from '../../../cpu/mips/cp0.js';
import { STOP_EXCEPTION } from '../../../cpu/mips/cpu.js';
import { RowsReached } from '../../support/rowcheck.js';
import { toolsAvailable } from '../../support/tools.js';
import { Bare } from './support/bare.js';
import { buildAsm } from './support/progs.js';
import { Prng } from '../../../format/prng.js';
import { qemuDiffers, rowProgram, signalOf, signalProgram, steppedRows } from './support/rowprog.js';
import { stepDiff } from './support/stepdiff.js';

const HAVE = toolsAvailable({ qemu: true });
/** Instances of each row per program. */
const PER_ROW = 12;
const SIGNALS: Record<number, string> = { 4: 'SIGILL', 5: 'SIGTRAP', 8: 'SIGFPE' };

describe.skipIf(!HAVE)('MIPS opcode-table rows against qemu-user', () => {
  const reached = new RowsReached(lookup);

  for (const target of ['mipsel', 'mips'] as const) {
    it(`${target}: the state after every instance of every row qemu runs as the R2000 does`, () => {
      const exe = buildAsm(target, 'rows', rowProgram(steppedRows(), target === 'mips' ? 2 : 1, PER_ROW));
      const r = stepDiff(target, exe, 'ref', true);
      expect(r.mismatches).toEqual([]);
      expect(r.qemuSignal).toBeNull();
      expect(r.emuExit).toEqual({ status: 0, signal: null });
      reached.words(r.executed, 'per-instruction state vs qemu');
    });

    it(`${target}: the rows that end the process give qemu's signal after the same state`, () => {
      const cases: [OpSpec, boolean, string][] = [
        ...OPCODES.filter((r) => signalOf(r)).map((r): [OpSpec, boolean, string] => [r, false, signalOf(r)!]),
        ...OPCODES.filter((r) => r.exceptions.includes('Ov')).map((r): [OpSpec, boolean, string] => [r, true, 'SIGFPE']),
      ];
      for (const [r, overflow, signal] of cases) {
        const exe = buildAsm(target, `sig-${r.op}${overflow ? '-ov' : ''}`, signalProgram(r, 7, overflow));
        const res = stepDiff(target, exe, 'ref', false);
        expect(res.mismatches, r.name).toEqual([]);
        expect(res.qemuSignal, r.name).toBe(signal);
        expect(res.emuExit.signal === null ? null : SIGNALS[res.emuExit.signal], r.name).toBe(signal);
        expect(lookup(res.executed[res.executed.length - 1]!), r.name).toBe(r);
        if (!overflow) reached.words(res.executed.slice(-1), `${signal} in user mode, as qemu`);
      }
    });
  }

  it('the rows qemu defines otherwise raise what their row declares (bare machine, user mode)', () => {
    const rng = new Prng(3);
    for (const r of OPCODES.filter((x) => qemuDiffers(x))) {
      let w: number;
      do w = ((rng.u32() & ~r.mask) | r.match) >>> 0;
      while (lookup(w) !== r);
      const m = new Bare('ref');
      m.code(0x10000, [w]);
      m.map(0, 0x00400000, 0x10000);
      m.user(0x00400000);
      m.cpu.setStatus(m.cpu.status | SR_CU1);
      expect(m.cpu.run(1), r.name).toBe(STOP_EXCEPTION);
      if (r.cls === 'funimp') {
        expect(m.cpu.excCode, r.name).toBe(EXC_INT);
        expect((m.cpu.fpu.fcsr >>> 12) & 0x3f, r.name).toBe(0x20);
      } else if (r.cls === 'cpz') {
        expect([m.cpu.excCode, (m.cpu.cause >>> 28) & 3], r.name).toEqual([EXC_CPU, r.cop]);
      } else {
        expect(m.cpu.excCode, r.name).toBe(EXC_RI);
      }
      reached.how.set(r.name, `qemu differs (${qemuDiffers(r)}): the row's exception on a bare machine`);
    }
  });

  it('every row of the table was reached', () => {
    expect(reached.missing(OPCODES)).toEqual([]);
  });
});
