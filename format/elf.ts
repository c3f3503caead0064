/**
 * ELF32 reader for the guest executables (System V ABI, gABI chapter 4; MIPS and SPARC psABI
 * supplements). Used by the kernel's exec loader, the instrumenter and the tests.
 *
 * Contract: `parseElf` never returns a partially valid object. Anything malformed raises ElfError
 * with the file name and what is wrong (not ELF, wrong class, unsupported machine, a header or
 * table that runs past the end of the file).
 */
import type { TargetName } from './target.js';

export const EM_SPARC = 2;
export const EM_MIPS = 8;
export const EM_SPARC32PLUS = 18;

export const ET_EXEC = 2;
export const ET_DYN = 3;

export const PT_LOAD = 1;
export const PT_DYNAMIC = 2;
export const PT_INTERP = 3;

export const PF_X = 1;
export const PF_W = 2;
export const PF_R = 4;

export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNSYM = 11;

export const SHF_WRITE = 1;
export const SHF_ALLOC = 2;
export const SHF_EXECINSTR = 4;

export const STT_NOTYPE = 0;
export const STT_OBJECT = 1;
export const STT_FUNC = 2;
export const STT_SECTION = 3;
export const STT_FILE = 4;

export const STB_LOCAL = 0;
export const STB_GLOBAL = 1;
export const STB_WEAK = 2;

export const SHN_UNDEF = 0;
export const SHN_ABS = 0xfff1;

/** E_FLAGS architecture level of MIPS executables (EF_MIPS_ARCH, bits 28..31). */
export const EF_MIPS_ARCH = 0xf0000000;
export const EF_MIPS_ARCH_1 = 0x00000000;

export class ElfError extends Error {
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'ElfError';
  }
}

export interface ElfHeader {
  type: number;
  machine: number;
  version: number;
  entry: number;
  phoff: number;
  shoff: number;
  flags: number;
  ehsize: number;
  phentsize: number;
  phnum: number;
  shentsize: number;
  shnum: number;
  shstrndx: number;
}

export interface ProgramHeader {
  type: number;
  offset: number;
  vaddr: number;
  paddr: number;
  filesz: number;
  memsz: number;
  flags: number;
  align: number;
}

export interface SectionHeader {
  index: number;
  name: string;
  nameOffset: number;
  type: number;
  flags: number;
  addr: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  addralign: number;
  entsize: number;
}

export interface ElfSymbol {
  index: number;
  name: string;
  value: number;
  size: number;
  bind: number;
  type: number;
  other: number;
  shndx: number;
}

export interface ElfReloc {
  offset: number;
  type: number;
  sym: number;
  /** Explicit addend (RELA) or undefined for REL (implicit addend in the target word). */
  addend: number | undefined;
}

export interface RelocSection {
  section: SectionHeader;
  /** Index of the section the relocations apply to (sh_info). */
  target: number;
  relocs: ElfReloc[];
}

export interface ElfFile {
  file: string;
  bytes: Uint8Array;
  bigEndian: boolean;
  header: ElfHeader;
  programHeaders: ProgramHeader[];
  sections: SectionHeader[];
  /** Symbols of .symtab (empty when the file has none). */
  symbols: ElfSymbol[];
  /** Relocation sections (.rel.* / .rela.*), as kept by `ld --emit-relocs`. */
  relocSections: RelocSection[];
}

/** The emu target an executable belongs to, from its header. */
export function elfArch(e: ElfFile): TargetName {
  if (e.header.machine === EM_MIPS) return e.bigEndian ? 'mips' : 'mipsel';
  if (e.header.machine === EM_SPARC && e.bigEndian) return 'sparc';
  throw new ElfError(e.file, `unsupported machine ${machineName(e.header.machine)}`);
}

export function machineName(m: number): string {
  switch (m) {
    case EM_MIPS: return 'MIPS (EM_MIPS)';
    case EM_SPARC: return 'SPARC (EM_SPARC)';
    case EM_SPARC32PLUS: return 'SPARC32PLUS (EM_SPARC32PLUS, V8+)';
    default: return `e_machine ${m}`;
  }
}

class Reader {
  private readonly dv: DataView;
  constructor(readonly bytes: Uint8Array, readonly le: boolean, readonly file: string) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  check(off: number, len: number, what: string): void {
    if (off < 0 || len < 0 || off + len > this.bytes.length) {
      throw new ElfError(this.file, `${what} at offset ${off} (${len} bytes) runs past the end of the file (${this.bytes.length} bytes)`);
    }
  }
  u8(o: number): number { return this.dv.getUint8(o); }
  u16(o: number): number { return this.dv.getUint16(o, this.le); }
  u32(o: number): number { return this.dv.getUint32(o, this.le); }
  i32(o: number): number { return this.dv.getInt32(o, this.le); }
  /** The NUL-terminated string at `off` of string table `tab` (checked to lie in the file); `what` names its user. */
  /** The NUL-terminated string at `off` of a string table; `what` and `index` name its owner in errors. */
  cstr(tab: SectionHeader, off: number, what: string, index: number): string {
    if (off >= tab.size) throw new ElfError(this.file, `${what} ${index}: name offset ${off} is outside its string table (section ${tab.index}, ${tab.size} bytes)`);
    const limit = tab.offset + tab.size;
    const start = tab.offset + off;
    let e = start;
    while (e < limit && this.bytes[e] !== 0) e++;
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, e - start).toString('latin1');
  }
  /** A section that holds strings: in the file (not NOBITS). */
  strtab(index: number, what: string, sections: SectionHeader[]): SectionHeader {
    const t = sections[index];
    if (!t) throw new ElfError(this.file, `${what} links to missing string table ${index}`);
    if (t.type === SHT_NOBITS || t.type === 0) throw new ElfError(this.file, `${what} links to section ${index}, which has no contents (type ${t.type}) to hold strings`);
    return t;
  }
}

/** Parses an ELF32 file. `file` names it in errors. */
export function parseElf(bytes: Uint8Array, file: string): ElfFile {
  if (bytes.length < 16 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) {
    throw new ElfError(file, 'not an ELF file (bad magic)');
  }
  if (bytes[4] !== 1) throw new ElfError(file, `not ELF32 (EI_CLASS ${bytes[4]}; emu runs 32-bit MIPS and SPARC code)`);
  if (bytes[5] !== 1 && bytes[5] !== 2) throw new ElfError(file, `bad EI_DATA ${bytes[5]}`);
  const le = bytes[5] === 1;
  const r = new Reader(bytes, le, file);
  r.check(0, 52, 'ELF header');
  const header: ElfHeader = {
    type: r.u16(16), machine: r.u16(18), version: r.u32(20), entry: r.u32(24), phoff: r.u32(28),
    shoff: r.u32(32), flags: r.u32(36), ehsize: r.u16(40), phentsize: r.u16(42), phnum: r.u16(44),
    shentsize: r.u16(46), shnum: r.u16(48), shstrndx: r.u16(50),
  };
  const programHeaders: ProgramHeader[] = [];
  if (header.phnum > 0) {
    if (header.phentsize !== 32) throw new ElfError(file, `bad e_phentsize ${header.phentsize}`);
    r.check(header.phoff, header.phnum * 32, 'program header table');
    for (let i = 0; i < header.phnum; i++) {
      const o = header.phoff + i * 32;
      programHeaders.push({
        type: r.u32(o), offset: r.u32(o + 4), vaddr: r.u32(o + 8), paddr: r.u32(o + 12),
        filesz: r.u32(o + 16), memsz: r.u32(o + 20), flags: r.u32(o + 24), align: r.u32(o + 28),
      });
    }
  }
  const sections: SectionHeader[] = [];
  if (header.shnum > 0) {
    if (header.shentsize !== 40) throw new ElfError(file, `bad e_shentsize ${header.shentsize}`);
    r.check(header.shoff, header.shnum * 40, 'section header table');
    for (let i = 0; i < header.shnum; i++) {
      const o = header.shoff + i * 40;
      sections.push({
        index: i, name: '', nameOffset: r.u32(o), type: r.u32(o + 4), flags: r.u32(o + 8), addr: r.u32(o + 12),
        offset: r.u32(o + 16), size: r.u32(o + 20), link: r.u32(o + 24), info: r.u32(o + 28),
        addralign: r.u32(o + 32), entsize: r.u32(o + 36),
      });
    }
    for (const s of sections) {
      if (s.type !== SHT_NOBITS && s.type !== 0) r.check(s.offset, s.size, `section ${s.index}`);
    }
    if (header.shstrndx !== SHN_UNDEF) {
      const shstr = r.strtab(header.shstrndx, 'e_shstrndx', sections);
      for (const s of sections) s.name = r.cstr(shstr, s.nameOffset, 'section', s.index);
    }
  }
  const symbols: ElfSymbol[] = [];
  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  if (symtab) {
    const strtab = r.strtab(symtab.link, '.symtab', sections);
    for (let i = 0, o = symtab.offset; o + 16 <= symtab.offset + symtab.size; i++, o += 16) {
      const info = r.u8(o + 12);
      symbols.push({
        index: i, name: r.cstr(strtab, r.u32(o), 'symbol', i), value: r.u32(o + 4),
        size: r.u32(o + 8), bind: info >> 4, type: info & 15, other: r.u8(o + 13), shndx: r.u16(o + 14),
      });
    }
  }
  const relocSections: RelocSection[] = [];
  for (const s of sections) {
    if (s.type !== SHT_REL && s.type !== SHT_RELA) continue;
    const rela = s.type === SHT_RELA;
    const ent = rela ? 12 : 8;
    const relocs: ElfReloc[] = [];
    for (let o = s.offset; o + ent <= s.offset + s.size; o += ent) {
      const info = r.u32(o + 4);
      relocs.push({ offset: r.u32(o), type: info & 0xff, sym: info >>> 8, addend: rela ? r.i32(o + 8) : undefined });
    }
    relocSections.push({ section: s, target: s.info, relocs });
  }
  return { file, bytes, bigEndian: !le, header, programHeaders, sections, symbols, relocSections };
}

/** Bytes of a section's contents (empty for NOBITS). */
export function sectionData(e: ElfFile, s: SectionHeader): Uint8Array {
  if (s.type === SHT_NOBITS) return new Uint8Array(0);
  return e.bytes.subarray(s.offset, s.offset + s.size);
}

export function findSection(e: ElfFile, name: string): SectionHeader | undefined {
  return e.sections.find((s) => s.name === name);
}

/** The symbol named `name` (first global or weak one, else the first local one). */
export function findSymbol(e: ElfFile, name: string): ElfSymbol | undefined {
  return e.symbols.find((s) => s.name === name && s.bind !== STB_LOCAL) ?? e.symbols.find((s) => s.name === name);
}
