/**
 * objdump as the decoding oracle: runs `sparc64-linux-gnu-objdump -d -z` and normalises its
 * lines and the disassembler's to the documented common form (docs/cpu-sparc.md, Disassembler):
 * whitespace collapsed, `<symbol+off>` annotations dropped, alternate-space names (objdump's V9
 * `#ASI_*` or `(n)`) replaced by `(asi)`, and branch/call targets of relocatable objects (which
 * objdump prints with 0x) as bare hex like in executables.
 */
import { execFileSync } from 'node:child_process';
import { TARGETS, tool } from '../../../images/toolchain.js';

export interface DumpLine {
  addr: number;
  word: number;
  text: string;
}

/** Instruction lines of `objdump -d -z` for an object or executable. */
export function objdump(file: string): DumpLine[] {
  const out = execFileSync(tool(TARGETS.sparc, 'objdump'), ['-d', '-z', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const lines: DumpLine[] = [];
  for (const l of out.split('\n')) {
    const m = l.match(/^\s*([0-9a-f]+):\t([0-9a-f]{2}) ([0-9a-f]{2}) ([0-9a-f]{2}) ([0-9a-f]{2}) \t(.*)$/);
    if (!m) continue;
    lines.push({ addr: parseInt(m[1]!, 16), word: parseInt(m[2]! + m[3]! + m[4]! + m[5]!, 16) >>> 0, text: m[6]! });
  }
  return lines;
}

export function normalize(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/#ASI_\w+|\(\d+\)/g, '(asi)')
    .replace(/\s+/g, ' ')
    .trim();
}

/** objdump's text for a relocatable object: bare-hex targets of PC-relative CTIs and comments. */
export function normalizeObject(text: string, isPcRelative: boolean): string {
  let t = normalize(text);
  if (isPcRelative) t = t.replace(/^(\S+ )0x([0-9a-f]+)$/, '$1$2');
  return t.replace(/! 0x([0-9a-f]+)/, '! $1');
}
