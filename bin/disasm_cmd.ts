/**
 * `emu disasm FILE`: disassembles the executable sections of a MIPS or SPARC ELF executable in
 * objdump's layout (address, word, instruction; symbol labels; branch targets named
 * `<symbol+offset>`), with the project's own disassemblers.
 */
import { readInput } from './outputs.js';
import { Command } from 'commander';
import { describe } from './commands.js';
import { disasm as mipsDisasm } from '../cpu/mips/disasm.js';
import { disassemble as sparcDisasm } from '../cpu/sparc/disasm.js';
import {
  EM_MIPS, EM_SPARC, STT_FUNC, STT_NOTYPE, machineName, parseElf, sectionData, SHF_EXECINSTR, type ElfFile,
} from '../format/elf.js';

interface Sym {
  addr: number;
  name: string;
}

/** Code symbols sorted by address (functions and untyped labels, no section or file symbols). */
function codeSymbols(e: ElfFile): Sym[] {
  const text = new Set(e.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0).map((s) => s.index));
  return e.symbols
    .filter((s) => s.name !== '' && text.has(s.shndx) && (s.type === STT_FUNC || s.type === STT_NOTYPE))
    .map((s) => ({ addr: s.value >>> 0, name: s.name }))
    .sort((a, b) => a.addr - b.addr || (a.name < b.name ? -1 : 1));
}

function symbolizer(syms: Sym[]): (addr: number) => string | undefined {
  return (addr: number) => {
    let lo = 0;
    let hi = syms.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (syms[mid]!.addr <= addr) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (best < 0) return undefined;
    const s = syms[best]!;
    return addr === s.addr ? s.name : `${s.name}+0x${(addr - s.addr).toString(16)}`;
  };
}

/** The listing of every executable section. */
export function disassembleFile(file: string): string {
  const e = parseElf(readInput(file), file);
  const mips = e.header.machine === EM_MIPS;
  if (!mips && e.header.machine !== EM_SPARC) throw new Error(`${file}: cannot disassemble ${machineName(e.header.machine)}`);
  const syms = codeSymbols(e);
  const symbolize = symbolizer(syms);
  const labels = new Map<number, string>();
  for (const s of syms) if (!labels.has(s.addr)) labels.set(s.addr, s.name);
  const out: string[] = [`${file}:     file format elf32-${mips ? (e.bigEndian ? 'tradbigmips' : 'tradlittlemips') : 'sparc'}`, ''];
  for (const s of e.sections) {
    if ((s.flags & SHF_EXECINSTR) === 0 || s.size === 0) continue;
    out.push('', `Disassembly of section ${s.name}:`);
    const b = sectionData(e, s);
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let prev: number | undefined;
    let prev2: number | undefined;
    for (let off = 0; off + 4 <= b.byteLength; off += 4) {
      const a = (s.addr + off) >>> 0;
      const w = dv.getUint32(off, !e.bigEndian);
      const label = labels.get(a);
      if (label !== undefined) out.push('', `${a.toString(16).padStart(8, '0')} <${label}>:`);
      const text = mips
        ? mipsDisasm(w, a, { symbolize })
        : sparcDisasm(w, a, { ...(prev !== undefined ? { prev } : {}), ...(prev2 !== undefined ? { prev2 } : {}) });
      out.push(`${a.toString(16).padStart(8, ' ')}:\t${w.toString(16).padStart(8, '0')} \t${text}`);
      prev2 = prev;
      prev = w;
    }
  }
  return `${out.join('\n')}\n`;
}

export function disasmCommand(): Command {
  return new Command('disasm')
    .description(describe('disasm'))
    .argument('<file>', 'ELF executable')
    .action((file: string) => {
      process.stdout.write(disassembleFile(file));
    });
}
