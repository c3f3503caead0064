/**
 * Every row of the SPARC opcode table against qemu-sparc, the oracle of what each instruction
 * computes (the engines share one definition of it, so lockstep no longer checks it):
 *   - the rows qemu runs as a v8 CPU does: seeded instances of each (rowprog.ts) in one program,
 *     the state before every instruction (PC, nPC, the current window, icc, Y, %f0-%f31, FSR)
 *     compared with `qemu-sparc -singlestep -d cpu,fpu`;
 *   - privileged rows and unimp: one program each, the same state up to the instruction and the
 *     same signal (SIGILL) in user mode. What the privileged rows do in supervisor mode qemu-user
 *     cannot show; traps.test.ts and mmu.test.ts check it against the manual on a bare machine;
 *   - the rows whose trap qemu-user stops on ("unhandled trap": the coprocessor operations and
 *     branches) and the rows qemu's CPU model defines otherwise (quad FPops, ancillary state
 *     registers, coprocessor loads and stores, stdfq in user mode): on a bare machine in user
 *     mode, each raises the trap a v8 CPU without coprocessor and quad FPops raises.
 * The last test lists every row none of these reached, and fails if there is one.
 */
import { describe, expect, it } from 'vitest';
import { RUN_TRAP } from '../../../cpu/sparc/index.js';
import { lookup } from '../../../cpu/sparc/decode.js';
import { OPCODES, type OpSpecFull } from '../../../cpu/sparc/opcodes.js';
import { Prng } from '../../../format/prng.js';
import {
  FTT_UNIMPLEMENTED_FPOP, TT_CP_DISABLED, TT_FP_EXCEPTION, TT_ILLEGAL_INSTRUCTION, TT_PRIVILEGED_INSTRUCTION,
} from '../../../cpu/sparc/traps.js';
import { RowsReached } from '../../support/rowcheck.js';
import { toolsAvailable } from '../../support/tools.js';
import { BareMachine } from './machine.js';
import { buildAsm } from './progs.js';
import { compareTraces, emuTrace, qemuTrace } from './qemulog.js';
import { qemuDiffers, qemuUnhandled, rowProgram, signalOf, signalProgram, steppedRows } from './rowprog.js';

const HAVE = toolsAvailable({ qemu: true });
/** `ta 0x10`: the Linux system call. */
const EXIT_TRAP = 0x91d02010;
/** Instances of each row. */
const PER_ROW = 10;

/** The trap a v8 CPU without coprocessor and quad FPops raises for row r in user mode. */
function v8Trap(r: OpSpecFull): number {
  if (r.priv) return TT_PRIVILEGED_INSTRUCTION;
  if (r.cp) return TT_CP_DISABLED;
  if (r.unimpl) return TT_FP_EXCEPTION;
  return TT_ILLEGAL_INSTRUCTION;
}

describe.skipIf(!HAVE)('SPARC opcode-table rows against qemu-sparc', () => {
  const reached = new RowsReached(lookup);

  it('the state after every instance of every row qemu runs as a v8 CPU does', () => {
    const exe = buildAsm('rows', rowProgram(steppedRows(), 1, PER_ROW));
    const q = qemuTrace(exe, [], true);
    const executed: number[] = [];
    const e = emuTrace(exe, 'interp', q[0]!.r[14]!, q.length + 10, [], executed);
    expect(compareTraces(q, e)).toBeUndefined();
    expect(e.length).toBe(q.length);
    // It ran to its end: exit(0), `ta 0x10` with %g1 = 1.
    expect([executed[executed.length - 1], e[e.length - 1]!.r[1]]).toEqual([EXIT_TRAP, 1]);
    reached.words(executed, 'per-instruction state vs qemu');
  });

  it('privileged rows and unimp end a user process with SIGILL after the same state', () => {
    for (const r of OPCODES.filter((x) => signalOf(x))) {
      const exe = buildAsm(`sig-${r.name}`, signalProgram(r, 5, lookup));
      const q = qemuTrace(exe);
      const executed: number[] = [];
      const e = emuTrace(exe, 'interp', q[0]!.r[14]!, q.length + 10, [], executed);
      expect(compareTraces(q, e), r.name).toBeUndefined();
      expect(lookup(executed[executed.length - 1]!), r.name).toBe(r);
      reached.words(executed.slice(-1), 'SIGILL in user mode, as qemu');
    }
  });

  it('the rows qemu stops on or defines otherwise raise the v8 trap (bare machine, user mode)', () => {
    const rng = new Prng(9);
    for (const r of OPCODES.filter((x) => qemuUnhandled(x) || qemuDiffers(x))) {
      let w: number;
      do w = ((rng.u32() & ~r.mask) | r.match) >>> 0;
      while (lookup(w) !== r);
      const m = new BareMachine({ engine: 'interp' });
      m.loadProgram([w]);
      m.start();
      expect(m.cpu.run(1), r.name).toBe(RUN_TRAP);
      expect(m.cpu.tt, r.name).toBe(v8Trap(r));
      if (r.unimpl) expect(m.cpu.fpu.ftt, r.name).toBe(FTT_UNIMPLEMENTED_FPOP);
      reached.how.set(r.name, `${qemuUnhandled(r) ?? `qemu differs (${qemuDiffers(r)})`}: the v8 trap on a bare machine`);
    }
  });

  it('every row of the table was reached', () => {
    expect(reached.missing(OPCODES)).toEqual([]);
  });
});
