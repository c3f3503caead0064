/**
 * The kernel's rollback rule (os/trbuf_rollback.ts, mazieres-smith-1994 3.2.2) against the
 * instrumenter's sequences:
 *   - on synthetic code, every address inside a witness or value sequence (every width, both
 *     ISAs, sequences back to back, after a delay slot) resolves to the sequence's first
 *     instruction, every other address to itself, and the rule is idempotent;
 *   - on real instrumented programs, the recognition agrees with the schema's address map for
 *     every word of the new text;
 *   - end to end: an instrumented program interrupted every 23 cycles (so interrupts and
 *     the rollback they cause land inside sequences again and again) still regenerates exactly.
 *     (A quantum shorter than the longest sequence — 8 instructions, a SPARC 4-byte record — can
 *     never let that sequence complete: interrupted, rolled back, interrupted again.)
 */
import { describe, expect, it } from 'vitest';
import type { TargetName } from '../../format/target.js';
import { parseElf } from '../../format/elf.js';
import { instrument } from '../../tracer/instrument.js';
import { mipsEnc } from '../../tracer/isa_mips.js';
import { sparcEnc } from '../../tracer/isa_sparc.js';
import { mipsIsa } from '../../tracer/isa_mips.js';
import { sparcIsa } from '../../tracer/isa_sparc.js';
import { sequenceStart } from '../../os/trbuf_rollback.js';
import { sumSeq, valueSeq, witnessSeq } from '../../tracer/sequences.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf, regenAgainst, traced } from './support/trace.js';

const have = toolsAvailable();

describe('sequence recognition on synthetic code', () => {
  for (const isaName of ['mips', 'sparc'] as const) {
    it(`${isaName}: every address resolves to its sequence start, idempotently`, () => {
      const isa = isaName === 'mips' ? mipsIsa('mipsel') : sparcIsa();
      const orig = isaName === 'mips'
        ? [mipsEnc.addiu(29, 29, -32), mipsEnc.ori(2, 0, 7), mipsEnc.bne(2, 0, 8, 40), mipsEnc.sb(3, 0, 4)]
        : [sparcEnc.addImm(14, 14, -96), sparcEnc.orImm(8, 0, 7), sparcEnc.ba(8, 40), sparcEnc.stb(9, 8, 0)];
      // original, original, branch, delay slot, [w1][w1 = 0][v4][v1][w2][w2 < 256][v2] (SPARC: [sum]),
      // original, [v4], original
      const seqs = [witnessSeq(isa, 200, 1), witnessSeq(isa, 0, 1), valueSeq(isa, 9, 4), valueSeq(isa, 9, -1), witnessSeq(isa, 700, 2), witnessSeq(isa, 5, 2), valueSeq(isa, 9, 2)];
      if (isaName === 'sparc') seqs.push(sumSeq(isa, 8, 9));
      const words: number[] = [...orig];
      const start: number[] = orig.map((_, i) => i);
      for (const s of seqs) {
        const at = words.length;
        for (const w of s) {
          words.push(w);
          start.push(at);
        }
      }
      words.push(orig[1]!);
      start.push(words.length - 1);
      const at = words.length;
      for (const w of valueSeq(isa, 10, 4)) {
        words.push(w);
        start.push(at);
      }
      words.push(orig[0]!);
      start.push(words.length - 1);
      const base = 0x20100000;
      const fetch = (va: number): number | undefined => {
        const i = (va - base) / 4;
        return i >= 0 && i < words.length ? words[i] : undefined;
      };
      for (let i = 0; i < words.length; i++) {
        const r = sequenceStart(isaName, base + 4 * i, fetch);
        expect(r.pc, `word ${i}`).toBe(base + 4 * start[i]!);
        expect(r.undone).toBe(i - start[i]!);
        expect(sequenceStart(isaName, r.pc, fetch).pc).toBe(r.pc);
      }
      // The scan never reads an unreadable word: the first word of the text resolves to itself.
      expect(sequenceStart(isaName, base, fetch).pc).toBe(base);
    });
  }
});

describe.skipIf(!have)('sequence recognition against the address map', () => {
  for (const target of ['mipsel', 'mips', 'sparc'] as TargetName[]) {
    it(`${target} li: the rule finds exactly the schema's sequences`, async () => {
      const { path, exe } = await exeOf(target, 'li');
      const r = instrument(exe, path);
      const e = parseElf(r.elf, 'li.qpt');
      const sec = e.sections.find((s) => s.name === '.qpt.text')!;
      const dv = new DataView(r.elf.buffer, r.elf.byteOffset + sec.offset, sec.size);
      const fetch = (va: number): number | undefined => {
        const o = va - sec.addr;
        return o >= 0 && o < sec.size ? dv.getUint32(o, !e.bigEndian) : undefined;
      };
      const isaName = target === 'sparc' ? 'sparc' : 'mips';
      let inside = 0;
      for (const [addr, n, kind, value] of r.schema.addressMap) {
        if (kind === 'g' && value === 1) continue; // data, never executed
        for (let i = 0; i < n; i++) {
          const pc = addr + 4 * i;
          const want = kind === 's' ? addr : pc;
          if (kind === 's' && i > 0) inside++;
          expect(sequenceStart(isaName, pc, fetch).pc, `0x${pc.toString(16)} (${kind})`).toBe(want);
        }
      }
      expect(inside).toBeGreaterThan(1000);
      // SPARC li records address sums of `[rs1 + rs2]` references (9-instruction sequences).
      if (target === 'sparc') expect(r.schema.stats['recordsSum']).toBeGreaterThan(0);
      else expect(r.schema.stats['recordsSum']).toBe(0);
    });
  }
});

describe.skipIf(!have)('interrupts inside sequences', () => {
  for (const target of ['mipsel', 'mips', 'sparc'] as TargetName[]) {
    it(`${target}: a 23-cycle quantum, rolled back sequences, exact regeneration`, { timeout: 300_000 }, async () => {
      const t = await traced(target, 'ttest-sig', undefined, { quantumCycles: 23 });
      expect(t.run.stdout.toString('latin1')).toBe(t.orig.stdout.toString('latin1'));
      const s = regenAgainst(t, 'original');
      expect(s.signals).toBeGreaterThan(10);
      regenAgainst(t, 'mapped');
    });
  }
});
