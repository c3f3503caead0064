/**
 * Control transfer and traps, on both engines, against the manual's definitions: annulled
 * branches in every condition (Bicc under all 16 icc values, FBfcc under all 4 fcc values), CTI
 * couples, window overflow/underflow at every CWP and WIM combination, every trap type the CPU
 * raises (with trap entry's PSR, CWP, %l1/%l2 and retired counts), interrupts between any two
 * instructions with PIL masking, and error mode.
 */
import { describe, expect, it } from 'vitest';
import { RUN_BUDGET, RUN_ERROR, RUN_TRAP, type EngineName } from '../../../cpu/sparc/index.js';
import { ICOND, FCOND } from '../../../cpu/sparc/ops.js';
import { ICOND_NAMES, FCOND_NAMES } from '../../../cpu/sparc/opcodes.js';
import { PSR_EF, PSR_ET, PSR_PS, PSR_S } from '../../../cpu/sparc/state.js';
import * as T from '../../../cpu/sparc/traps.js';
import { windowOverflow, windowUnderflow } from '../../../cpu/sparc/windows.js';
import { A, G, L, O, R, SP } from './asm.js';
import { ACC_RW, ACC_SRWX, BareMachine, CODE_VA, DATA_VA, STACK_TOP, type MachineOptions } from './machine.js';

const ENGINES: EngineName[] = ['interp', 'fast'];

function machine(engine: EngineName, words: number[], o: Partial<MachineOptions> = {}, start: Parameters<BareMachine['start']>[0] = {}): BareMachine {
  const m = new BareMachine({ engine, ...o });
  m.loadProgram(words);
  m.start(start);
  return m;
}

/** Runs the same program on both engines with `body`, then requires identical final states. */
function both(words: number[], o: Partial<MachineOptions>, start: Parameters<BareMachine['start']>[0], body: (m: BareMachine) => void): BareMachine[] {
  const ms = ENGINES.map((e) => {
    const m = machine(e, words, o, start);
    body(m);
    return m;
  });
  expect(ms[1]!.state()).toEqual(ms[0]!.state());
  return ms;
}

describe('SPARC branches and annulment', () => {
  it('Bicc: every condition, taken and untaken, with and without annul, under all 16 icc', () => {
    const psrBase = PSR_EF | PSR_S | PSR_PS | PSR_ET;
    let checked = 0;
    for (let icc = 0; icc < 16; icc++) {
      for (let cond = 0; cond < 16; cond++) {
        for (const annul of [false, true]) {
          const words = [
            ...A.set(G(1), psrBase | (icc << 20)),
            A.op('wrpsr', G(0), G(1), G(0)),
            A.br(`b${ICOND_NAMES[cond]}`, 3, annul),
            A.op('add', G(2), G(2), 1),
            A.op('add', G(2), G(2), 2),
            A.op('add', G(2), G(2), 4),
            A.trap('ta', 0),
          ];
          const taken = ICOND[(cond << 4) | icc] !== 0;
          const want = taken ? (cond === 8 && annul ? 4 : 5) : annul ? 6 : 7;
          for (const m of both(words, { supervisor: true }, {}, (m) => {
            expect(m.cpu.run(100)).toBe(RUN_TRAP);
          })) {
            expect(m.cpu.tt).toBe(T.TT_TRAP_INSTRUCTION);
            expect(m.cpu.getReg(2), `b${ICOND_NAMES[cond]}${annul ? ',a' : ''} icc=${icc}`).toBe(want);
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(512);
  });

  it('FBfcc: every condition under all 4 fcc values, with and without annul', () => {
    for (let fcc = 0; fcc < 4; fcc++) {
      for (let cond = 0; cond < 16; cond++) {
        for (const annul of [false, true]) {
          const words = [
            ...A.set(G(3), DATA_VA),
            A.mem('ldfsr', 0, G(3), 0),
            A.br(`fb${FCOND_NAMES[cond]}`, 3, annul),
            A.op('add', G(2), G(2), 1),
            A.op('add', G(2), G(2), 2),
            A.op('add', G(2), G(2), 4),
            A.trap('ta', 0),
          ];
          const taken = FCOND[(cond << 2) | fcc] !== 0;
          const want = taken ? (cond === 8 && annul ? 4 : 5) : annul ? 6 : 7;
          for (const m of both(words, {}, {}, (m) => {
            m.write32(DATA_VA, fcc << 10);
            expect(m.cpu.run(100)).toBe(RUN_TRAP);
          })) {
            expect(m.cpu.getReg(2), `fb${FCOND_NAMES[cond]}${annul ? ',a' : ''} fcc=${fcc}`).toBe(want);
          }
        }
      }
    }
  });

  it('CTI couples: every pair of delayed CTIs agrees on both engines, instruction by instruction', () => {
    // Index i of the code holds `xor %g2, i * 37 + 1, %g2` unless it is one of the CTIs; %g5 holds
    // CODE_VA for jmpl targets.
    const kinds: Record<string, (at: number, to: number) => number> = {
      'ba': (at, to) => A.br('ba', to - at),
      'ba,a': (at, to) => A.br('ba', to - at, true),
      'bne-taken': (at, to) => A.br('bne', to - at),
      'bne,a-taken': (at, to) => A.br('bne', to - at, true),
      'be-untaken': (at, to) => A.br('be', to - at),
      'be,a-untaken': (at, to) => A.br('be', to - at, true),
      'bn,a': (at, to) => A.br('bn', to - at, true),
      'call': (at, to) => A.call(to - at),
      'jmpl': (_at, to) => A.op('jmpl', O(7), G(5), to * 4),
    };
    let pairs = 0;
    for (const [k1, f1] of Object.entries(kinds)) {
      for (const [k2, f2] of Object.entries(kinds)) {
        const words = Array.from({ length: 40 }, (_, i) => A.op('xor', G(2), G(2), i * 37 + 1));
        words[4] = f1(4, 12);
        words[5] = f2(5, 24);
        words[39] = A.trap('ta', 0);
        const ms = ENGINES.map((e) => {
          const m = machine(e, words);
          m.cpu.setReg(5, CODE_VA);
          m.cpu.icc = 0; // Z = 0: bne taken, be untaken
          return m;
        });
        for (let s = 0; s < 40; s++) {
          const st = ms.map((m) => m.cpu.run(1));
          expect(st[1], `${k1} + ${k2} step ${s}`).toBe(st[0]);
          expect(ms[1]!.state(false), `${k1} + ${k2} step ${s}`).toEqual(ms[0]!.state(false));
          if (st[0] !== RUN_BUDGET) break;
        }
        pairs++;
      }
    }
    expect(pairs).toBe(81);
  });
});

describe('SPARC register windows', () => {
  it('SAVE and RESTORE trap exactly when WIM marks the next window, at every CWP and WIM', () => {
    const n = 8;
    const words = [A.op('save', SP, SP, -96), A.op('restore', G(0), G(0), G(0)), A.trap('ta', 0)];
    let cases = 0;
    for (let cwp = 0; cwp < n; cwp++) {
      for (let bit = 0; bit < n; bit++) {
        if (bit === cwp) continue; // the window a program runs in is never invalid
        for (const e of ENGINES) {
          const m = machine(e, words, { nwindows: n }, { cwp, wim: 1 << bit });
          const c = m.cpu;
          for (let w = 0; w < n; w++) if (w !== cwp) c.setWindowReg(w, 14, STACK_TOP - 2048 - 128 * w);
          for (let k = 0; k < 8; k++) c.setWindowReg(cwp, 16 + k, 0x1000 * cwp + k);
          const below = (cwp + n - 1) % n;
          const st = c.run(1);
          if (bit === below) {
            // window_overflow: trap entry in the invalid window itself (CWP - 1).
            expect(st).toBe(RUN_TRAP);
            expect(c.tt).toBe(T.TT_WIN_OVF);
            expect(c.cwp).toBe(below);
            expect(c.trapPc).toBe(CODE_VA);
            expect(c.trapNpc).toBe(CODE_VA + 4);
            expect(c.lastRetired).toBe(0);
            const spilled = (below + n - 1) % n;
            const sp = c.windowReg(spilled, 14) >>> 0;
            expect(windowOverflow(c)).toBeUndefined();
            expect(c.wim).toBe(1 << spilled);
            for (let k = 0; k < 8; k++) expect(m.read32(sp + 4 * k)).toBe(c.windowReg(spilled, 16 + k));
            expect(c.returnFromTrap(c.trapPc, c.trapNpc)).toBe(true);
            expect(c.run(1)).toBe(RUN_BUDGET);
          } else {
            expect(st).toBe(RUN_BUDGET);
          }
          expect(c.cwp).toBe(below);
          // RESTORE back to cwp: never invalid here (WIM has one bit, not cwp's).
          expect(c.run(1)).toBe(RUN_BUDGET);
          expect(c.cwp).toBe(cwp);
          for (let k = 0; k < 8; k++) expect(c.getReg(16 + k)).toBe(0x1000 * cwp + k);
          cases++;
        }
      }
    }
    expect(cases).toBe(8 * 7 * 2);
  });

  it('RESTORE into an invalid window underflows; the handler refills it from its %sp', () => {
    const n = 8;
    for (let cwp = 0; cwp < n; cwp++) {
      for (const e of ENGINES) {
        const above = (cwp + 1) % n;
        const m = machine(e, [A.op('restore', G(1), O(0), 5), A.trap('ta', 0)], { nwindows: n }, { cwp });
        const c = m.cpu;
        // The window above holds a frame that was spilled: put its registers at its %sp.
        const sp = STACK_TOP - 1024;
        c.setWindowReg(cwp, 30, sp); // %fp of cwp = %sp of the window above
        for (let k = 0; k < 16; k++) m.write32(sp + 4 * k, 0x5000 + k);
        c.setReg(8, 100);
        expect(c.run(1)).toBe(RUN_TRAP);
        expect(c.tt).toBe(T.TT_WIN_UNF);
        expect(c.cwp).toBe((cwp + n - 1) % n);
        expect(windowUnderflow(c)).toBeUndefined();
        expect(c.wim).toBe(1 << ((above + 1) % n));
        expect(c.returnFromTrap(c.trapPc, c.trapNpc)).toBe(true);
        expect(c.run(1)).toBe(RUN_BUDGET);
        expect(c.cwp).toBe(above);
        expect(c.getReg(1)).toBe(105);
        for (let k = 0; k < 8; k++) expect(c.getReg(16 + k)).toBe(0x5000 + k);
        for (let k = 0; k < 8; k++) expect(c.getReg(24 + k)).toBe(0x5008 + k);
      }
    }
  });

  it('deep SAVE/RESTORE chains with multi-bit WIMs agree on both engines', () => {
    const words: number[] = [];
    for (let k = 0; k < 20; k++) words.push(A.op('save', SP, SP, -96), A.op('add', L(0), G(0), k));
    for (let k = 0; k < 20; k++) words.push(A.op('add', G(1), G(1), L(0)), A.op('restore', G(0), G(0), G(0)));
    words.push(A.trap('ta', 0));
    for (const wim of [0x02, 0x06, 0x0a, 0x22, 0x82]) {
      const ms = both(words, {}, { wim }, (m) => {
        for (let k = 0; k < 1000 && m.trapLog.at(-1) !== T.TT_TRAP_INSTRUCTION; k++) if (!m.run(7)) break;
        if (wim === 0x02) expect(m.trapLog.at(-1)).toBe(T.TT_TRAP_INSTRUCTION);
      });
      expect(ms[0]!.trapLog.filter((t) => t === T.TT_WIN_OVF).length).toBeGreaterThan(10);
      // With one invalid window the v8 handlers keep every frame; with more (not a state v8
      // kernels use) frames are lost the same way on both engines.
      if (wim === 0x02) expect(ms[0]!.cpu.getReg(1)).toBe(190);
    }
  });
});

interface TrapCase {
  name: string;
  words: number[];
  tt: number;
  /** Instructions retired by the run that traps (a Ticc retires). */
  retired: number;
  o?: Partial<MachineOptions>;
  start?: Parameters<BareMachine['start']>[0];
  setup?: (m: BareMachine) => void;
  check?: (m: BareMachine) => void;
}

const trapCases: TrapCase[] = [
  { name: 'illegal_instruction: unimp', words: [A.nop, A.unimp], tt: T.TT_ILLEGAL_INSTRUCTION, retired: 1 },
  { name: 'illegal_instruction: V9 BPcc encoding', words: [0x10480004], tt: T.TT_ILLEGAL_INSTRUCTION, retired: 0 },
  { name: 'illegal_instruction: ldd with odd rd', words: [A.mem('ldd', R(9), G(3), 0)], tt: T.TT_ILLEGAL_INSTRUCTION, retired: 0, setup: (m) => { m.cpu.setReg(3, DATA_VA); } },
  { name: 'illegal_instruction: rd %asr', words: [0x8b44c000], tt: T.TT_ILLEGAL_INSTRUCTION, retired: 0 },
  { name: 'privileged_instruction: rd %psr in user mode', words: [A.op('rdpsr', G(1), G(0), G(0))], tt: T.TT_PRIVILEGED_INSTRUCTION, retired: 0 },
  { name: 'privileged_instruction: lda in user mode', words: [A.mem('lda', G(1), G(3), G(0), 0x0a)], tt: T.TT_PRIVILEGED_INSTRUCTION, retired: 0 },
  { name: 'fp_disabled: FPop with PSR.EF = 0', words: [A.fp('fadds', 1, 2, 3)], tt: T.TT_FP_DISABLED, retired: 0, start: { ef: false } },
  { name: 'fp_disabled: FP load with PSR.EF = 0', words: [A.mem('ldf', 1, G(3), 0)], tt: T.TT_FP_DISABLED, retired: 0, start: { ef: false }, setup: (m) => { m.cpu.setReg(3, DATA_VA); } },
  { name: 'mem_address_not_aligned: ld', words: [A.mem('ld', G(1), G(3), 2)], tt: T.TT_MEM_ADDRESS_NOT_ALIGNED, retired: 0, setup: (m) => { m.cpu.setReg(3, DATA_VA); } },
  { name: 'mem_address_not_aligned: ldd on a word boundary', words: [A.mem('ldd', G(2), G(3), 4)], tt: T.TT_MEM_ADDRESS_NOT_ALIGNED, retired: 0, setup: (m) => { m.cpu.setReg(3, DATA_VA); } },
  { name: 'mem_address_not_aligned: jmpl', words: [A.op('jmpl', G(0), G(3), 2), A.nop], tt: T.TT_MEM_ADDRESS_NOT_ALIGNED, retired: 0, setup: (m) => { m.cpu.setReg(3, CODE_VA); } },
  {
    name: 'fp_exception: unimplemented_FPop (quad)', words: [A.fp('faddq', 0, 4, 8)], tt: T.TT_FP_EXCEPTION, retired: 0,
    check: (m) => { expect((m.cpu.fpu.fsr >>> 14) & 7).toBe(T.FTT_UNIMPLEMENTED_FPOP); expect(m.cpu.fpu.queue).toEqual({ address: CODE_VA, instruction: A.fp('faddq', 0, 4, 8) }); },
  },
  {
    name: 'fp_exception: IEEE_754_exception (division by zero, DZM set)', words: [A.fp('fdivs', 1, 2, 3)], tt: T.TT_FP_EXCEPTION, retired: 0,
    setup: (m) => { m.cpu.fpu.tem = 0x02; m.cpu.fpu.setS(2, 0x3f800000); m.cpu.fpu.setS(3, 0); m.cpu.fpu.setS(1, 0x12345678); },
    check: (m) => { expect((m.cpu.fpu.fsr >>> 14) & 7).toBe(T.FTT_IEEE_754_EXCEPTION); expect(m.cpu.fpu.cexc).toBe(0x02); expect(m.cpu.fpu.aexc).toBe(0); expect(m.cpu.fpu.getS(1)).toBe(0x12345678); },
  },
  {
    name: 'fp_exception: invalid_fp_register (faddd %f1)', words: [A.fp('faddd', 0, 1, 2)], tt: T.TT_FP_EXCEPTION, retired: 0,
    check: (m) => expect((m.cpu.fpu.fsr >>> 14) & 7).toBe(T.FTT_INVALID_FP_REGISTER),
  },
  {
    name: 'fp_exception: sequence_error while the queue holds a trapped FPop', words: [A.fp('fadds', 1, 2, 3)], tt: T.TT_FP_EXCEPTION, retired: 0,
    setup: (m) => { m.cpu.fpu.queue = { address: 0x1234, instruction: 0x81a00020 }; },
    check: (m) => expect((m.cpu.fpu.fsr >>> 14) & 7).toBe(T.FTT_SEQUENCE_ERROR),
  },
  {
    name: 'data_access_exception: load from an unmapped page', words: [A.mem('ld', G(1), G(3), 0)], tt: T.TT_DATA_ACCESS_EXCEPTION, retired: 0,
    setup: (m) => { m.cpu.setReg(3, 0x00700000); },
    check: (m) => { expect(m.cpu.mmu.sfar).toBe(0x00700000); expect((m.cpu.mmu.sfsr >>> 2) & 7).toBe(1); expect((m.cpu.mmu.sfsr >>> 5) & 7).toBe(0); },
  },
  {
    name: 'data_access_exception: store to a read/execute page', words: [A.mem('st', G(1), G(3), 0)], tt: T.TT_DATA_ACCESS_EXCEPTION, retired: 0,
    setup: (m) => { m.cpu.setReg(3, CODE_VA); },
    check: (m) => { expect((m.cpu.mmu.sfsr >>> 2) & 7).toBe(2); expect((m.cpu.mmu.sfsr >>> 5) & 7).toBe(4); },
  },
  {
    name: 'data_access_exception: user access to a supervisor-only page', words: [A.mem('ld', G(1), G(3), 0)], tt: T.TT_DATA_ACCESS_EXCEPTION, retired: 0,
    setup: (m) => { m.map(0x00600000, 4096, ACC_SRWX); m.cpu.setReg(3, 0x00600000); },
    check: (m) => expect((m.cpu.mmu.sfsr >>> 2) & 7).toBe(3),
  },
  {
    name: 'instruction_access_exception: jump to an unmapped page', words: [A.op('jmpl', G(0), G(3), 0), A.nop], tt: T.TT_INSTRUCTION_ACCESS_EXCEPTION, retired: 2,
    setup: (m) => { m.cpu.setReg(3, 0x00700000); },
    check: (m) => expect(m.cpu.trapPc).toBe(0x00700000),
  },
  {
    name: 'instruction_access_exception: execute a read/write page', words: [A.op('jmpl', G(0), G(3), 0), A.nop], tt: T.TT_INSTRUCTION_ACCESS_EXCEPTION, retired: 2,
    setup: (m) => { m.map(0x00600000, 4096, ACC_RW); m.cpu.setReg(3, 0x00600000); },
  },
  { name: 'tag_overflow: taddcctv with a tag', words: [A.op('taddcctv', G(1), G(2), 1)], tt: T.TT_TAG_OVERFLOW, retired: 0, setup: (m) => { m.cpu.setReg(2, 4); m.cpu.setReg(1, 77); }, check: (m) => expect(m.cpu.getReg(1)).toBe(77) },
  { name: 'tag_overflow: tsubcctv arithmetic overflow', words: [A.op('tsubcctv', G(1), G(2), G(3))], tt: T.TT_TAG_OVERFLOW, retired: 0, setup: (m) => { m.cpu.setReg(2, 0x80000000 | 0); m.cpu.setReg(3, 4); } },
  { name: 'division_by_zero: udiv', words: [A.op('udiv', G(1), G(2), G(0))], tt: T.TT_DIVISION_BY_ZERO, retired: 0 },
  { name: 'division_by_zero: sdivcc', words: [A.nop, A.op('sdivcc', G(1), G(2), 0)], tt: T.TT_DIVISION_BY_ZERO, retired: 1 },
  { name: 'trap_instruction: ta 0x10 retires', words: [A.nop, A.trap('ta', 0x10)], tt: T.TT_TRAP_INSTRUCTION + 0x10, retired: 2, check: (m) => expect(m.cpu.trapPc).toBe(CODE_VA + 4) },
  { name: 'trap_instruction: rs1 + imm7, modulo 128', words: [A.trap('tne', 0x7f, G(3))], tt: T.TT_TRAP_INSTRUCTION + 0x7e, retired: 1, setup: (m) => { m.cpu.setReg(3, 0xff); m.cpu.icc = 0; } },
  { name: 'cp_disabled: coprocessor load', words: [A.mem('ldc', 0, G(3), 0)], tt: T.TT_CP_DISABLED, retired: 0, setup: (m) => { m.cpu.setReg(3, DATA_VA); } },
  { name: 'cp_disabled: CBccc', words: [A.br('cba', 4)], tt: T.TT_CP_DISABLED, retired: 0 },
  { name: 'data_access_error: beyond physical memory (MMU off)', words: [A.mem('ld', G(1), G(3), 0)], tt: T.TT_DATA_ACCESS_ERROR, retired: 0, o: { passThrough: true }, setup: (m) => { m.cpu.setReg(3, 0x00f00000); } },
  { name: 'instruction_access_error: beyond physical memory (MMU off)', words: [A.op('jmpl', G(0), G(3), 0), A.nop], tt: T.TT_INSTRUCTION_ACCESS_ERROR, retired: 2, o: { passThrough: true }, setup: (m) => { m.cpu.setReg(3, 0x00f00000); } },
];

describe('SPARC trap types', () => {
  for (const tc of trapCases) {
    it(tc.name, () => {
      both(tc.words, tc.o ?? {}, tc.start ?? {}, (m) => {
        tc.setup?.(m);
        const c = m.cpu;
        const cwp = c.cwp;
        const s = c.s;
        expect(c.run(50)).toBe(RUN_TRAP);
        expect(c.tt).toBe(tc.tt);
        expect(c.lastRetired).toBe(tc.retired);
        // Trap entry (manual 7.5): ET = 0, PS = old S, S = 1, CWP - 1, PC = TBR.
        expect(c.et).toBe(0);
        expect(c.ps).toBe(s);
        expect(c.s).toBe(1);
        expect(c.cwp).toBe((cwp + c.nwindows - 1) % c.nwindows);
        expect(c.pc >>> 0).toBe((c.tba | (tc.tt << 4)) >>> 0);
        expect(c.trapNpc).toBe((c.trapPc + 4) >>> 0);
        tc.check?.(m);
      });
    });
  }

  it('a trap with ET = 0 enters error mode', () => {
    both([A.op('wrpsr', G(0), G(1), G(0)), A.unimp], { supervisor: true }, {}, (m) => {
      m.cpu.setReg(1, PSR_EF | PSR_S | PSR_PS); // ET = 0, CWP 0
      expect(m.cpu.run(10)).toBe(RUN_ERROR);
      expect(m.cpu.errorMode).toBe(true);
      expect(m.cpu.tt).toBe(T.TT_ILLEGAL_INSTRUCTION);
      expect(m.cpu.run(10)).toBe(RUN_ERROR);
    });
  });
});

describe('SPARC interrupts and budgets', () => {
  const body = Array.from({ length: 60 }, (_, i) => A.op('add', G(1), G(1), i + 1));
  body.push(A.br('ba', -60), A.nop);

  it('an interrupt is taken between any two instructions, with the right %l1/%l2', () => {
    for (let k = 0; k < 70; k++) {
      both(body, {}, {}, (m) => {
        const c = m.cpu;
        expect(c.run(k)).toBe(RUN_BUDGET);
        expect(c.lastRetired).toBe(k);
        const pc = c.pc >>> 0;
        const npc = c.npc >>> 0;
        c.irl = 5;
        expect(c.run(100)).toBe(RUN_TRAP);
        expect(c.tt).toBe(T.TT_INTERRUPT_LEVEL + 5);
        expect(c.lastRetired).toBe(0);
        expect(c.trapPc).toBe(pc);
        expect(c.trapNpc).toBe(npc);
      });
    }
  });

  it('PIL masks lower levels, level 15 is not maskable, ET = 0 masks all', () => {
    for (const e of ENGINES) {
      const m = machine(e, body, { supervisor: true });
      const c = m.cpu;
      c.pil = 9;
      c.irl = 9;
      expect(c.run(10)).toBe(RUN_BUDGET);
      c.irl = 10;
      expect(c.run(10)).toBe(RUN_TRAP);
      expect(c.tt).toBe(T.TT_INTERRUPT_LEVEL + 10);
      expect(c.returnFromTrap(c.trapPc, c.trapNpc)).toBe(true);
      c.pil = 15;
      c.irl = 15;
      expect(c.run(10)).toBe(RUN_TRAP);
      expect(c.tt).toBe(T.TT_INTERRUPT_LEVEL + 15);
      // In the trap (ET = 0) nothing is taken: supervisor code runs on.
      expect(c.et).toBe(0);
    }
  });

  it('run(budget) retires exactly the budget, split anywhere, on both engines', () => {
    for (let split = 1; split < 130; split += 7) {
      const ms = both(body, {}, {}, (m) => {
        let left = 400;
        while (left > 0) {
          const b = Math.min(split, left);
          expect(m.cpu.run(b)).toBe(RUN_BUDGET);
          expect(m.cpu.lastRetired).toBe(b);
          left -= b;
        }
      });
      expect(ms[0]!.cpu.instret).toBe(400);
    }
  });
});
