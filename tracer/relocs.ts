/**
 * What the relocations `ld --emit-relocs` keeps say about code addresses (DESIGN.md section 5).
 * Every kind the Debian cross toolchains emit for static MIPS I (o32, -mno-abicalls) and SPARC v8
 * code is classified here; the program keeps every code address it holds with its ORIGINAL value
 * (tracer/rewrite.ts: the translation table), so a relocation matters to the instrumenter only
 * through the code address it refers to (an entry point the analysis must know) and, in code,
 * through how the instruction uses it:
 *
 *   - `word`: a 32-bit word of an allocated section holding a code address (function pointers,
 *     label values, jump tables): R_MIPS_32, R_SPARC_32, R_SPARC_UA32;
 *   - `ref`: a code address a data word refers to otherwise (R_SPARC_DISP8/16/32 pc-relative
 *     words, R_MIPS_GPREL32 `.gpword`s): an entry, never rewritten;
 *   - `imm`: a code address formed by instructions (R_MIPS_HI16/LO16, R_SPARC_HI22/LO10/13/22);
 *   - `transfer`: the operand of a direct branch or call, which the decoder reads from the
 *     instruction itself (R_MIPS_26, R_MIPS_PC16, R_SPARC_WDISP30/WDISP22/WPLT30: a call through
 *     the PLT that a static link resolves to a direct call);
 *   - `data`: a data reference that forms no code address (R_MIPS_GPREL16, R_MIPS_LITERAL: $gp-
 *     relative accesses; R_MIPS_JALR: a hint on a jalr; 8- and 16-bit absolute data), or the
 *     null relocation;
 *   - `unknown`: anything else (PIC and GOT forms, pc-relative immediates in code, dynamic
 *     relocations): the code address it refers to is still an entry when it can be computed, and a
 *     function whose own instructions carry one is instrumented conservatively (tracer/conservative.ts).
 */
import { SHF_ALLOC, SHF_EXECINSTR, SHT_NOBITS, STT_SECTION, type ElfFile } from '../format/elf.js';

export const R_MIPS_NONE = 0;
export const R_MIPS_16 = 1;
export const R_MIPS_32 = 2;
export const R_MIPS_26 = 4;
export const R_MIPS_HI16 = 5;
export const R_MIPS_LO16 = 6;
export const R_MIPS_GPREL16 = 7;
export const R_MIPS_LITERAL = 8;
export const R_MIPS_PC16 = 10;
export const R_MIPS_GPREL32 = 12;
export const R_MIPS_JALR = 37;

export const R_SPARC_NONE = 0;
export const R_SPARC_8 = 1;
export const R_SPARC_16 = 2;
export const R_SPARC_32 = 3;
export const R_SPARC_DISP8 = 4;
export const R_SPARC_DISP16 = 5;
export const R_SPARC_DISP32 = 6;
export const R_SPARC_WDISP30 = 7;
export const R_SPARC_WDISP22 = 8;
export const R_SPARC_HI22 = 9;
export const R_SPARC_22 = 10;
export const R_SPARC_13 = 11;
export const R_SPARC_LO10 = 12;
export const R_SPARC_WPLT30 = 18;
export const R_SPARC_UA32 = 23;

export type RelocClass = 'word' | 'ref' | 'imm' | 'transfer' | 'data' | 'unknown';

const MIPS: Record<number, [string, RelocClass]> = {
  [R_MIPS_NONE]: ['R_MIPS_NONE', 'data'], [R_MIPS_16]: ['R_MIPS_16', 'data'], [R_MIPS_32]: ['R_MIPS_32', 'word'],
  3: ['R_MIPS_REL32', 'unknown'], [R_MIPS_26]: ['R_MIPS_26', 'transfer'], [R_MIPS_HI16]: ['R_MIPS_HI16', 'imm'],
  [R_MIPS_LO16]: ['R_MIPS_LO16', 'imm'], [R_MIPS_GPREL16]: ['R_MIPS_GPREL16', 'data'], [R_MIPS_LITERAL]: ['R_MIPS_LITERAL', 'data'],
  9: ['R_MIPS_GOT16', 'unknown'], [R_MIPS_PC16]: ['R_MIPS_PC16', 'transfer'], 11: ['R_MIPS_CALL16', 'unknown'],
  [R_MIPS_GPREL32]: ['R_MIPS_GPREL32', 'ref'], [R_MIPS_JALR]: ['R_MIPS_JALR', 'data'],
};
const SPARC: Record<number, [string, RelocClass]> = {
  [R_SPARC_NONE]: ['R_SPARC_NONE', 'data'], [R_SPARC_8]: ['R_SPARC_8', 'data'], [R_SPARC_16]: ['R_SPARC_16', 'data'],
  [R_SPARC_32]: ['R_SPARC_32', 'word'], [R_SPARC_DISP8]: ['R_SPARC_DISP8', 'ref'], [R_SPARC_DISP16]: ['R_SPARC_DISP16', 'ref'],
  [R_SPARC_DISP32]: ['R_SPARC_DISP32', 'ref'], [R_SPARC_WDISP30]: ['R_SPARC_WDISP30', 'transfer'],
  [R_SPARC_WDISP22]: ['R_SPARC_WDISP22', 'transfer'], [R_SPARC_HI22]: ['R_SPARC_HI22', 'imm'], [R_SPARC_22]: ['R_SPARC_22', 'imm'],
  [R_SPARC_13]: ['R_SPARC_13', 'imm'], [R_SPARC_LO10]: ['R_SPARC_LO10', 'imm'], 13: ['R_SPARC_GOT10', 'unknown'],
  14: ['R_SPARC_GOT13', 'unknown'], 15: ['R_SPARC_GOT22', 'unknown'], 16: ['R_SPARC_PC10', 'unknown'], 17: ['R_SPARC_PC22', 'unknown'],
  [R_SPARC_WPLT30]: ['R_SPARC_WPLT30', 'transfer'], [R_SPARC_UA32]: ['R_SPARC_UA32', 'word'],
};

/** The name and class of a relocation type. */
export function relocKind(mips: boolean, type: number): { name: string; cls: RelocClass } {
  const e = (mips ? MIPS : SPARC)[type];
  return e ? { name: e[0], cls: e[1] } : { name: `${mips ? 'R_MIPS' : 'R_SPARC'} type ${type}`, cls: 'unknown' };
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

/** A relocation the instrumenter does not understand that refers to code, or sits in code. */
export interface UnknownReloc {
  /** Where the relocation applies. */
  at: number;
  name: string;
  /** The code address it refers to (S + A), when that can be computed. */
  target?: number;
  /** It applies to an instruction (the function holding it is instrumented conservatively). */
  inCode: boolean;
}

export interface CodeRelocs {
  /** Words (addresses) in allocated sections holding code addresses, with their values. */
  codeWords: Map<number, number>;
  /** Code addresses referred to by data other than whole absolute words (entries). */
  codeRefs: Set<number>;
  /** Instructions that form code or text addresses. */
  codeImmediates: Map<number, CodeImmediate>;
  /** Relocated data words inside executable sections (never decoded as instructions). */
  dataInText: Set<number>;
  unknown: UnknownReloc[];
}

/**
 * Reads the relocations of every allocated section. `read32(addr)` reads a word of the file at a
 * virtual address (any alignment); `inText(addr)` tells whether an address is in an executable
 * section.
 */
export function codeRelocs(e: ElfFile, mips: boolean, read32: (addr: number) => number, inText: (addr: number) => boolean): CodeRelocs {
  const out: CodeRelocs = { codeWords: new Map(), codeRefs: new Set(), codeImmediates: new Map(), dataInText: new Set(), unknown: [] };
  const gp = mips ? e.symbols.find((s) => s.name === '_gp')?.value : undefined;
  for (const rs of e.relocSections) {
    const target = e.sections[rs.target];
    if (!target || (target.flags & SHF_ALLOC) === 0 || target.type === SHT_NOBITS) continue;
    const targetIsText = (target.flags & SHF_EXECINSTR) !== 0;
    for (const r of rs.relocs) {
      const sym = e.symbols[r.sym];
      const symSec = sym ? e.sections[sym.shndx] : undefined;
      const symText = symSec !== undefined && (symSec.flags & SHF_EXECINSTR) !== 0;
      const { name, cls } = relocKind(mips, r.type);
      // S + A where the addend is explicit (SPARC RELA); MIPS REL: the symbol alone when it is
      // no section symbol (its addend is in the relocated field).
      const sa = r.addend !== undefined
        ? (((sym && sym.type !== STT_SECTION ? sym.value : (symSec?.addr ?? 0)) + r.addend) >>> 0)
        : sym && sym.type !== STT_SECTION && sym.shndx !== 0 ? sym.value >>> 0 : undefined;
      switch (cls) {
        case 'transfer':
        case 'data':
          continue;
        case 'word': {
          const v = read32(r.offset);
          if (targetIsText) out.dataInText.add(r.offset);
          if (inText(v)) out.codeWords.set(r.offset, v);
          continue;
        }
        case 'ref': {
          // The referred address: S + A (SPARC), or the .gpword's value plus _gp (MIPS).
          const v = mips ? (gp !== undefined ? (read32(r.offset) + gp) >>> 0 : undefined) : sa;
          if (targetIsText && (r.offset & 3) === 0) out.dataInText.add(r.offset);
          if (v !== undefined && inText(v)) out.codeRefs.add(v);
          else if (v === undefined && symText) out.unknown.push({ at: r.offset, name, inCode: false });
          continue;
        }
        case 'imm': {
          if (!targetIsText) {
            // A hi/lo form applied to data: the program computes with a code address there in a
            // way no instruction shows; the address is an entry.
            if (sa !== undefined && inText(sa)) out.codeRefs.add(sa);
            else if (symText) out.unknown.push({ at: r.offset, name, inCode: false });
            continue;
          }
          const ci: CodeImmediate = { addr: r.offset, type: r.type, textSymbol: symText };
          if (!mips && sa !== undefined) ci.target = sa;
          if (symText || (ci.target !== undefined && inText(ci.target))) out.codeImmediates.set(r.offset, ci);
          continue;
        }
        case 'unknown':
          if (!targetIsText && !symText) continue;
          out.unknown.push({ at: r.offset, name, inCode: targetIsText, ...(sa !== undefined && inText(sa) ? { target: sa } : {}) });
          continue;
      }
    }
  }
  return out;
}
