/**
 * Runs binutils' objdump (the oracle for decoding) on raw instruction words or on an executable,
 * and parses its lines into address -> "mnemonic\toperands". Branch-target symbol annotations
 * (" <sym+0x10>") are removed: docs/cpu-mips.md documents that emu's disassembler prints the same
 * target address but names symbols only when given a symbolizer.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMON_CFLAGS, TARGETS, tool } from '../../../../images/toolchain.js';
import type { TargetName } from '../../../../format/target.js';

export interface ObjdumpLine {
  addr: number;
  word: number;
  text: string;
}

/** Normalises one objdump instruction text: drops symbol annotations and trailing blanks. */
export function normaliseObjdump(text: string): string {
  return text.replace(/ <[^>]*>/g, '').replace(/\s+$/, '');
}

/** Parses `objdump -d` output (instruction lines only; "..." runs of zeros are absent). */
export function parseObjdump(out: string): ObjdumpLine[] {
  const lines: ObjdumpLine[] = [];
  for (const l of out.split('\n')) {
    const m = /^\s*([0-9a-f]+):\t([0-9a-f]{8}) \t(.*)$/.exec(l);
    if (m) lines.push({ addr: parseInt(m[1]!, 16), word: parseInt(m[2]!, 16), text: normaliseObjdump(m[3]!) });
  }
  return lines;
}

/** objdump -d of an executable or object file. */
export function objdumpFile(target: TargetName, file: string, noAliases = false): ObjdumpLine[] {
  const args = ['-d', ...(noAliases ? ['-M', 'no-aliases'] : []), file];
  return parseObjdump(execFileSync(tool(TARGETS[target], 'objdump'), args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** Assembles the words as .text of a MIPS I object (ELF flags mips1) and disassembles it. */
export function objdumpWords(target: TargetName, words: readonly number[], noAliases = false): ObjdumpLine[] {
  const t = TARGETS[target];
  const dir = mkdtempSync(join(tmpdir(), 'emu-objdump-'));
  try {
    const src = join(dir, 'w.S');
    const obj = join(dir, 'w.o');
    const body = words.map((w) => `\t.word 0x${(w >>> 0).toString(16)}`).join('\n');
    // A symbol at the start makes objdump print targets as in executables ("addr <sym+off>").
    writeFileSync(src, `\t.set noreorder\n\t.text\n\t.globl __start\n__start:\n${body}\n`);
    execFileSync(tool(t, 'gcc'), [...t.cflags, ...COMMON_CFLAGS.filter((f) => f !== '-nostdinc'), '-c', src, '-o', obj]);
    return objdumpFile(target, obj, noAliases);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
