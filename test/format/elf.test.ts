/**
 * The ELF32 writer against binutils: a parsed executable written back keeps every header,
 * section, segment, symbol and relocation exactly as `readelf` shows them, in both byte orders;
 * synthetic files built from scratch read back the symbols and relocations they were given.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram, variant } from '../../images/build.js';
import { TARGETS, tool } from '../../images/toolchain.js';
import { TARGET_NAMES } from '../../format/target.js';
import { EM_MIPS, ET_EXEC, PT_LOAD, SHT_PROGBITS, SHT_REL, SHT_SYMTAB, parseElf, type ElfSymbol } from '../../format/elf.js';
import { buildRelocs, buildSymtab, imageOf, writeElf } from '../../format/elf_write.js';
import { toolsAvailable } from '../support/tools.js';

const have = toolsAvailable();
const dir = mkdtempSync(join(tmpdir(), 'emu-elfw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function readelf(target: (typeof TARGET_NAMES)[number], file: string, flags: string): string {
  return execFileSync(tool(TARGETS[target], 'readelf'), [flags, '-W', file], { encoding: 'utf8' })
    // The section-header table may move (the writer puts it after the last section).
    .replace(/Start of section headers:.*\n/, '')
    .replace(/There are \d+ section headers, starting at offset 0x[0-9a-f]+:/, '');
}

describe.skipIf(!have)('ELF writer round trip (readelf)', () => {
  for (const target of TARGET_NAMES) {
    for (const prog of ['hello', 'li']) {
      it(`${target} ${prog}: headers, sections, segments, symbols, relocations`, async () => {
        const path = await buildProgram(variant(target, 'bsd'), prog);
        const orig = parseElf(new Uint8Array(execFileSync('cat', [path])), path);
        const bytes = writeElf(imageOf(orig), path);
        const out = join(dir, `${target}-${prog}`);
        writeFileSync(out, bytes);
        for (const f of ['-h', '-l', '-S', '-s', '-r']) {
          expect(readelf(target, out, f), `readelf ${f}`).toBe(readelf(target, path, f));
        }
        // Every allocated byte is where it was.
        const back = parseElf(bytes, out);
        for (const s of orig.sections) {
          if (s.type === SHT_PROGBITS) expect(Buffer.compare(back.bytes.subarray(s.offset, s.offset + s.size), orig.bytes.subarray(s.offset, s.offset + s.size))).toBe(0);
        }
      });
    }
  }
});

describe.skipIf(!have)('ELF writer from scratch', () => {
  for (const big of [false, true]) {
    it(`${big ? 'big' : 'little'}-endian: code, data, symbols and relocations read back`, () => {
      const code = new Uint8Array(64).map((_, i) => i);
      const syms: ElfSymbol[] = [
        { index: 0, name: '', value: 0, size: 0, bind: 0, type: 0, other: 0, shndx: 0 },
        { index: 1, name: 'local_fn', value: 0x400010, size: 16, bind: 0, type: 2, other: 0, shndx: 1 },
        { index: 2, name: 'main', value: 0x400000, size: 16, bind: 1, type: 2, other: 0, shndx: 1 },
        { index: 3, name: 'table', value: 0x410000, size: 8, bind: 1, type: 1, other: 0, shndx: 2 },
      ];
      const { symtab, strtab, firstGlobal } = buildSymtab(syms, big);
      const relocs = [{ offset: 0x410000, type: 2, sym: 2, addend: undefined }, { offset: 0x410004, type: 2, sym: 1, addend: undefined }];
      const data = new Uint8Array(8);
      const bytes = writeElf({
        bigEndian: big, type: ET_EXEC, machine: EM_MIPS, flags: 0x1000, entry: 0x400000,
        sections: [
          { name: '.text', type: SHT_PROGBITS, flags: 6, addr: 0x400000, addralign: 16, entsize: 0, link: 0, info: 0, data: code },
          { name: '.data', type: SHT_PROGBITS, flags: 3, addr: 0x410000, addralign: 16, entsize: 0, link: 0, info: 0, data },
          { name: '.rel.data', type: SHT_REL, flags: 0x40, addr: 0, addralign: 4, entsize: 8, link: 4, info: 2, data: buildRelocs(relocs, false, big) },
          { name: '.symtab', type: SHT_SYMTAB, flags: 0, addr: 0, addralign: 4, entsize: 16, link: 5, info: firstGlobal, data: symtab },
          { name: '.strtab', type: 3, flags: 0, addr: 0, addralign: 1, entsize: 0, link: 0, info: 0, data: strtab },
        ],
        segments: [{ type: PT_LOAD, flags: 5, align: 4096, sections: [1] }, { type: PT_LOAD, flags: 6, align: 4096, sections: [2] }],
      }, 'synthetic');
      const file = join(dir, `synthetic-${big}`);
      writeFileSync(file, bytes);
      const e = parseElf(bytes, file);
      expect(e.bigEndian).toBe(big);
      expect(e.symbols.map((s) => [s.name, s.value, s.size, s.bind, s.type])).toEqual(syms.map((s) => [s.name, s.value, s.size, s.bind, s.type]));
      expect(e.relocSections[0]!.relocs.map((r) => [r.offset, r.type, r.sym])).toEqual(relocs.map((r) => [r.offset, r.type, r.sym]));
      const t = big ? 'mips' : 'mipsel';
      const sy = execFileSync(tool(TARGETS[t], 'readelf'), ['-sW', file], { encoding: 'utf8' });
      expect(sy).toMatch(/0+400010\s+16 FUNC\s+LOCAL\s+DEFAULT\s+1 local_fn/);
      expect(sy).toMatch(/0+410000\s+8 OBJECT\s+GLOBAL\s+DEFAULT\s+2 table/);
      const rl = execFileSync(tool(TARGETS[t], 'readelf'), ['-rW', file], { encoding: 'utf8' });
      expect(rl).toMatch(/00410000\s+00000202 R_MIPS_32\s+00400000\s+main/);
      expect(rl).toMatch(/00410004\s+00000102 R_MIPS_32\s+00400010\s+local_fn/);
      const lw = execFileSync(tool(TARGETS[t], 'readelf'), ['-lW', file], { encoding: 'utf8' });
      expect(lw).toMatch(/LOAD\s+0x[0-9a-f]+ 0x00400000 0x00400000 0x00040 0x00040 R E 0x1000/);
      expect(lw).toMatch(/LOAD\s+0x[0-9a-f]+ 0x00410000 0x00410000 0x00008 0x00008 RW  0x1000/);
    });
  }
});
