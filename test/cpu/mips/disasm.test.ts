/**
 * The disassembler (and so the decoder) against binutils objdump: generated words for every row of
 * the opcode table, random words (reserved encodings must print as .word on both sides), with and
 * without aliases.
 */
import { describe, expect, it } from 'vitest';
import { OPCODES } from '../../../cpu/mips/opcodes.js';
import { disasm } from '../../../cpu/mips/disasm.js';
import { toolsAvailable } from '../../support/tools.js';
import { objdumpWords } from './support/objdump.js';
import { Prng } from '../../../format/prng.js';

const HAVE = toolsAvailable();

function tableWords(seed: number, perRow: number): number[] {
  const rng = new Prng(seed);
  const words: number[] = [];
  for (const r of OPCODES) {
    for (let k = 0; k < perRow; k++) words.push((r.match | (rng.u32() & ~r.mask)) >>> 0);
  }
  for (let k = 0; k < 2000; k++) words.push(rng.u32());
  return words;
}

function compare(words: number[], noAliases: boolean): string[] {
  const lines = objdumpWords('mipsel', words, noAliases);
  const bad: string[] = [];
  for (const l of lines) {
    const mine = disasm(l.word, l.addr, { noAliases });
    if (mine !== l.text) bad.push(`${l.word.toString(16).padStart(8, '0')} @${l.addr.toString(16)}: objdump "${l.text}" emu "${mine}"`);
  }
  expect(lines.length).toBeGreaterThan(words.length * 0.9);
  return bad;
}

describe.skipIf(!HAVE)('MIPS disassembler vs objdump', () => {
  it('matches objdump on every table row (random fields) and random words', () => {
    const bad = compare(tableWords(1, 16), false);
    expect(bad.slice(0, 40)).toEqual([]);
  });
  it('matches objdump -M no-aliases', () => {
    const bad = compare(tableWords(2, 16), true);
    expect(bad.slice(0, 40)).toEqual([]);
  });
});
