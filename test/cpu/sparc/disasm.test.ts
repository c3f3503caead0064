/**
 * The disassembler against `sparc64-linux-gnu-objdump -d`: on generated encodings of every
 * opcode-table entry (interleaved with sethi so objdump's `!` comments occur), and on every
 * instruction of the CPU test programs and the shipped SPARC guest binaries. Also the ISA-purity
 * scan: every word of those binaries' code is strict v8, V9-only encodings are not.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode } from '../../../cpu/sparc/decode.js';
import { disassemble } from '../../../cpu/sparc/disasm.js';
import { OPCODES } from '../../../cpu/sparc/opcodes.js';
import { isSparcV8Word } from '../../../cpu/sparc/query.js';
import { wordsForAll } from '../../../cpu/sparc/testgen.js';
import { BUILD_DIR, buildProgram, variant } from '../../../images/build.js';
import { programs } from '../../../images/catalog.js';
import { TARGETS, tool } from '../../../images/toolchain.js';
import { parseElf, SHF_EXECINSTR, sectionData } from '../../../format/elf.js';
import { toolsAvailable } from '../../support/tools.js';
import { normalize, normalizeObject, objdump } from './objdump.js';
import { ASM_PROGS, C_PROGS, buildProg } from './progs.js';

const have = toolsAvailable();

function assemble(words: number[], flags: string[] = ['-Av8']): string {
  const dir = mkdtempSync(join(tmpdir(), 'emu-sparc-dis-'));
  const src = join(dir, 'w.S');
  writeFileSync(src, `\t.text\n${words.map((w) => `\t.word 0x${(w >>> 0).toString(16)}`).join('\n')}\n`);
  execFileSync(tool(TARGETS.sparc, 'gcc'), ['-c', '-m32', ...flags.map((f) => `-Wa,${f}`), '-o', join(dir, 'w.o'), src]);
  return dir;
}

/** Shipped SPARC guest executables (both syscall flavours), if built. */
function shippedBinaries(): string[] {
  const out: string[] = [];
  for (const flavour of ['linux', 'bsd']) {
    const dir = join(BUILD_DIR, `${flavour}-sparc`, 'bin');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (!f.includes('.')) out.push(join(dir, f));
  }
  return out;
}

function compareBinary(file: string): { lines: number; bad: string[] } {
  const dump = objdump(file);
  const bad: string[] = [];
  const words = new Map(dump.map((l) => [l.addr, l.word]));
  for (const l of dump) {
    const mine = disassemble(l.word, l.addr, { prev: words.get(l.addr - 4), prev2: words.get(l.addr - 8) });
    if (normalize(mine) !== normalize(l.text)) bad.push(`${file} ${l.addr.toString(16)}: objdump "${normalize(l.text)}" emu "${normalize(mine)}"`);
  }
  return { lines: dump.length, bad };
}

function codeWords(file: string): { addr: number; word: number }[] {
  const elf = parseElf(readFileSync(file), file);
  const out: { addr: number; word: number }[] = [];
  for (const s of elf.sections) {
    if (!(s.flags & SHF_EXECINSTR) || s.size === 0) continue;
    const d = sectionData(elf, s);
    const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
    for (let o = 0; o + 4 <= d.length; o += 4) out.push({ addr: s.addr + o, word: dv.getUint32(o, false) });
  }
  return out;
}

describe.skipIf(!have)('SPARC disassembler vs objdump', () => {
  it('matches on generated encodings of every opcode', () => {
    // Coprocessor-operate words have no v8 syntax in objdump (documented difference).
    const specs = OPCODES.filter((s) => s.fmt !== 'cpop');
    let words: number[] = [];
    for (const seed of [1, 2, 3]) words.push(...wordsForAll(40, seed, specs));
    const mixed: number[] = [];
    words.forEach((w, i) => {
      mixed.push(w);
      if (i % 3 === 0) mixed.push((0x01000000 | (((w >>> 14) & 31) << 25) | ((i * 977) & 0x3fffff)) >>> 0);
    });
    words = mixed;
    const dir = assemble(words);
    try {
      const dump = objdump(join(dir, 'w.o'));
      expect(dump.length).toBe(words.length);
      const bad: string[] = [];
      dump.forEach((l, k) => {
        const s = decode(l.word).spec;
        const pcRel = s !== undefined && (s.fmt === 'call' || s.fmt === 'bicc' || s.fmt === 'fbfcc' || s.fmt === 'cbccc');
        const mine = disassemble(l.word, l.addr, { prev: k > 0 ? words[k - 1] : undefined, prev2: k > 1 ? words[k - 2] : undefined });
        const a = normalizeObject(l.text, pcRel);
        const b = normalize(mine);
        if (a !== b) bad.push(`${l.word.toString(16).padStart(8, '0')}: objdump "${a}" emu "${b}"`);
      });
      expect(bad.slice(0, 20)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('matches on the CPU test programs', () => {
    let total = 0;
    for (const p of [...C_PROGS, ...ASM_PROGS]) {
      const r = compareBinary(buildProg(p));
      total += r.lines;
      expect(r.bad.slice(0, 10)).toEqual([]);
    }
    expect(total).toBeGreaterThan(500);
  });

  it('matches on every shipped SPARC binary (both syscall flavours)', async () => {
    for (const flavour of ['linux', 'bsd'] as const) for (const spec of programs()) await buildProgram(variant('sparc', flavour), spec.name);
    const shipped = shippedBinaries();
    expect(shipped.length).toBeGreaterThanOrEqual(2 * programs().length);
    let total = 0;
    for (const f of shipped) {
      const r = compareBinary(f);
      total += r.lines;
      expect(r.bad.slice(0, 10)).toEqual([]);
    }
    expect(total).toBeGreaterThan(0);
  }, 1_800_000);

  it('ISA purity: program code is strict v8, V9 encodings are not', () => {
    for (const f of [...[...C_PROGS, ...ASM_PROGS].map(buildProg), ...shippedBinaries()]) {
      const foreign = codeWords(f).filter((w) => !isSparcV8Word(w.word, { user: true })).map((w) => `${f} ${w.addr.toString(16)}: ${w.word.toString(16)}`);
      expect(foreign).toEqual([]);
    }
    const dir = mkdtempSync(join(tmpdir(), 'emu-sparc-v9-'));
    try {
      const src = join(dir, 'v9.S');
      writeFileSync(src, [
        '\t.text', '\tsllx %o1, 3, %o2', '\tsrlx %o1, %o2, %o3', '\tmovne %icc, %o1, %o2', '\tcasa [%o1] 0x80, %o2, %o3',
        '\tldx [%o1], %o2', '\tstx %o2, [%o1]', '\tbne,pt %xcc, .', '\tbrz %o1, .', '\treturn %i7 + 8', '\tpopc %o1, %o2',
        '\tmulx %o1, %o2, %o3', '\tsdivx %o1, 3, %o2', '\tfmovdne %fcc0, %f0, %f2', '\tfbne,pn %fcc1, .', '\tflushw',
        '\tldsw [%o1], %o2', '\tta %xcc, 5', '\tfcmpd %fcc1, %f0, %f2', '\trd %pc, %o1', '\tprefetch [%o1], 0', '',
      ].join('\n'));
      execFileSync(tool(TARGETS.sparc, 'gcc'), ['-c', '-m64', '-o', join(dir, 'v9.o'), src]);
      const words = objdump(join(dir, 'v9.o'));
      expect(words.length).toBe(20);
      expect(words.filter((w) => isSparcV8Word(w.word, { user: true })).map((w) => w.text)).toEqual([]);
      // Strictly as v8 words, only these three are valid (privileged or ASR encodings).
      expect(words.filter((w) => isSparcV8Word(w.word)).map((w) => normalize(w.text))).toEqual(['return %i7 + 8', 'flushw', 'rd %pc, %o1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
