/**
 * Exceptions, the kernel interface and the TLB on a bare machine, for both engines: overflow,
 * address errors (loads, stores, fetches), TLB refill/invalid/modify and their vectors, break,
 * syscall, RI, CpU, exceptions in delay slots, interrupts between any two instructions, exact
 * budgets, ASID changes and TLB rewrites (no stale translations), self-modifying code, and the
 * ground-truth sink.
 */
import { describe, expect, it } from 'vitest';
import { STOP_BUDGET, STOP_EXCEPTION, type TraceSink } from '../../../cpu/mips/cpu.js';
import {
  CAUSE_BD, EXC_ADEL, EXC_ADES, EXC_BP, EXC_CPU, EXC_INT, EXC_MOD, EXC_OV, EXC_RI, EXC_SYS, EXC_TLBL, EXC_TLBS,
  SR_CU1, SR_IEC, SR_IEP, SR_KUC, SR_KUP, VEC_GENERAL, VEC_UTLB,
} from '../../../cpu/mips/cp0.js';
import { Bare, enc } from './support/bare.js';

const T0 = 8, T1 = 9, T2 = 10, T3 = 11, RA = 31;
const CODE_VA = 0x00400000;
const CODE_PA = 0x10000;
const DATA_VA = 0x10000000;
const DATA_PA = 0x20000;
const RO_VA = 0x10001000;
const RO_PA = 0x21000;
const NOP = 0;
const li = (rt: number, v: number): number[] => [enc('lui', { rt, imm: v >>> 16 }), enc('ori', { rt, rs: rt, imm: v & 0xffff })];

function machine(engine: 'ref' | 'fast', words: number[], endian: 'little' | 'big' = 'little'): Bare {
  const m = new Bare(engine, endian);
  m.code(CODE_PA, words);
  m.map(0, CODE_VA, CODE_PA);
  m.map(1, DATA_VA, DATA_PA);
  m.map(2, RO_VA, RO_PA, { ro: true });
  m.user(CODE_VA);
  return m;
}

/** Checks the common parts of an exception entry from user mode with interrupts on. */
function entered(m: Bare, code: number, epc: number, vector = VEC_GENERAL): void {
  const c = m.cpu;
  expect(c.excCode).toBe(code);
  expect(c.epc >>> 0).toBe(epc >>> 0);
  expect(c.pc >>> 0).toBe(vector >>> 0);
  // KU/IE stack pushed: kernel mode, interrupts off; the previous pair is the user's.
  expect(c.status & (SR_KUC | SR_IEC)).toBe(0);
  expect(c.status & (SR_KUP | SR_IEP)).toBe(SR_KUP | SR_IEP);
}

for (const engine of ['ref', 'fast'] as const) {
  describe(`MIPS exceptions (${engine} engine)`, () => {
    it('overflow in add, addi and sub; none in addu/addiu/subu', () => {
      for (const [name, f] of [
        ['add', { rd: T2, rs: T0, rt: T1 }], ['addi', { rt: T2, rs: T0, imm: 1 }], ['sub', { rd: T2, rs: T3, rt: T1 }],
      ] as const) {
        const m = machine(engine, [...li(T0, 0x7fffffff), ...li(T3, 0x80000000), enc('addiu', { rt: T1, imm: 1 }),
          enc('addu', { rd: T2, rs: T0, rt: T1 }), enc('subu', { rd: T2, rs: T3, rt: T1 }), enc('addiu', { rt: T2, rs: T0, imm: 1 }),
          enc('addiu', { rt: T2, imm: 7 }), enc(name, f)]);
        expect(m.cpu.run(100)).toBe(STOP_EXCEPTION);
        entered(m, EXC_OV, CODE_VA + 36);
        expect(m.cpu.r[T2]).toBe(7); // destination untouched
        expect(m.cpu.icount).toBe(9); // the faulting instruction did not retire
        expect(m.cpu.excNextPC).toBe(CODE_VA + 40);
        expect(m.cpu.cause & CAUSE_BD).toBe(0);
      }
    });

    it('address errors: unaligned loads and stores, kernel addresses from user mode', () => {
      const cases: [number, number, number][] = [
        [enc('lw', { rt: T1, rs: T0, imm: 2 }), EXC_ADEL, DATA_VA + 2],
        [enc('lh', { rt: T1, rs: T0, imm: 1 }), EXC_ADEL, DATA_VA + 1],
        [enc('lhu', { rt: T1, rs: T0, imm: 3 }), EXC_ADEL, DATA_VA + 3],
        [enc('sw', { rt: T1, rs: T0, imm: 1 }), EXC_ADES, DATA_VA + 1],
        [enc('sh', { rt: T1, rs: T0, imm: 5 }), EXC_ADES, DATA_VA + 5],
        [enc('lb', { rt: T1, rs: T3, imm: 0 }), EXC_ADEL, 0x80000000],
        [enc('sb', { rt: T1, rs: T3, imm: 16 }), EXC_ADES, 0x80000010],
        [enc('lwl', { rt: T1, rs: T3, imm: 1 }), EXC_ADEL, 0x80000001],
      ];
      for (const [w, code, bad] of cases) {
        const m = machine(engine, [...li(T0, DATA_VA), ...li(T3, 0x80000000), w]);
        expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
        entered(m, code, CODE_VA + 16);
        expect(m.cpu.badVAddr >>> 0).toBe(bad >>> 0);
        expect(m.cpu.icount).toBe(4);
      }
    });

    it('address errors on instruction fetch: unaligned target, kernel target from user mode', () => {
      for (const target of [CODE_VA + 0x102, 0x80001000]) {
        const m = machine(engine, [...li(T0, target), enc('jr', { rs: T0 }), NOP]);
        expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
        // The jump and its delay slot retired; the fetch at the target faults, EPC = target.
        entered(m, EXC_ADEL, target);
        expect(m.cpu.badVAddr >>> 0).toBe(target >>> 0);
        expect(m.cpu.icount).toBe(4);
      }
    });

    it('TLB refill (UTLB vector) for loads, stores and fetches; Context and EntryHi', () => {
      const va = 0x12345678;
      for (const [w, code] of [[enc('lw', { rt: T1, rs: T0, imm: 0 }), EXC_TLBL], [enc('sw', { rt: T1, rs: T0, imm: 0 }), EXC_TLBS]] as const) {
        const m = machine(engine, [...li(T0, va & ~3), w]);
        m.cpu.writeCp0(4, 0xffe00000); // Context.PTEBase
        m.cpu.setEntryHi(5 << 6);
        m.user(CODE_VA, 5);
        m.map(0, CODE_VA, CODE_PA, { asid: 5 });
        expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
        entered(m, code, CODE_VA + 8, VEC_UTLB);
        expect(m.cpu.badVAddr >>> 0).toBe((va & ~3) >>> 0);
        expect(m.cpu.context >>> 0).toBe((0xffe00000 | ((va >>> 12) << 2)) >>> 0);
        expect(m.cpu.entryHi >>> 0).toBe(((va & 0xfffff000) | (5 << 6)) >>> 0);
        // The kernel refills from EntryHi and retries: the access then completes.
        m.cpu.entryLo = DATA_PA | 0x600;
        m.cpu.tlbWriteRandom();
        m.cpu.returnFromException(m.cpu.epc);
        expect(m.cpu.status & SR_KUC).toBe(SR_KUC);
        expect(m.cpu.run(1)).toBe(STOP_BUDGET);
        expect(m.cpu.icount).toBe(3);
      }
      // Fetch from an unmapped page.
      const m = machine(engine, [...li(T0, 0x00800000), enc('jr', { rs: T0 }), NOP]);
      expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
      entered(m, EXC_TLBL, 0x00800000, VEC_UTLB);
    });

    it('TLB invalid entry uses the general vector; TLB modify on a clean page', () => {
      const m = machine(engine, [...li(T0, 0x10002000), enc('lw', { rt: T1, rs: T0, imm: 0 })]);
      m.map(3, 0x10002000, 0x22000, { invalid: true });
      expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
      entered(m, EXC_TLBL, CODE_VA + 8, VEC_GENERAL);
      const m2 = machine(engine, [...li(T0, RO_VA), enc('lw', { rt: T1, rs: T0, imm: 4 }), enc('sw', { rt: T1, rs: T0, imm: 4 })]);
      m2.mem.write32(RO_PA + 4, 0x5a5a);
      expect(m2.cpu.run(10)).toBe(STOP_EXCEPTION);
      entered(m2, EXC_MOD, CODE_VA + 12, VEC_GENERAL);
      expect(m2.cpu.r[T1]).toBe(0x5a5a); // the load from the clean page worked
      expect(m2.cpu.badVAddr >>> 0).toBe(RO_VA + 4);
    });

    it('a kseg2 miss in kernel mode goes to the general vector', () => {
      const m = new Bare(engine);
      m.code(0x3000, [...li(T0, 0xc0001000), enc('lw', { rt: T1, rs: T0, imm: 0 })]);
      m.cpu.setStatus(0); // kernel mode, normal vectors
      m.cpu.setPC(0x80003000);
      expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
      expect(m.cpu.excCode).toBe(EXC_TLBL);
      expect(m.cpu.pc >>> 0).toBe(VEC_GENERAL);
      expect(m.cpu.epc >>> 0).toBe(0x80003008);
    });

    it('break and syscall retire, then trap with EPC on themselves', () => {
      for (const [w, code] of [[enc('break', { code: 7 << 10 }), EXC_BP], [enc('syscall'), EXC_SYS]] as const) {
        const m = machine(engine, [enc('addiu', { rt: T0, imm: 1 }), w, enc('addiu', { rt: T0, rs: T0, imm: 1 })]);
        expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
        entered(m, code, CODE_VA + 4);
        expect(m.cpu.icount).toBe(2);
        m.cpu.returnFromException(m.cpu.excNextPC);
        expect(m.cpu.run(1)).toBe(STOP_BUDGET);
        expect(m.cpu.r[T0]).toBe(2);
        expect(m.cpu.status & (SR_KUC | SR_IEC)).toBe(SR_KUC | SR_IEC);
      }
    });

    it('reserved instructions and coprocessor-unusable', () => {
      const m = machine(engine, [NOP, 0x7c000000]);
      expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
      entered(m, EXC_RI, CODE_VA + 4);
      const cases: [number, number, number][] = [
        [enc('mtc0', { rt: T0, rd: 12 }), EXC_CPU, 0], // CP0 from user mode without CU0
        [enc('add.d', { fd: 0, fs: 2, ft: 4 }), EXC_CPU, 1], // CU1 cleared below
        [enc('lwc1', { ft: 0, rs: T0, imm: 0 }), EXC_CPU, 1],
        [enc('lwc2', { rt: 0, rs: T0, imm: 0 }), EXC_CPU, 2], // no coprocessor 2
        [enc('add.d', { fd: 1, fs: 2, ft: 4 }), EXC_RI, 0], // odd double register
      ];
      for (const [w, code, ce] of cases) {
        const m2 = machine(engine, [enc('addiu', { rt: T0, imm: 4 }), w]);
        if (ce === 1) m2.user(CODE_VA, 0, 0), m2.cpu.setStatus(m2.cpu.status & ~SR_CU1);
        expect(m2.cpu.run(10)).toBe(STOP_EXCEPTION);
        expect(m2.cpu.excCode).toBe(code);
        expect(m2.cpu.epc >>> 0).toBe(CODE_VA + 4);
        if (code === EXC_CPU) expect((m2.cpu.cause >>> 28) & 3).toBe(ce);
      }
    });

    it('an exception in a delay slot: BD set, EPC on the branch, excNextPC = branch destination', () => {
      for (const taken of [true, false]) {
        const m = machine(engine, [
          enc('addiu', { rt: T1, imm: taken ? 0 : 1 }),
          enc('beq', { rs: T1, rt: 0, imm: 3 }), // to CODE_VA + 20 when taken
          enc('lw', { rt: T0, rs: 0, imm: 2 }), // AdEL in the delay slot
          NOP, NOP, enc('addiu', { rt: T2, imm: 9 }),
        ]);
        expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
        entered(m, EXC_ADEL, CODE_VA + 4);
        expect(m.cpu.cause & CAUSE_BD).toBe(CAUSE_BD);
        expect(m.cpu.excNextPC >>> 0).toBe(taken ? CODE_VA + 20 : CODE_VA + 12);
        expect(m.cpu.icount).toBe(2); // the branch retired, the delay slot did not
        // Retrying re-executes the branch (a second retirement) then the fixed delay slot.
        m.cpu.returnFromException(m.cpu.epc);
        m.code(CODE_PA + 8, [NOP]);
        m.cpu.invalidateCode(CODE_PA + 8, 4);
        expect(m.cpu.run(2)).toBe(STOP_BUDGET);
        expect(m.cpu.pc >>> 0).toBe(taken ? CODE_VA + 20 : CODE_VA + 12);
      }
    });

    it('a TLB refill in the delay slot of a jal or beq in mid-block: EPC on the branch, link written, exact counts', () => {
      // The fast engine leaves a block before an access the page map does not serve (before its
      // branch in a delay slot, unless the branch wrote a link register) and the block starting
      // there takes the exception: the state must be the architecture's either way.
      const va = 0x12345000;
      for (const op of ['jal', 'beq'] as const) {
        const br = op === 'jal' ? enc('jal', { target: ((CODE_VA + 24) >>> 2) & 0x3ffffff }) : enc('beq', { rs: 0, rt: 0, imm: 3 });
        const m = machine(engine, [...li(T0, va), br, enc('lw', { rt: T1, rs: T0, imm: 8 }), NOP, NOP, enc('addiu', { rt: T2, imm: 9 })]);
        m.cpu.setEntryHi(5 << 6);
        m.user(CODE_VA, 5);
        m.map(0, CODE_VA, CODE_PA, { asid: 5 });
        m.cpu.r[RA] = 77;
        expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
        entered(m, EXC_TLBL, CODE_VA + 8, VEC_UTLB);
        expect(m.cpu.cause & CAUSE_BD).toBe(CAUSE_BD);
        expect(m.cpu.icount).toBe(3); // li (2) and the branch retired, the delay slot did not
        expect(m.cpu.r[RA]).toBe(op === 'jal' ? CODE_VA + 16 : 77);
        expect(m.cpu.excNextPC >>> 0).toBe(CODE_VA + 24);
        m.mem.write32(DATA_PA + 8, 0x1234);
        m.cpu.entryLo = DATA_PA | 0x600;
        m.cpu.tlbWriteRandom();
        m.cpu.returnFromException(m.cpu.epc);
        expect(m.cpu.run(3)).toBe(STOP_BUDGET); // branch, delay slot, addiu
        expect(m.cpu.r[T1]).toBe(0x1234);
        expect(m.cpu.r[T2]).toBe(9);
        expect(m.cpu.icount).toBe(6);
        expect(m.cpu.pc >>> 0).toBe(CODE_VA + 28);
      }
    });

    it('interrupts land between any two instructions, also between a branch and its delay slot', () => {
      const prog = [enc('addiu', { rt: T0, imm: 1 }), enc('addiu', { rt: T0, rs: T0, imm: 1 }), enc('beq', { rs: 0, rt: 0, imm: 2 }),
        enc('addiu', { rt: T0, rs: T0, imm: 1 }), NOP, enc('addiu', { rt: T0, rs: T0, imm: 1 }), NOP, NOP];
      for (let k = 0; k <= 5; k++) {
        const m = machine(engine, prog);
        expect(m.cpu.run(k)).toBe(STOP_BUDGET);
        expect(m.cpu.icount).toBe(k);
        m.cpu.setInterruptLine(0, true);
        expect(m.cpu.run(10)).toBe(STOP_EXCEPTION);
        expect(m.cpu.excCode).toBe(EXC_INT);
        expect(m.cpu.icount).toBe(k);
        expect((m.cpu.cause >>> 10) & 1).toBe(1);
        const inDelay = k === 3;
        expect(m.cpu.cause & CAUSE_BD).toBe(inDelay ? CAUSE_BD : 0);
        const pcs = [0, 4, 8, 12, 20, 24];
        expect(m.cpu.epc >>> 0).toBe(CODE_VA + (inDelay ? 8 : pcs[k]!));
        // Masked: no interrupt.
        const m2 = machine(engine, prog);
        m2.cpu.setStatus(m2.cpu.status & ~0x400);
        m2.cpu.setInterruptLine(0, true);
        expect(m2.cpu.run(5)).toBe(STOP_BUDGET);
      }
    });

    it('run(n) retires exactly n instructions', () => {
      const body: number[] = [];
      for (let k = 0; k < 40; k++) body.push(enc('addiu', { rt: T0, rs: T0, imm: 1 }));
      body.push(enc('bne', { rs: T0, rt: 0, imm: (-41 & 0xffff) }), enc('addiu', { rt: T1, rs: T1, imm: 1 }));
      for (const n of [1, 2, 3, 17, 41, 42, 43, 100, 1000]) {
        const m = machine(engine, body);
        let total = 0;
        for (let s = 1; total < n; s = (s * 7) % 13 + 1) {
          const b = Math.min(s, n - total);
          expect(m.cpu.run(b)).toBe(STOP_BUDGET);
          total += b;
          expect(m.cpu.icount).toBe(total);
        }
      }
    });

    it('ASID changes and TLB rewrites leave no stale translations', () => {
      const m = machine(engine, [...li(T0, 0x10008000), enc('lw', { rt: T1, rs: T0, imm: 0 }), enc('lw', { rt: T2, rs: T0, imm: 0 })]);
      m.mem.write32(0x30000, 111);
      m.mem.write32(0x31000, 222);
      m.map(0, CODE_VA, CODE_PA, { global: true });
      m.map(5, 0x10008000, 0x30000, { asid: 1 });
      m.user(CODE_VA, 1);
      expect(m.cpu.run(3)).toBe(STOP_BUDGET);
      expect(m.cpu.r[T1]).toBe(111);
      // Another address space: the same virtual page must miss, then map elsewhere.
      m.cpu.setEntryHi(2 << 6);
      expect(m.cpu.run(1)).toBe(STOP_EXCEPTION);
      expect(m.cpu.excCode).toBe(EXC_TLBL);
      m.map(6, 0x10008000, 0x31000, { asid: 2 });
      m.cpu.returnFromException(m.cpu.epc);
      m.cpu.setEntryHi(2 << 6);
      expect(m.cpu.run(1)).toBe(STOP_BUDGET);
      expect(m.cpu.r[T2]).toBe(222);
      // Rewriting the entry in place takes effect at once.
      m.cpu.setPC(CODE_VA + 8);
      m.map(6, 0x10008000, 0x30000, { asid: 2 });
      m.cpu.setEntryHi(2 << 6);
      expect(m.cpu.run(1)).toBe(STOP_BUDGET);
      expect(m.cpu.r[T1]).toBe(111);
    });

    it('tlbp, tlbr and Random', () => {
      const m = new Bare(engine);
      m.map(9, 0x00700000, 0x5000, { asid: 3 });
      m.cpu.setEntryHi(0x00700000 | (3 << 6));
      m.cpu.tlbProbe();
      expect(m.cpu.index).toBe(9 << 8);
      m.cpu.setEntryHi(0x00700000 | (4 << 6));
      m.cpu.tlbProbe();
      expect(m.cpu.index >>> 31).toBe(1);
      m.cpu.writeCp0(0, 9 << 8);
      m.cpu.tlbRead();
      expect(m.cpu.entryHi >>> 0).toBe(0x00700000 | (3 << 6));
      expect(m.cpu.entryLo).toBe(0x5000 | 0x600);
      for (let k = 0; k < 200; k++) {
        const r = m.cpu.readCp0(1) >>> 8;
        expect(r >= 8 && r <= 63).toBe(true);
        m.cpu.icount++;
      }
    });

    it('stores into translated code take effect (guest stores and kernel writes)', () => {
      const loop = [
        enc('addiu', { rt: T0, rs: T0, imm: 1 }), // patched below
        enc('jr', { rs: RA }), NOP,
      ];
      // main: call the routine, patch it through a store, call it again.
      const main = [
        ...li(RA, CODE_VA + 0x100 + 12), enc('j', { target: (CODE_VA + 0x200) >>> 2 }), NOP,
        ...li(T1, enc('addiu', { rt: T0, rs: T0, imm: 100 })), ...li(T2, CODE_VA + 0x200),
        enc('sw', { rt: T1, rs: T2, imm: 0 }),
        ...li(RA, CODE_VA + 0x100 + 48), enc('j', { target: (CODE_VA + 0x200) >>> 2 }), NOP,
        enc('syscall'),
      ];
      const m = machine(engine, []);
      m.code(CODE_PA + 0x100, main);
      m.code(CODE_PA + 0x200, loop);
      m.cpu.setPC(CODE_VA + 0x100);
      m.cpu.run(100);
      expect(m.cpu.excCode).toBe(EXC_SYS);
      expect(m.cpu.r[T0]).toBe(101);
      // A kernel write through PhysMem also drops the old translation.
      m.mem.write32(CODE_PA + 0x200, enc('addiu', { rt: T0, rs: T0, imm: 1000 }));
      m.user(CODE_VA + 0x100 + 36);
      m.cpu.run(100);
      expect(m.cpu.r[T0]).toBe(1101);
    });
  });
}

describe('MIPS ground-truth sink', () => {
  it('reports the same retired fetches, loads and stores on both engines', () => {
    const prog = [
      ...li(T0, DATA_VA), enc('sw', { rt: T0, rs: T0, imm: 8 }), enc('lw', { rt: T1, rs: T0, imm: 8 }),
      enc('lb', { rt: T1, rs: T0, imm: 3 }), enc('sh', { rt: T1, rs: T0, imm: 2 }),
      enc('bne', { rs: T1, rt: 0, imm: 1 }), enc('lhu', { rt: T2, rs: T0, imm: 2 }), NOP,
      enc('lw', { rt: T3, rs: 0, imm: 0x100 }), // faults (unmapped): no events for it
    ];
    const logs = (['ref', 'fast'] as const).map((engine) => {
      const m = machine(engine, prog);
      const log: string[] = [];
      const sink: TraceSink = {
        ifetch: (va) => log.push(`i ${(va >>> 0).toString(16)}`),
        load: (va, n) => log.push(`l ${(va >>> 0).toString(16)} ${n}`),
        store: (va, n) => log.push(`s ${(va >>> 0).toString(16)} ${n}`),
      };
      m.cpu.setSink(sink);
      expect(m.cpu.run(100)).toBe(STOP_EXCEPTION);
      return log;
    });
    expect(logs[1]).toEqual(logs[0]);
    const pcs = (n: number): string => `i ${(CODE_VA + 4 * n).toString(16)}`;
    expect(logs[0]).toEqual([
      pcs(0), pcs(1), pcs(2), `s ${(DATA_VA + 8).toString(16)} 4`, pcs(3), `l ${(DATA_VA + 8).toString(16)} 4`,
      pcs(4), `l ${(DATA_VA + 3).toString(16)} 1`, pcs(5), `s ${(DATA_VA + 2).toString(16)} 2`, pcs(6), pcs(7), `l ${(DATA_VA + 2).toString(16)} 2`,
      pcs(8),
    ]);
  });
});

describe('MIPS TLB index', () => {
  it('answers exactly what a linear associative search does', () => {
    const m = new Bare('ref');
    const cpu = m.cpu;
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const vpns = Array.from({ length: 20 }, () => rnd(1 << 19));
    const linear = (hi: number): number => {
      for (let i = 0; i < 64; i++) {
        const e = cpu.tlbHi[i]!;
        if (((e ^ hi) & 0xfffff000) !== 0) continue;
        if ((cpu.tlbLo[i]! & 0x100) === 0 && ((e ^ hi) & 0xfc0) !== 0) continue;
        return i;
      }
      return -1;
    };
    for (let step = 0; step < 5000; step++) {
      // Random writes, duplicates and ASIDs included.
      cpu.tlbSet(rnd(64), (vpns[rnd(vpns.length)]! << 12) | (rnd(4) << 6), (rnd(1 << 20) << 12) | (rnd(2) ? 0x200 : 0) | (rnd(8) === 0 ? 0x100 : 0));
      const hi = (vpns[rnd(vpns.length)]! << 12) | (rnd(4) << 6);
      expect(cpu.tlbMatch(hi)).toBe(linear(hi));
    }
  });
});
