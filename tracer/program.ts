/**
 * The input of the instrumenter: a statically linked ELF32 MIPS or SPARC executable with its
 * symbol table and the relocations `ld --emit-relocs` keeps (DESIGN.md section 5), validated,
 * split into functions from the symbol table, with every instruction described through the ISA
 * adapter, and with the places that hold code addresses found through the relocations:
 *   - words in allocated sections whose value is a code address (function pointers, jump tables,
 *     handlers passed to sigaction), other data references to code, code addresses formed in
 *     code, and data inside text (SPARC jump tables): tracer/relocs.ts;
 * A malformed or non-static executable is an InstrumentError naming the file; a relocation the
 * instrumenter does not understand is not (the functions it concerns are instrumented
 * conservatively).
 */
import {
  EF_MIPS_ARCH, EF_MIPS_ARCH_1, EM_MIPS, EM_SPARC, EM_SPARC32PLUS, ET_DYN, ET_EXEC, ElfError, PT_DYNAMIC, PT_INTERP,
  SHF_ALLOC, SHF_EXECINSTR, SHT_DYNSYM, SHT_NOBITS, STT_FUNC, STT_NOTYPE, machineName, parseElf,
  type ElfFile, type SectionHeader,
} from '../format/elf.js';
import type { Arch, Decoded, Isa } from './isa.js';
import { mipsIsa } from './isa_mips.js';
import { sparcIsa } from './isa_sparc.js';
import { codeRelocs, type CodeImmediate, type UnknownReloc } from './relocs.js';

export type { CodeImmediate } from './relocs.js';

export class InstrumentError extends Error {
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'InstrumentError';
  }
}

/** What a function is to the trace protocol (docs/abi.md: setjmp, trampoline, process entry). */
export type FuncRole = 'setjmp' | 'longjmp' | 'sigtramp' | 'entry' | undefined;

/** Functions whose first argument is a jmp_buf they fill (their caller may be resumed later). */
export const SETJMP_NAMES = ['setjmp', '_setjmp', 'sigsetjmp', '__sigsetjmp'];
/** Functions that resume a setjmp caller (end in an indirect transfer through the jmp_buf). */
export const LONGJMP_NAMES = ['_longjmp', '__longjmp'];
/** The signal trampoline the kernel enters (docs/abi.md "Delivery: the trampoline contract"). */
export const SIGTRAMP_NAME = '__sigtramp';

export interface Func {
  index: number;
  name: string;
  aliases: string[];
  addr: number;
  /** First address after the function. */
  end: number;
  /** insns[i] describes the word at addr + 4i; undefined for data words inside the function. */
  insns: (Decoded | undefined)[];
  role: FuncRole;
  /** An STT_FUNC symbol with a size describes it (compiled code; hand-written code often has neither). */
  sized: boolean;
  /** No symbol: code the program refers to (a pointer in data or code) outside every function symbol. */
  anonymous?: boolean;
}

export interface Program {
  file: string;
  elf: ElfFile;
  isa: Isa;
  arch: Arch;
  /** Executable sections. */
  text: SectionHeader[];
  funcs: Func[];
  entry: number;
  /** Words (addresses) in allocated sections holding code addresses, with their values. */
  codeWords: Map<number, number>;
  /** Code addresses data refers to otherwise (pc-relative and $gp-relative words, hi/lo on data). */
  codeRefs: Set<number>;
  /** Instructions that form code or text addresses. */
  codeImmediates: Map<number, CodeImmediate>;
  /** Relocated data words inside executable sections. */
  dataInText: Set<number>;
  /** Relocations not understood that refer to code or sit in it (tracer/relocs.ts). */
  unknownRelocs: UnknownReloc[];
  /** The word of the file at a virtual address of an allocated section. */
  word(addr: number): number;
  funcAt(addr: number): Func | undefined;
  inText(addr: number): boolean;
}

function sectionAt(e: ElfFile, addr: number): SectionHeader | undefined {
  return e.sections.find((s) => (s.flags & SHF_ALLOC) !== 0 && s.type !== SHT_NOBITS && addr >= s.addr && addr < s.addr + s.size);
}

/** Checks the executable and returns its ISA, or throws InstrumentError. */
function validate(e: ElfFile): Isa {
  const f = e.file;
  const h = e.header;
  if (h.machine === EM_SPARC32PLUS) throw new InstrumentError(f, 'SPARC32PLUS (V8+) executable: emu instruments SPARC v8 (EM_SPARC) code only');
  if (h.machine !== EM_MIPS && h.machine !== EM_SPARC) throw new InstrumentError(f, `unsupported machine ${machineName(h.machine)}: emu instruments MIPS and SPARC executables`);
  if (h.machine === EM_SPARC && !e.bigEndian) throw new InstrumentError(f, 'little-endian SPARC executable');
  if (h.machine === EM_MIPS && (h.flags & EF_MIPS_ARCH) >>> 0 !== EF_MIPS_ARCH_1) {
    throw new InstrumentError(f, `not MIPS I code (e_flags 0x${(h.flags >>> 0).toString(16)})`);
  }
  if (h.type === ET_DYN || e.programHeaders.some((p) => p.type === PT_INTERP || p.type === PT_DYNAMIC) || e.sections.some((s) => s.type === SHT_DYNSYM)) {
    throw new InstrumentError(f, 'dynamically linked executable: emu instruments static executables only (link with -static)');
  }
  if (h.type !== ET_EXEC) throw new InstrumentError(f, `e_type ${h.type} is not ET_EXEC (an executable)`);
  if (e.symbols.length === 0) throw new InstrumentError(f, 'no symbol table (.symtab): the instrumenter needs the symbols (do not strip the executable)');
  const text = e.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && s.type !== SHT_NOBITS);
  if (text.length === 0) throw new InstrumentError(f, 'no executable section');
  for (const t of text) {
    if (!e.relocSections.some((r) => r.target === t.index)) {
      throw new InstrumentError(f, `no relocations for ${t.name}: link with -Wl,--emit-relocs so the instrumenter can find code addresses`);
    }
  }
  if (h.machine === EM_MIPS) return mipsIsa(e.bigEndian ? 'mips' : 'mipsel');
  return sparcIsa();
}

function roleOf(names: string[], addr: number, entry: number): FuncRole {
  if (addr === entry) return 'entry';
  if (names.includes(SIGTRAMP_NAME)) return 'sigtramp';
  if (names.some((n) => SETJMP_NAMES.includes(n))) return 'setjmp';
  if (names.some((n) => LONGJMP_NAMES.includes(n))) return 'longjmp';
  return undefined;
}

/** Reads, validates and decodes an executable. `file` names it in errors. */
export function loadProgram(bytes: Uint8Array, file: string): Program {
  let e: ElfFile;
  try {
    e = parseElf(bytes, file);
  } catch (err) {
    if (err instanceof ElfError) throw new InstrumentError(file, err.message.slice(file.length + 2));
    throw err;
  }
  const isa = validate(e);
  const dv = new DataView(e.bytes.buffer, e.bytes.byteOffset, e.bytes.byteLength);
  const le = !e.bigEndian;
  // The allocated sections with contents; when no two overlap, the one holding an address is the
  // one sectionAt finds, and a run of reads (a function's words) stays in the last one found.
  const alloc = e.sections.filter((s) => (s.flags & SHF_ALLOC) !== 0 && s.type !== SHT_NOBITS).sort((x, y) => x.addr - y.addr);
  const disjoint = alloc.every((s, i) => i === 0 || alloc[i - 1]!.addr + alloc[i - 1]!.size <= s.addr);
  let last: SectionHeader | undefined;
  const word = (addr: number): number => {
    let s = last;
    if (s === undefined || !(addr >= s.addr && addr < s.addr + s.size)) {
      s = sectionAt(e, addr);
      if (!s) throw new InstrumentError(file, `address 0x${(addr >>> 0).toString(16)} is in no allocated section`);
      if (disjoint) last = s;
    }
    return dv.getUint32(s.offset + (addr - s.addr), le);
  };
  const text = e.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && s.type !== SHT_NOBITS);
  const inText = (a: number): boolean => text.some((s) => a >= s.addr && a < s.addr + s.size);

  // Relocations: code addresses in data and in code, data inside text.
  const read32 = (addr: number): number => {
    if ((addr & 3) === 0) return word(addr);
    const s = sectionAt(e, addr);
    if (!s || addr + 4 > s.addr + s.size) throw new InstrumentError(file, `relocated word at 0x${(addr >>> 0).toString(16)} is not inside one allocated section`);
    return dv.getUint32(s.offset + (addr - s.addr), le);
  };
  const { codeWords, codeRefs, codeImmediates, dataInText, unknown: unknownRelocs } = codeRelocs(e, isa.name === 'mips', read32, inText);

  // Functions: sized STT_FUNC symbols in executable sections; unsized FUNC/NOTYPE symbols
  // (hand-written assembly without .size) extend to the next symbol or the section end.
  const entry = e.header.entry >>> 0;
  // names[0] is the function's name: a function symbol before a label (main, not the linker's
  // _ftext at the same address), a global before a local.
  interface Cand { addr: number; size: number; names: string[]; sized: boolean; rank: number; anonymous?: boolean }
  const byAddr = new Map<number, Cand>();
  for (const s of e.symbols) {
    if (s.shndx === 0 || s.shndx >= e.sections.length) continue;
    const sec = e.sections[s.shndx]!;
    if ((sec.flags & SHF_EXECINSTR) === 0) continue;
    if (s.type !== STT_FUNC && s.type !== STT_NOTYPE) continue;
    if (s.name === '' || s.name.startsWith('$') || s.name.startsWith('.L')) continue;
    if (s.value >= sec.addr + sec.size) continue; // end-of-section labels (_etext)
    let c = byAddr.get(s.value);
    if (!c) byAddr.set(s.value, (c = { addr: s.value, size: 0, names: [], sized: false, rank: -1 }));
    if (s.type === STT_FUNC && s.size > 0 && !c.sized) {
      c.size = s.size;
      c.sized = true;
    }
    const rank = (s.type === STT_FUNC ? 2 : 0) + (s.bind !== 0 ? 1 : 0);
    if (rank > c.rank) {
      c.names.unshift(s.name);
      c.rank = rank;
    } else c.names.push(s.name);
    // NOTYPE labels at a sized function's address are aliases of it (e.g. _ftext).
  }
  const cands = [...byAddr.values()].sort((a, b) => a.addr - b.addr);
  // A NOTYPE label inside a sized function is not a function of its own.
  const starts: Cand[] = [];
  for (const c of cands) {
    const prev = starts[starts.length - 1];
    if (prev && prev.sized && c.addr < prev.addr + prev.size && !c.sized) continue;
    starts.push(c);
  }
  // Code the program refers to that no function symbol covers (reached only through pointers):
  // a function of its own from there to the next symbol (tracer/conservative.ts).
  const covered = (a: number): boolean => starts.some((c, i) => a >= c.addr && a < (c.sized ? c.addr + c.size : (starts[i + 1]?.addr ?? Infinity)));
  const refs = [...codeWords.values(), ...codeRefs, ...[...codeImmediates.values()].flatMap((ci) => (ci.target !== undefined ? [ci.target] : []))];
  for (const a of [...new Set(refs)].sort((x, y) => x - y)) {
    if ((a & 3) !== 0 || !inText(a) || dataInText.has(a) || covered(a)) continue;
    starts.push({ addr: a, size: 0, names: [`code_${a.toString(16)}`], sized: false, rank: -1, anonymous: true });
    starts.sort((x, y) => x.addr - y.addr);
  }
  const funcs: Func[] = [];
  // A program's words repeat (CoreMark's 10,484 instructions are 4,560 distinct words): a word is
  // decoded once, and at another address its description is the same but for `addr` and the
  // static `target` of a PC-relative or region transfer, which the ISA moves (Isa.at). The parts
  // the copies share (defs, uses, mem, compute, targetRegs) are only read.
  const byWord = new Map<number, Decoded>();
  const noDataInText = dataInText.size === 0;
  for (let i = 0; i < starts.length; i++) {
    const c = starts[i]!;
    const sec = text.find((t) => c.addr >= t.addr && c.addr < t.addr + t.size)!;
    const next = starts[i + 1];
    let end = c.sized ? c.addr + c.size : Math.min(next ? next.addr : sec.addr + sec.size, sec.addr + sec.size);
    if (next && end > next.addr) {
      throw new InstrumentError(file, `function ${c.names[0]} (0x${c.addr.toString(16)}, ${c.size} bytes) overlaps ${next.names[0]} at 0x${next.addr.toString(16)}`);
    }
    if ((c.addr & 3) !== 0) throw new InstrumentError(file, `function ${c.names[0]} at unaligned address 0x${c.addr.toString(16)}`);
    end = c.addr + Math.floor((end - c.addr) / 4) * 4;
    const insns: (Decoded | undefined)[] = [];
    for (let a = c.addr; a < end; a += 4) {
      if (!noDataInText && dataInText.has(a)) {
        insns.push(undefined);
        continue;
      }
      const w = word(a);
      let d = byWord.get(w);
      if (d === undefined) byWord.set(w, (d = isa.decode(w, a)));
      else d = isa.at(d, a);
      insns.push(d);
    }
    funcs.push({
      index: funcs.length, name: c.names[0]!, aliases: c.names.slice(1), addr: c.addr, end, insns, role: roleOf(c.names, c.addr, entry), sized: c.sized,
      ...(c.anonymous ? { anonymous: true } : {}),
    });
  }
  if (!funcs.some((f) => f.addr === entry)) {
    throw new InstrumentError(file, `the entry point 0x${entry.toString(16)} is not the start of a function symbol`);
  }
  const sorted = funcs;
  const funcAt = (addr: number): Func | undefined => {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = sorted[mid]!;
      if (addr < f.addr) hi = mid - 1;
      else if (addr >= f.end) lo = mid + 1;
      else return f;
    }
    return undefined;
  };
  return { file, elf: e, isa, arch: isa.arch, text, funcs, entry, codeWords, codeRefs, codeImmediates, dataInText, unknownRelocs, word, funcAt, inText };
}
