/**
 * Ground-truth hooks: with a sink set, every user instruction retired is reported (fetch, then
 * its data references with virtual address and size) identically by both engines; the kernel's
 * window spills and fills are reported as kernel references; a trapping instruction reports
 * nothing until it is re-executed (a Ticc, which retires, reports its fetch). Without a sink the
 * translated code contains no hook calls.
 */
import { describe, expect, it } from 'vitest';
import type { SparcRefSink } from '../../../cpu/sparc/index.js';
import { RUN_TRAP } from '../../../cpu/sparc/index.js';
import * as T from '../../../cpu/sparc/traps.js';
import { A, G, L, SP } from './asm.js';
import { BareMachine, CODE_VA, DATA_VA } from './machine.js';
import { SparcLinuxProcess } from '../../../bench/linuxuser_sparc.js';
import { toolsAvailable } from '../../support/tools.js';
import { buildProg } from './progs.js';

class Recorder implements SparcRefSink {
  readonly ev: string[] = [];
  fetches = 0;
  ifetch(va: number): void {
    this.ev.push(`I ${va.toString(16)}`);
    this.fetches++;
  }
  load(va: number, size: number): void {
    this.ev.push(`L ${va.toString(16)} ${size}`);
  }
  store(va: number, size: number): void {
    this.ev.push(`S ${va.toString(16)} ${size}`);
  }
  kload(va: number, size: number): void {
    this.ev.push(`KL ${va.toString(16)} ${size}`);
  }
  kstore(va: number, size: number): void {
    this.ev.push(`KS ${va.toString(16)} ${size}`);
  }
}

describe('SPARC ground-truth hooks', () => {
  it('report fetches and data references in order, the same on both engines', () => {
    const words = [
      A.mem('ld', G(1), G(3), 4),
      A.mem('stb', G(1), G(3), 9),
      A.mem('ldd', G(4), G(3), 16),
      A.mem('swap', G(1), G(3), 24),
      A.mem('ldstub', G(2), G(3), 31),
      A.br('ba', 2),
      A.mem('sth', G(1), G(3), 2),
      A.trap('ta', 5),
    ];
    const want = [
      `I ${CODE_VA.toString(16)}`, `L ${(DATA_VA + 4).toString(16)} 4`,
      `I ${(CODE_VA + 4).toString(16)}`, `S ${(DATA_VA + 9).toString(16)} 1`,
      `I ${(CODE_VA + 8).toString(16)}`, `L ${(DATA_VA + 16).toString(16)} 8`,
      `I ${(CODE_VA + 12).toString(16)}`, `L ${(DATA_VA + 24).toString(16)} 4`, `S ${(DATA_VA + 24).toString(16)} 4`,
      `I ${(CODE_VA + 16).toString(16)}`, `L ${(DATA_VA + 31).toString(16)} 1`, `S ${(DATA_VA + 31).toString(16)} 1`,
      `I ${(CODE_VA + 20).toString(16)}`,
      `I ${(CODE_VA + 24).toString(16)}`, `S ${(DATA_VA + 2).toString(16)} 2`,
      `I ${(CODE_VA + 28).toString(16)}`,
    ];
    for (const engine of ['interp', 'fast'] as const) {
      const m = new BareMachine({ engine });
      m.loadProgram(words);
      m.start();
      const rec = new Recorder();
      m.cpu.sink = rec;
      m.cpu.setReg(3, DATA_VA);
      expect(m.cpu.run(100)).toBe(RUN_TRAP);
      expect(m.cpu.tt).toBe(T.TT_TRAP_INSTRUCTION + 5);
      expect(rec.ev, engine).toEqual(want);
    }
  });

  it('a faulting instruction reports only when it completes; window spills are kernel references', () => {
    const words = [A.op('save', SP, SP, -96), A.mem('ld', L(0), G(3), 0), A.trap('ta', 0)];
    const runs = (['interp', 'fast'] as const).map((engine) => {
      const m = new BareMachine({ engine });
      m.loadProgram(words);
      m.start({ wim: 1 << 7 }); // the SAVE from window 0 overflows
      const c = m.cpu;
      for (let w = 1; w < 8; w++) c.setWindowReg(w, 14, 0x7f000 - 256 * w);
      const rec = new Recorder();
      c.sink = rec;
      c.setReg(3, 0x00700000); // unmapped: the load faults once
      expect(c.run(10)).toBe(RUN_TRAP);
      expect(c.tt).toBe(T.TT_WIN_OVF);
      expect(m.handleTrap(RUN_TRAP)).toBe(true);
      expect(c.run(10)).toBe(RUN_TRAP);
      expect(c.tt).toBe(T.TT_DATA_ACCESS_EXCEPTION);
      c.setReg(3, DATA_VA); // the "kernel" repairs the pointer and retries
      expect(c.returnFromTrap(c.trapPc, c.trapNpc)).toBe(true);
      expect(c.run(10)).toBe(RUN_TRAP);
      return rec.ev;
    });
    expect(runs[1]).toEqual(runs[0]);
    const ev = runs[0]!;
    expect(ev.filter((e) => e.startsWith('KS ')).length).toBe(8);
    expect(ev.filter((e) => e.startsWith('KS ')).every((e) => e.endsWith(' 8'))).toBe(true);
    expect(ev.filter((e) => e.startsWith('I ')).map((e) => e.slice(2))).toEqual([CODE_VA, CODE_VA + 4, CODE_VA + 8].map((v) => v.toString(16)));
    expect(ev).toContain(`L ${DATA_VA.toString(16)} 4`);
  });

  it('without a sink the translations have no hook calls, with one they do (separate caches)', () => {
    const m = new BareMachine({ engine: 'fast' });
    m.loadProgram([A.op('add', G(1), G(1), 1), A.mem('ld', G(2), G(3), 0), A.br('ba', -2), A.nop]);
    m.start();
    m.cpu.setReg(3, DATA_VA);
    m.cpu.run(50);
    const plain = m.cpu.translator.debugSource(CODE_VA, 0)!; // mode 0: user, no sink
    expect(plain).toBeDefined();
    expect(plain).not.toMatch(/\bh\./);
    m.cpu.sink = new Recorder();
    m.cpu.run(50);
    const hooked = m.cpu.translator.debugSource(CODE_VA, 1)!; // mode 1: user with a sink
    expect(hooked).toMatch(/h\.ifetch\(/);
    expect(hooked).toMatch(/h\.load\(/);
  });

  it.skipIf(!toolsAvailable())('count every retired user instruction of a whole program, on both engines', () => {
    const exe = buildProg('windows');
    const counts = (['interp', 'fast'] as const).map((engine) => {
      const p = new SparcLinuxProcess({ elf: exe, engine, argv: ['windows'] });
      const rec = new Recorder();
      p.cpu.sink = rec;
      p.run(1e9);
      expect(rec.fetches).toBe(p.cpu.instret);
      return { fetches: rec.fetches, kernel: rec.ev.filter((e) => e.startsWith('K')).length, all: rec.ev.length };
    });
    expect(counts[1]).toEqual(counts[0]);
    expect(counts[0]!.kernel).toBeGreaterThan(100);
  });
});
