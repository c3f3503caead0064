/**
 * Conservative mode (tracer/conservative.ts) and the relocation kinds (tracer/relocs.ts), on
 * ttest-reloc: one function per relocation kind of static MIPS I / SPARC v8 code, each used as
 * the toolchain uses it, and one function per conservative-mode trigger — a relocation kind the
 * instrumenter does not know in its code, a jump table holding another function's address, a jump
 * to a label plus an offset, code without .type/.size, code with no symbol reached through a
 * pointer. Each trigger puts exactly its function in conservative mode, the program prints what it
 * prints untraced, and regeneration equals both ground truths.
 */
import { describe, expect, it } from 'vitest';
import { parseElf } from '../../format/elf.js';
import { TARGET_NAMES } from '../../format/target.js';
import { relocKind } from '../../tracer/relocs.js';
import { toolsAvailable } from '../support/tools.js';
import { regenAgainst, traced } from './support/trace.js';

const have = toolsAvailable();

const KINDS = {
  mips: ['R_MIPS_32', 'R_MIPS_26', 'R_MIPS_HI16', 'R_MIPS_LO16', 'R_MIPS_PC16', 'R_MIPS_GPREL16', 'R_MIPS_GPREL32', 'R_MIPS_LITERAL', 'R_MIPS_JALR', 'R_MIPS_NONE', 'R_MIPS_16'],
  sparc: ['R_SPARC_32', 'R_SPARC_UA32', 'R_SPARC_WDISP30', 'R_SPARC_WPLT30', 'R_SPARC_WDISP22', 'R_SPARC_HI22', 'R_SPARC_LO10', 'R_SPARC_13', 'R_SPARC_22', 'R_SPARC_8', 'R_SPARC_16', 'R_SPARC_DISP32'],
};

describe.skipIf(!have)('conservative mode and relocation kinds', () => {
  for (const target of TARGET_NAMES) {
    it(`${target} ttest-reloc: each trigger makes its function conservative; same output; regeneration equals both ground truths`, { timeout: 300_000 }, async () => {
      const t = await traced(target, 'ttest-reloc');
      const mips = target !== 'sparc';
      // The executable holds every kind the test is about, and the instrumenter knows each.
      const e = parseElf(t.exe, t.path);
      const seen = new Set(e.relocSections.flatMap((rs) => rs.relocs.map((r) => relocKind(mips, r.type).name)));
      for (const k of KINDS[mips ? 'mips' : 'sparc']) {
        expect(seen, k).toContain(k);
        expect(relocKind(mips, e.relocSections.flatMap((rs) => rs.relocs).find((r) => relocKind(mips, r.type).name === k)!.type).cls).not.toBe('unknown');
      }
      const cons = new Map(t.inst.schema.functions.filter((f) => f.conservative).map((f) => [f.name.startsWith('code_') ? 'code_' : f.name, f.conservative!]));
      expect([...cons.keys()].sort()).toEqual(['code_', 'rel_computed', 'rel_table', 'rel_unknown', 'rel_unsized']);
      expect(cons.get('rel_unknown')).toMatch(mips ? /^relocation R_MIPS type 254 at 0x[0-9a-f]+ in its code$/ : /^relocation R_SPARC_PC22 at 0x[0-9a-f]+ in its code$/);
      expect(cons.get('rel_table')).toMatch(/^the jump table at 0x[0-9a-f]+ of 0x[0-9a-f]+ holds 0x[0-9a-f]+, the start of another function/);
      expect(cons.get('rel_computed')).toMatch(/^jump to an address computed at 0x[0-9a-f]+$/);
      expect(cons.get('rel_unsized')).toBe('no function type and size in the symbol table (hand-written code)');
      expect(cons.get('code_')).toBe('code reached only through pointers (no symbol)');
      expect(t.inst.schema.stats['conservativeFunctions']).toBe(5);
      expect(t.inst.schema.stats['recordsConservative']).toBeGreaterThan(0);
      expect(t.run.stdout.toString('latin1')).toBe(t.orig.stdout.toString('latin1'));
      expect(t.run.status).toBe(0);
      const a = regenAgainst(t, 'original');
      expect(regenAgainst(t, 'mapped').events).toBe(a.events);
      expect(a.bytes).toBe(t.run.trace.bytes().length);
    });
  }
});
