/**
 * The SRMMU model: permissions of every ACC value for every mode and access, table walks at every
 * level, referenced/modified bits, the TLB model's FIFO replacement and miss counts, flushes and
 * context switches never leaving stale translations, MMU registers through the alternate spaces,
 * and code pages: stores into translated code drop the translations (both engines agree).
 */
import { describe, expect, it } from 'vitest';
import { PhysMem } from '../../../cpu/physmem.js';
import {
  ACCESS_EXEC, ACCESS_READ, ACCESS_WRITE, ET_PTD, ET_PTE, FLUSH_CONTEXT, FLUSH_PAGE, FT_INVALID_ADDRESS, FT_PRIVILEGE,
  FT_PROTECTION, MMU_CTRL_E, PTE_M, PTE_R, SparcMmu, type Access,
} from '../../../cpu/sparc/mmu.js';
import { RUN_TRAP, type EngineName } from '../../../cpu/sparc/index.js';
import * as T from '../../../cpu/sparc/traps.js';
import { A, G, O } from './asm.js';
import { ACC_RWX, BareMachine, CODE_VA, DATA_VA } from './machine.js';

/** SRMMU access permissions (The SPARC Architecture Manual v8, Table H-5): R, W, X per ACC. */
const USER = ['r', 'rw', 'rx', 'rwx', 'x', 'r', '', ''];
const SUPER = ['r', 'rw', 'rx', 'rwx', 'x', 'rw', 'rx', 'rwx'];

/** A physical memory with a context table, one level-1 table for context 0 and a frame pool. */
function mmuWith(tlbSize = 64, memSize = 4 << 20): { mem: PhysMem; mmu: SparcMmu; l1: number; alloc: () => number } {
  const mem = new PhysMem(memSize, 'big');
  const mmu = new SparcMmu(mem, tlbSize);
  let next = 0;
  const alloc = (): number => {
    const pa = next;
    next += 4096;
    mem.zero(pa, 4096);
    return pa;
  };
  const ctx = alloc();
  const l1 = alloc();
  mem.write32(ctx, ((l1 >>> 6) << 2) | ET_PTD);
  mmu.setCtpr((ctx >>> 6) << 2);
  mmu.setContext(0);
  mmu.setControl(MMU_CTRL_E);
  return { mem, mmu, l1, alloc };
}

/** Maps va with a PTE at the given level (1: 16 MiB, 2: 256 KiB, 3: 4 KiB) to frame pa. */
function mapAt(env: ReturnType<typeof mmuWith>, va: number, pa: number, acc: number, level = 3): number {
  const { mem, l1, alloc } = env;
  const pte = (((pa >>> 12) << 8) | (acc << 2) | ET_PTE) >>> 0;
  const i1 = l1 + (va >>> 24) * 4;
  if (level === 1) {
    mem.write32(i1, pte);
    return i1;
  }
  if ((mem.read32(i1) & 3) !== ET_PTD) mem.write32(i1, ((alloc() >>> 6) << 2) | ET_PTD);
  const l2 = ((mem.read32(i1) >>> 2) << 6) >>> 0;
  const i2 = l2 + ((va >>> 18) & 63) * 4;
  if (level === 2) {
    mem.write32(i2, pte);
    return i2;
  }
  if ((mem.read32(i2) & 3) !== ET_PTD) mem.write32(i2, ((alloc() >>> 6) << 2) | ET_PTD);
  const l3 = ((mem.read32(i2) >>> 2) << 6) >>> 0;
  const i3 = l3 + ((va >>> 12) & 63) * 4;
  mem.write32(i3, pte);
  return i3;
}

describe('SRMMU translation', () => {
  it('permissions: every ACC for user and supervisor reads, writes and fetches', () => {
    for (let acc = 0; acc < 8; acc++) {
      for (const sup of [false, true]) {
        for (const [access, letter] of [[ACCESS_READ, 'r'], [ACCESS_WRITE, 'w'], [ACCESS_EXEC, 'x']] as [Access, string][]) {
          const env = mmuWith();
          const frame = env.alloc();
          mapAt(env, 0x00400000, frame, acc);
          const allowed = (sup ? SUPER : USER)[acc]!.includes(letter);
          const pa = env.mmu.translate(0x00400123, access, sup);
          expect(pa, `acc ${acc} ${sup ? 'super' : 'user'} ${letter}`).toBe(allowed ? frame + 0x123 : -1);
          if (!allowed) {
            const ft = (env.mmu.sfsr >>> 2) & 7;
            expect(ft).toBe(!sup && acc >= 6 ? FT_PRIVILEGE : FT_PROTECTION);
            expect(env.mmu.sfar).toBe(0x00400123);
            // AT: 0/1 load, 2/3 fetch, 4/5 store; odd for supervisor.
            expect((env.mmu.sfsr >>> 5) & 7).toBe((access === ACCESS_EXEC ? 2 : access === ACCESS_WRITE ? 4 : 0) + (sup ? 1 : 0));
          }
        }
      }
    }
  });

  it('walks PTEs at levels 1, 2 and 3, and reports invalid entries at their level', () => {
    const env = mmuWith(64, 32 << 20);
    mapAt(env, 0x03000000, 0x01000000, 1, 1);
    mapAt(env, 0x04040000, 0x00240000, 1, 2);
    const f = env.alloc();
    mapAt(env, 0x05000000, f, 1, 3);
    expect(env.mmu.translate(0x03abcdef, ACCESS_READ, false)).toBe(0x01000000 + 0xabcdef);
    expect(env.mmu.translate(0x0407fffc, ACCESS_READ, false)).toBe(0x00240000 + 0x3fffc);
    expect(env.mmu.translate(0x05000ffc, ACCESS_READ, false)).toBe(f + 0xffc);
    expect(env.mmu.translate(0x06000000, ACCESS_READ, false)).toBe(-1);
    expect((env.mmu.sfsr >>> 2) & 7).toBe(FT_INVALID_ADDRESS);
    expect((env.mmu.sfsr >>> 8) & 3).toBe(1);
    expect(env.mmu.translate(0x05001000, ACCESS_READ, false)).toBe(-1);
    expect((env.mmu.sfsr >>> 8) & 3).toBe(3);
    // Reading the SFSR clears it.
    expect(env.mmu.readSfsr()).not.toBe(0);
    expect(env.mmu.readSfsr()).toBe(0);
  });

  it('sets R on a walk and M on the first store (walking again through an entry with M clear)', () => {
    const env = mmuWith();
    const pteAddr = mapAt(env, 0x00400000, env.alloc(), 1);
    env.mmu.translate(0x00400000, ACCESS_READ, false);
    expect(env.mem.read32(pteAddr) & (PTE_R | PTE_M)).toBe(PTE_R);
    expect(env.mmu.tlbMisses).toBe(1);
    env.mmu.translate(0x00400004, ACCESS_WRITE, false);
    expect(env.mem.read32(pteAddr) & (PTE_R | PTE_M)).toBe(PTE_R | PTE_M);
    expect(env.mmu.tlbMisses).toBe(1);
    expect(env.mmu.mWalks).toBe(1);
    // The write map is installed only now that M is set.
    expect(env.mmu.maps[ACCESS_WRITE]![0x400]).not.toBe(1);
  });

  it('the TLB model replaces entries first-in first-out and counts every miss', () => {
    const size = 8;
    const env = mmuWith(size);
    for (let p = 0; p < size + 1; p++) mapAt(env, 0x00400000 + p * 4096, env.alloc(), 1);
    for (let p = 0; p < size; p++) env.mmu.translate(0x00400000 + p * 4096, ACCESS_READ, false);
    expect(env.mmu.tlbMisses).toBe(size);
    // Hits through the TLB (the software map aside) do not count.
    env.mmu.clearMaps();
    for (let p = 0; p < size; p++) env.mmu.translate(0x00400000 + p * 4096, ACCESS_READ, false);
    expect(env.mmu.tlbMisses).toBe(size);
    // One more page evicts the oldest entry (page 0), whose map entries go with it.
    env.mmu.translate(0x00400000 + size * 4096, ACCESS_READ, false);
    expect(env.mmu.tlbMisses).toBe(size + 1);
    expect(env.mmu.maps[ACCESS_READ]![0x400]).toBe(1);
    expect(env.mmu.tlbOccupancy()).toBe(size);
    env.mmu.translate(0x00400000, ACCESS_READ, false);
    expect(env.mmu.tlbMisses).toBe(size + 2);
  });

  it('a changed PTE is seen after a page flush, never through a stale map entry', () => {
    const env = mmuWith();
    const f1 = env.alloc();
    const f2 = env.alloc();
    mapAt(env, 0x00400000, f1, 1);
    expect(env.mmu.translate(0x00400010, ACCESS_READ, false)).toBe(f1 + 0x10);
    mapAt(env, 0x00400000, f2, 1);
    // Like the hardware: the TLB still holds the old entry until it is flushed.
    expect(env.mmu.translate(0x00400010, ACCESS_READ, false)).toBe(f1 + 0x10);
    env.mmu.flush(FLUSH_PAGE, 0x00400000);
    expect(env.mmu.maps[ACCESS_READ]![0x400]).toBe(1);
    expect(env.mmu.translate(0x00400010, ACCESS_READ, false)).toBe(f2 + 0x10);
  });
});

describe('SRMMU through the CPU (both engines)', () => {
  const engines: EngineName[] = ['interp', 'fast'];

  it('context switches change what the same virtual address reads, with no stale translation', () => {
    for (const e of engines) {
      const m = new BareMachine({ engine: e, supervisor: true });
      // Context 2 maps DATA_VA elsewhere than context 1 (the machine's).
      m.loadProgram([A.mem('ld', G(1), G(3), 0), A.trap('ta', 0), A.mem('ld', G(2), G(3), 0), A.trap('ta', 0)]);
      const c = m.cpu;
      // Context 2: copies of context 1's level-1, level-2 and (for DATA_VA's segment) level-3
      // tables, so that only its own DATA_VA entry differs.
      const copyTable = (pa: number, size: number): number => {
        const t = m.allocPage();
        m.mem.writeBytes(t, m.mem.readBytes(pa, size));
        return t;
      };
      const ptd = (t: number): number => ((t >>> 6) << 2) | ET_PTD;
      const l1a = ((m.mem.read32(c.mmu.contextTable() + 4) >>> 2) << 6) >>> 0;
      const l1b = copyTable(l1a, 1024);
      const l2a = ((m.mem.read32(l1a) >>> 2) << 6) >>> 0;
      const l2b = copyTable(l2a, 256);
      m.mem.write32(l1b, ptd(l2b));
      const seg = (DATA_VA >>> 18) & 63;
      const l3a = ((m.mem.read32(l2a + seg * 4) >>> 2) << 6) >>> 0;
      const l3b = copyTable(l3a, 256);
      m.mem.write32(l2b + seg * 4, ptd(l3b));
      m.mem.write32(c.mmu.contextTable() + 8, ptd(l1b));
      m.write32(DATA_VA, 111);
      m.start();
      c.setReg(3, DATA_VA);
      expect(c.run(10)).toBe(RUN_TRAP);
      expect(c.getReg(1)).toBe(111);
      c.mmu.setContext(2);
      const frame = m.allocPage();
      m.mem.write32(frame, 222);
      m.mem.write32(l3b + ((DATA_VA >>> 12) & 63) * 4, ((frame >>> 12) << 8) | (ACC_RWX << 2) | ET_PTE);
      c.mmu.flush(FLUSH_CONTEXT);
      expect(c.returnFromTrap(CODE_VA + 8, CODE_VA + 12)).toBe(true);
      c.setReg(3, DATA_VA);
      expect(c.run(10)).toBe(RUN_TRAP);
      expect(c.getReg(2)).toBe(222);
      // Back to context 1: its mapping and value again.
      c.mmu.setContext(1);
      expect(c.returnFromTrap(CODE_VA, CODE_VA + 4)).toBe(true);
      expect(c.run(10)).toBe(RUN_TRAP);
      expect(c.getReg(1)).toBe(111);
    }
  });

  it('MMU registers, flush, probe and bypass through lda/sta in supervisor mode', () => {
    const words = [
      A.mem('lda', G(1), G(0), G(4), 0x04), // control (va 0x000)
      A.mem('lda', G(2), G(5), G(0), 0x04), // context (va 0x200)
      A.mem('lda', G(6), G(3), G(0), 0x03), // probe DATA_VA
      A.mem('sta', G(7), G(3), G(0), 0x03), // flush (type 0: page)
      A.mem('lda', G(4), G(7), G(0), 0x20), // bypass: physical address in %g7
      A.trap('ta', 0),
    ];
    const states = engines.map((e) => {
      const m = new BareMachine({ engine: e, supervisor: true });
      m.loadProgram(words);
      m.start();
      const c = m.cpu;
      c.setReg(3, DATA_VA);
      c.setReg(4, 0);
      c.setReg(5, 0x200);
      c.setReg(7, m.paOf(DATA_VA));
      m.write32(DATA_VA, 0x5a5a5a5a);
      expect(c.run(20)).toBe(RUN_TRAP);
      expect(c.tt).toBe(T.TT_TRAP_INSTRUCTION);
      expect(c.getReg(1) & 1).toBe(1);
      expect(c.getReg(2)).toBe(1);
      expect(c.getReg(6) & 3).toBe(ET_PTE);
      expect(c.getReg(4)).toBe(0x5a5a5a5a);
      return m.state();
    });
    expect(states[1]).toEqual(states[0]);
  });

  it('stores into translated code drop it; FLUSH makes the new instruction run, on both engines', () => {
    // The program patches the `add %g1, 1, %g1` at index 8 into `add %g1, 100, %g1` (storing it
    // again on every pass) and runs it after a FLUSH.
    const patched = A.op('add', G(1), G(1), 100);
    const words = [
      ...A.set(G(3), CODE_VA + 8 * 4),
      ...A.set(G(4), patched),
      A.op('add', G(5), G(5), 1), // 4
      A.op('subcc', G(0), G(5), 13), // 12 passes: enough for the block to be translated
      A.br('be', 7), // to 13
      A.nop,
      A.op('add', G(1), G(1), 1), // 8: patched on the first pass
      A.mem('st', G(4), G(3), 0),
      A.op('flush', G(0), G(3), 0),
      A.br('ba', -7), // to 4
      A.nop,
      A.trap('ta', 0), // 13
    ];
    const results = engines.map((e) => {
      const m = new BareMachine({ engine: e });
      m.loadProgram(words, ACC_RWX);
      m.start();
      const c = m.cpu;
      for (let k = 0; k < 20 && c.tt !== T.TT_TRAP_INSTRUCTION; k++) c.run(1000);
      expect(c.tt).toBe(T.TT_TRAP_INSTRUCTION);
      if (e === 'fast') expect(c.translator.invalidated).toBeGreaterThan(0);
      return { g1: c.getReg(1), state: m.state() };
    });
    expect(results[0]!.g1).toBe(1 + 11 * 100);
    expect(results[1]!.state).toEqual(results[0]!.state);
  });

  it('pass-through mode (MMU off): virtual equals physical', () => {
    for (const e of engines) {
      const m = new BareMachine({ engine: e, passThrough: true });
      m.loadProgram([A.mem('st', G(1), G(3), 0), A.mem('ld', O(1), G(3), 0), A.trap('ta', 0)]);
      m.start();
      m.cpu.setReg(1, 0x1234);
      m.cpu.setReg(3, 0x8000);
      expect(m.cpu.run(10)).toBe(RUN_TRAP);
      expect(m.mem.read32(0x8000)).toBe(0x1234);
      expect(m.cpu.getReg(25)).toBe(0x1234); // the user's %o1 is the trap window's %i1
    }
  });
});
