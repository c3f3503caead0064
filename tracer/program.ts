/**
 * The input of the instrumenter: a statically linked ELF32 MIPS or SPARC executable with its
 * symbol table and the relocations `ld --emit-relocs` keeps (DESIGN.md section 5), validated,
 * split into functions from the symbol table, with every instruction described through the ISA
 * adapter, and with the places that hold code addresses found through the relocations:
 *   - words in allocated sections whose value is a code address (function pointers, jump tables,
 *     handlers passed to sigaction): R_MIPS_32 / R_SPARC_32;
 *   - code addresses formed in code: R_MIPS_HI16/LO16, R_SPARC_HI22/LO10/13 against text;
 *   - data inside text (SPARC jump tables): relocated words in an executable section, never
 *     decoded as instructions.
 * Anything missing or not understood is an InstrumentError naming the file.
 */
import {
  EF_MIPS_ARCH, EF_MIPS_ARCH_1, EM_MIPS, EM_SPARC, EM_SPARC32PLUS, ET_DYN, ET_EXEC, ElfError, PT_DYNAMIC, PT_INTERP,
  SHF_ALLOC, SHF_EXECINSTR, SHT_DYNSYM, SHT_NOBITS, STT_FUNC, STT_NOTYPE, STT_SECTION, machineName, parseElf,
  type ElfFile, type SectionHeader,
} from '../format/elf.js';
import type { Arch, Decoded, Isa } from './isa.js';
import { mipsIsa } from './isa_mips.js';
import { sparcIsa } from './isa_sparc.js';

export class InstrumentError extends Error {
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'InstrumentError';
  }
}

export const R_MIPS_32 = 2;
export const R_MIPS_26 = 4;
export const R_MIPS_HI16 = 5;
export const R_MIPS_LO16 = 6;
export const R_MIPS_PC16 = 10;
export const R_SPARC_32 = 3;
export const R_SPARC_WDISP30 = 7;
export const R_SPARC_WDISP22 = 8;
export const R_SPARC_HI22 = 9;
export const R_SPARC_13 = 11;
export const R_SPARC_LO10 = 12;
export const R_SPARC_UA32 = 23;

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
}

/** A code address formed by an instruction through a relocation (MIPS hi/lo, SPARC hi22/lo10/13). */
export interface CodeImmediate {
  addr: number;
  type: number;
  /** Relocation target S + A where the relocation type has an explicit addend (SPARC). */
  target?: number;
  /** The symbol's section is executable (MIPS REL: the final value comes from the code). */
  textSymbol: boolean;
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
  /** Instructions that form code or text addresses. */
  codeImmediates: Map<number, CodeImmediate>;
  /** Relocated data words inside executable sections. */
  dataInText: Set<number>;
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
  const word = (addr: number): number => {
    const s = sectionAt(e, addr);
    if (!s) throw new InstrumentError(file, `address 0x${(addr >>> 0).toString(16)} is in no allocated section`);
    return dv.getUint32(s.offset + (addr - s.addr), le);
  };
  const text = e.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && s.type !== SHT_NOBITS);
  const inText = (a: number): boolean => text.some((s) => a >= s.addr && a < s.addr + s.size);

  // Relocations: code addresses in data and in code, data inside text.
  const codeWords = new Map<number, number>();
  const codeImmediates = new Map<number, CodeImmediate>();
  const dataInText = new Set<number>();
  const isMips = isa.name === 'mips';
  for (const rs of e.relocSections) {
    const target = e.sections[rs.target];
    if (!target || (target.flags & SHF_ALLOC) === 0) continue;
    const targetIsText = (target.flags & SHF_EXECINSTR) !== 0;
    for (const r of rs.relocs) {
      const sym = e.symbols[r.sym];
      const symSec = sym ? e.sections[sym.shndx] : undefined;
      const symText = symSec !== undefined && (symSec.flags & SHF_EXECINSTR) !== 0;
      const abs32 = isMips ? r.type === R_MIPS_32 : r.type === R_SPARC_32 || r.type === R_SPARC_UA32;
      if (abs32) {
        if ((r.offset & 3) !== 0) {
          if (symText) throw new InstrumentError(file, `unaligned code address word at 0x${r.offset.toString(16)}`);
          continue;
        }
        const v = word(r.offset);
        if (targetIsText) dataInText.add(r.offset);
        if (inText(v)) codeWords.set(r.offset, v);
        continue;
      }
      if (!targetIsText) {
        if (symText) throw new InstrumentError(file, `relocation type ${r.type} at 0x${r.offset.toString(16)} refers to code in a way the instrumenter does not understand`);
        continue;
      }
      const hilo = isMips
        ? r.type === R_MIPS_HI16 || r.type === R_MIPS_LO16
        : r.type === R_SPARC_HI22 || r.type === R_SPARC_LO10 || r.type === R_SPARC_13;
      if (hilo) {
        const ci: CodeImmediate = { addr: r.offset, type: r.type, textSymbol: symText };
        if (!isMips) ci.target = ((sym && sym.type !== STT_SECTION ? sym.value : (symSec?.addr ?? 0)) + (r.addend ?? 0)) >>> 0;
        if (symText || (ci.target !== undefined && inText(ci.target))) codeImmediates.set(r.offset, ci);
        continue;
      }
      const branch = isMips ? r.type === R_MIPS_26 || r.type === R_MIPS_PC16 : r.type === R_SPARC_WDISP30 || r.type === R_SPARC_WDISP22;
      if (branch || r.type === 0) continue;
      if (symText) throw new InstrumentError(file, `relocation type ${r.type} at 0x${r.offset.toString(16)} refers to code in a way the instrumenter does not understand`);
    }
  }

  // Functions: sized STT_FUNC symbols in executable sections; unsized FUNC/NOTYPE symbols
  // (hand-written assembly without .size) extend to the next symbol or the section end.
  const entry = e.header.entry >>> 0;
  // names[0] is the function's name: a function symbol before a label (main, not the linker's
  // _ftext at the same address), a global before a local.
  interface Cand { addr: number; size: number; names: string[]; sized: boolean; rank: number }
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
  const funcs: Func[] = [];
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
    for (let a = c.addr; a < end; a += 4) insns.push(dataInText.has(a) ? undefined : isa.decode(word(a), a));
    funcs.push({ index: funcs.length, name: c.names[0]!, aliases: c.names.slice(1), addr: c.addr, end, insns, role: roleOf(c.names, c.addr, entry) });
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
  return { file, elf: e, isa, arch: isa.arch, text, funcs, entry, codeWords, codeImmediates, dataInText, word, funcAt, inText };
}
