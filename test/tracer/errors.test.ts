/**
 * Malformed inputs to the instrumenter: each gives an InstrumentError whose message names the
 * file and says what is wrong — not ELF, wrong class, wrong or unsupported machine, no symbol
 * table, no relocations, a dynamic executable — built from a real executable by the ELF writer.
 */
import { describe, expect, it } from 'vitest';
import { PT_INTERP, SHT_REL, SHT_RELA, SHT_SYMTAB, SHT_STRTAB, ET_DYN, parseElf } from '../../format/elf.js';
import { imageOf, writeElf } from '../../format/elf_write.js';
import { instrument } from '../../tracer/instrument.js';
import { InstrumentError } from '../../tracer/program.js';
import { toolsAvailable } from '../support/tools.js';
import { exeOf } from './support/trace.js';

const have = toolsAvailable();

function expectError(bytes: Uint8Array, file: string, what: RegExp): void {
  let err: unknown;
  try {
    instrument(bytes, file);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InstrumentError);
  const m = (err as Error).message;
  expect(m.startsWith(`${file}: `), m).toBe(true);
  expect(m).toMatch(what);
}

describe.skipIf(!have)('instrumenter input errors', () => {
  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: not ELF, wrong class, wrong machine`, async () => {
      const { exe } = await exeOf(target, 'hello');
      expectError(Buffer.from('#!/bin/sh\necho not an executable\n'), 'script.sh', /not an ELF file/);
      const c64 = exe.slice();
      c64[4] = 2;
      expectError(c64, 'hello.elf64', /not ELF32/);
      const x86 = exe.slice();
      new DataView(x86.buffer).setUint16(18, 3, target === 'mipsel');
      expectError(x86, 'hello.i386', /unsupported machine/);
      const v8plus = exe.slice();
      new DataView(v8plus.buffer).setUint16(18, 18, target === 'mipsel');
      expectError(v8plus, 'hello.v8plus', /SPARC32PLUS/);
    });

    it(`${target}: no symbol table, no relocations, dynamic executable`, async () => {
      const { path, exe } = await exeOf(target, 'hello');
      const e = parseElf(exe, path);
      const without = (drop: (type: number, name: string) => boolean): Uint8Array => {
        const img = imageOf(e);
        const keep = img.sections.map((s) => !drop(s.type, s.name));
        // Renumber links and infos of what remains.
        const index = new Map<number, number>();
        let n = 1;
        img.sections.forEach((_, i) => {
          if (keep[i]) index.set(i + 1, n++);
        });
        img.sections = img.sections.filter((_, i) => keep[i]).map((s) => ({
          ...s, link: index.get(s.link) ?? 0, info: s.type === SHT_REL || s.type === SHT_RELA ? (index.get(s.info) ?? 0) : s.info,
        }));
        return writeElf(img, 'out');
      };
      expectError(without((t) => t === SHT_SYMTAB || t === SHT_STRTAB), 'hello.stripped', /no symbol table/);
      expectError(without((t) => t === SHT_REL || t === SHT_RELA), 'hello.norelocs', /no relocations for \.text.*--emit-relocs/);
      const dyn = imageOf(e);
      dyn.segments.push({ type: PT_INTERP, flags: 4, align: 1, offset: 0, vaddr: 0, paddr: 0, filesz: 0, memsz: 0 });
      delete dyn.phoff;
      expectError(writeElf(dyn, 'out'), 'hello.dynamic', /dynamically linked/);
      const pie = exe.slice();
      new DataView(pie.buffer).setUint16(16, ET_DYN, target === 'mipsel');
      expectError(pie, 'hello.pie', /dynamically linked/);
    });
  }
});
