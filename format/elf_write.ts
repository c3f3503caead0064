/**
 * ELF32 writer (System V gABI chapter 4), both byte orders: the instrumenter's output and the
 * tests' synthetic inputs. Counterpart of format/elf.ts, which reads what this writes.
 *
 * An image is a list of sections and of segments. Sections may keep a fixed file offset (a
 * rewritten executable keeps every original byte where it was); the others are placed after
 * them — allocated sections at an offset congruent to their address modulo the page size, so a
 * loader can map them — followed by the section-header string table, the program-header table
 * and the section-header table. A segment is either given explicitly (offset, addresses, sizes:
 * how a copied program header stays byte-identical) or computed from the sections it contains.
 */
import {
  ElfError, SHT_NOBITS, SHT_REL, SHT_RELA, SHT_STRTAB, SHT_SYMTAB, type ElfFile, type ElfReloc, type ElfSymbol,
} from './elf.js';

export const PAGE = 4096;

export interface SectionSpec {
  name: string;
  type: number;
  flags: number;
  addr: number;
  addralign: number;
  entsize: number;
  /** sh_link and sh_info as final section indices (0 = none). */
  link: number;
  info: number;
  /** Contents (empty for SHT_NOBITS). */
  data: Uint8Array;
  /** Size of an SHT_NOBITS section. */
  nobitsSize?: number;
  /** Keep at this file offset. */
  offset?: number;
}

export type SegmentSpec =
  | { type: number; flags: number; align: number; sections: number[]; paddr?: number }
  | { type: number; flags: number; align: number; offset: number; vaddr: number; paddr: number; filesz: number; memsz: number };

export interface ElfImage {
  bigEndian: boolean;
  type: number;
  machine: number;
  flags: number;
  entry: number;
  /** Section 0 (SHT_NULL) is implied and not listed; section i here has index i + 1. */
  sections: SectionSpec[];
  segments: SegmentSpec[];
  /** Where to put the program-header table (default: after the sections). */
  phoff?: number;
}

class Out {
  buf: Uint8Array;
  dv: DataView;
  constructor(size: number, private readonly le: boolean) {
    this.buf = new Uint8Array(size);
    this.dv = new DataView(this.buf.buffer);
  }
  u8(o: number, v: number): void { this.dv.setUint8(o, v); }
  u16(o: number, v: number): void { this.dv.setUint16(o, v, this.le); }
  u32(o: number, v: number): void { this.dv.setUint32(o, v >>> 0, this.le); }
}

const align = (x: number, a: number): number => (a > 1 ? Math.ceil(x / a) * a : x);

/** Serializes an image; `file` names it in errors. */
export function writeElf(img: ElfImage, file: string): Uint8Array {
  const le = !img.bigEndian;
  const secs = img.sections;
  const all: SectionSpec[] = [...secs];
  let shstrIdx = secs.findIndex((s) => s.name === '.shstrtab');
  // Section names: the existing .shstrtab when it holds every name (a rewritten file keeps its
  // bytes), else a new table appended after the sections.
  const names = new Map<string, number>();
  // A name may be the tail of a longer one (ld shares ".text" with ".rela.text").
  const findIn = (tab: Uint8Array, n: string): number =>
    Buffer.from(tab.buffer, tab.byteOffset, tab.byteLength).indexOf(Buffer.from(`${n}\0`, 'latin1'));
  let reuse = shstrIdx >= 0;
  if (reuse) {
    const tab = secs[shstrIdx]!.data;
    for (const s of [...secs.map((x) => x.name), '.shstrtab']) {
      const at = s === '' ? 0 : findIn(tab, s);
      if (at < 0) { reuse = false; break; }
      names.set(s, at);
    }
  }
  if (!reuse) {
    names.clear();
    const strParts: number[] = [0];
    for (const n of [...secs.map((x) => x.name), '.shstrtab']) {
      if (n === '' || names.has(n)) { if (n === '') names.set(n, 0); continue; }
      names.set(n, strParts.length);
      for (let i = 0; i < n.length; i++) strParts.push(n.charCodeAt(i) & 0xff);
      strParts.push(0);
    }
    const shstr = Uint8Array.from(strParts);
    if (shstrIdx < 0) {
      shstrIdx = secs.length;
      all.push({ name: '.shstrtab', type: SHT_STRTAB, flags: 0, addr: 0, addralign: 1, entsize: 0, link: 0, info: 0, data: shstr });
    } else {
      all[shstrIdx] = { ...all[shstrIdx]!, data: shstr, offset: undefined };
    }
  }
  const nameOf = (n: string): number => names.get(n)!;

  // Layout.
  const offsets: number[] = new Array(all.length).fill(-1);
  let end = 52;
  for (let i = 0; i < all.length; i++) {
    const s = all[i]!;
    if (s.offset !== undefined) {
      offsets[i] = s.offset;
      end = Math.max(end, s.offset + (s.type === SHT_NOBITS ? 0 : s.data.length));
    }
  }
  if (img.phoff !== undefined) end = Math.max(end, img.phoff + img.segments.length * 32);
  for (let i = 0; i < all.length; i++) {
    const s = all[i]!;
    if (offsets[i] !== -1) continue;
    let o: number;
    if (s.addr !== 0 && (s.flags & 2) !== 0) {
      // Allocated: offset ≡ addr (mod PAGE) so the segment can be mapped page by page.
      o = end + ((((s.addr - end) % PAGE) + PAGE) % PAGE);
    } else {
      o = align(end, Math.max(1, s.addralign));
    }
    offsets[i] = o;
    if (s.type !== SHT_NOBITS) end = o + s.data.length;
  }
  const phoff = img.phoff ?? align(end, 4);
  if (img.phoff === undefined) end = phoff + img.segments.length * 32;
  const shoff = align(end, 4);
  const total = shoff + (all.length + 1) * 40;

  const out = new Out(total, le);
  // ELF header (gABI Figure 4-3).
  out.buf.set([0x7f, 0x45, 0x4c, 0x46, 1, le ? 1 : 2, 1], 0);
  out.u16(16, img.type);
  out.u16(18, img.machine);
  out.u32(20, 1);
  out.u32(24, img.entry);
  out.u32(28, img.segments.length > 0 ? phoff : 0);
  out.u32(32, shoff);
  out.u32(36, img.flags);
  out.u16(40, 52);
  out.u16(42, 32);
  out.u16(44, img.segments.length);
  out.u16(46, 40);
  out.u16(48, all.length + 1);
  out.u16(50, shstrIdx + 1);

  for (let i = 0; i < all.length; i++) {
    const s = all[i]!;
    if (s.type !== SHT_NOBITS) {
      if (offsets[i]! + s.data.length > total) throw new ElfError(file, `section ${s.name} does not fit`);
      out.buf.set(s.data, offsets[i]!);
    }
  }
  // Program headers.
  img.segments.forEach((g, n) => {
    const o = phoff + n * 32;
    let offset: number, vaddr: number, paddr: number, filesz: number, memsz: number;
    if ('sections' in g) {
      if (g.sections.length === 0) throw new ElfError(file, `segment ${n} has no sections`);
      const first = g.sections[0]! - 1;
      const s0 = all[first]!;
      offset = offsets[first]!;
      vaddr = s0.addr;
      paddr = g.paddr ?? vaddr;
      let fend = offset;
      let mend = vaddr;
      for (const idx of g.sections) {
        const s = all[idx - 1]!;
        const size = s.type === SHT_NOBITS ? (s.nobitsSize ?? 0) : s.data.length;
        if (s.type !== SHT_NOBITS) fend = Math.max(fend, offsets[idx - 1]! + size);
        mend = Math.max(mend, s.addr + size);
      }
      filesz = fend - offset;
      memsz = mend - vaddr;
    } else {
      ({ offset, vaddr, paddr, filesz, memsz } = g);
    }
    out.u32(o, g.type);
    out.u32(o + 4, offset);
    out.u32(o + 8, vaddr);
    out.u32(o + 12, paddr);
    out.u32(o + 16, filesz);
    out.u32(o + 20, memsz);
    out.u32(o + 24, g.flags);
    out.u32(o + 28, g.align);
  });
  // Section headers: the null entry, then every section.
  for (let i = 0; i < all.length; i++) {
    const s = all[i]!;
    const o = shoff + (i + 1) * 40;
    out.u32(o, nameOf(s.name));
    out.u32(o + 4, s.type);
    out.u32(o + 8, s.flags);
    out.u32(o + 12, s.addr);
    out.u32(o + 16, offsets[i]!);
    out.u32(o + 20, s.type === SHT_NOBITS ? (s.nobitsSize ?? 0) : s.data.length);
    out.u32(o + 24, s.link);
    out.u32(o + 28, s.info);
    out.u32(o + 32, s.addralign);
    out.u32(o + 36, s.entsize);
  }
  return out.buf;
}

/**
 * The image of a parsed file, every section at its original offset and every program header as
 * it was: writeElf(imageOf(e)) reproduces the file's headers, sections and segments.
 */
export function imageOf(e: ElfFile): ElfImage {
  const sections: SectionSpec[] = e.sections.slice(1).map((s) => ({
    name: s.name, type: s.type, flags: s.flags, addr: s.addr, addralign: s.addralign, entsize: s.entsize,
    link: s.link, info: s.info, offset: s.offset,
    // A copy: the caller patches it, and a Node Buffer's slice() would share the input's memory.
    data: s.type === SHT_NOBITS ? new Uint8Array(0) : new Uint8Array(e.bytes.subarray(s.offset, s.offset + s.size)),
    ...(s.type === SHT_NOBITS ? { nobitsSize: s.size } : {}),
  }));
  const segments: SegmentSpec[] = e.programHeaders.map((p) => ({
    type: p.type, flags: p.flags, align: p.align, offset: p.offset, vaddr: p.vaddr, paddr: p.paddr, filesz: p.filesz, memsz: p.memsz,
  }));
  return {
    bigEndian: e.bigEndian, type: e.header.type, machine: e.header.machine, flags: e.header.flags, entry: e.header.entry,
    sections, segments, phoff: e.header.phoff,
  };
}

/** Encodes symbols as a .symtab with its .strtab (locals must come first, as the gABI requires). */
export function buildSymtab(symbols: readonly ElfSymbol[], bigEndian: boolean): { symtab: Uint8Array; strtab: Uint8Array; firstGlobal: number } {
  const strs: number[] = [0];
  const offs = new Map<string, number>();
  const str = (n: string): number => {
    if (n === '') return 0;
    let o = offs.get(n);
    if (o === undefined) {
      o = strs.length;
      offs.set(n, o);
      for (let i = 0; i < n.length; i++) strs.push(n.charCodeAt(i) & 0xff);
      strs.push(0);
    }
    return o;
  };
  const out = new Out(symbols.length * 16, !bigEndian);
  let firstGlobal = symbols.length;
  symbols.forEach((s, i) => {
    if (s.bind !== 0 && firstGlobal === symbols.length) firstGlobal = i;
    if (s.bind === 0 && i > firstGlobal) throw new Error(`symbol ${s.name}: a local symbol after a global one`);
    const o = i * 16;
    out.u32(o, str(s.name));
    out.u32(o + 4, s.value);
    out.u32(o + 8, s.size);
    out.u8(o + 12, (s.bind << 4) | (s.type & 15));
    out.u8(o + 13, s.other);
    out.u16(o + 14, s.shndx);
  });
  return { symtab: out.buf, strtab: Uint8Array.from(strs), firstGlobal };
}

/** Encodes relocations as the contents of a .rel (8-byte) or .rela (12-byte) section. */
export function buildRelocs(relocs: readonly ElfReloc[], rela: boolean, bigEndian: boolean): Uint8Array {
  const ent = rela ? 12 : 8;
  const out = new Out(relocs.length * ent, !bigEndian);
  relocs.forEach((r, i) => {
    const o = i * ent;
    out.u32(o, r.offset);
    out.u32(o + 4, ((r.sym << 8) | (r.type & 0xff)) >>> 0);
    if (rela) out.u32(o + 8, r.addend ?? 0);
  });
  return out.buf;
}

/** Section types the instrumenter writes (re-exported for the builders' callers). */
export const SECTION_TYPES = { SHT_SYMTAB, SHT_STRTAB, SHT_REL, SHT_RELA, SHT_NOBITS } as const;
