/**
 * Isa.at (tracer/isa_mips.ts, tracer/isa_sparc.ts), which loadProgram uses for every repeated word
 * of a program: a word's description moved to another address is what decoding the word there
 * gives, for any word (reserved encodings included) and any two addresses (MIPS j/jal across
 * 256 MB regions, branches and calls wrapping around the address space).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mipsIsa } from '../../tracer/isa_mips.js';
import { sparcIsa } from '../../tracer/isa_sparc.js';

const word = fc.integer({ min: 0, max: 0xffffffff });
const addr = fc.integer({ min: 0, max: 0x3fffffff }).map((x) => (x * 4) >>> 0);

describe('Isa.at', () => {
  for (const isa of [mipsIsa('mipsel'), mipsIsa('mips'), sparcIsa()]) {
    it(`${isa.arch}: equals decode at the new address`, () => {
      fc.assert(fc.property(word, addr, addr, (w, a, b) => {
        expect(isa.at(isa.decode(w, a), b)).toStrictEqual(isa.decode(w, b));
      }), { numRuns: 20_000 });
    });
    it(`${isa.arch}: transfers in particular`, () => {
      // MIPS j, jal, beq, bgezal; SPARC ba, call: the words whose target moves, with their
      // other fields (registers, displacement) random.
      const ops: [number, number][] = isa.name === 'mips'
        ? [[0x08000000, 0x03ffffff], [0x0c000000, 0x03ffffff], [0x10000000, 0x03ffffff], [0x04110000, 0x03e0ffff]]
        : [[0x10800000, 0x003fffff], [0x40000000, 0x3fffffff]];
      fc.assert(fc.property(fc.constantFrom(...ops), word, addr, addr, ([op, mask], x, a, b) => {
        const w = (op | (x & mask)) >>> 0;
        const d = isa.at(isa.decode(w, a), b);
        expect(d).toStrictEqual(isa.decode(w, b));
        expect(d.target).toBeDefined();
      }), { numRuns: 20_000 });
    });
  }
});
