/**
 * The system call table of the guest ABI, read from os/syscalls.master (the single source of the
 * numbers, kept beside the kernel as 4.4BSD keeps sys/kern/syscalls.master): the kernel dispatches
 * by it, images/ generates the libc's <sys/syscall.h> from it, the instrumenter's prologue names
 * the calls it makes by it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SyscallEntry {
  number: number;
  name: string;
  /** 32-bit argument words the trap handler fetches. */
  nargs: number;
  /** The C prototype and notes from the master file. */
  comment: string;
}

/** The source tree's root, whether running from source (format/) or from dist/format. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)).replace(/[\\/]dist[\\/]format$/, '/format'), '..');
export const SYSCALLS_MASTER = join(ROOT, 'os', 'syscalls.master');

export function parseSyscallsMaster(text: string, file = SYSCALLS_MASTER): SyscallEntry[] {
  const out: SyscallEntry[] = [];
  const seen = new Map<number, string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith(';')) return;
    const semi = line.indexOf(';');
    const fields = (semi >= 0 ? line.slice(0, semi) : line).trim().split(/\s+/);
    const comment = semi >= 0 ? line.slice(semi + 1).trim() : '';
    const [num, name, nargs] = fields;
    if (fields.length !== 3 || !/^\d+$/.test(num!) || !/^[a-z_][a-z0-9_]*$/.test(name!) || !/^\d+$/.test(nargs!)) {
      throw new Error(`${file}:${i + 1}: expected 'NUMBER NAME NARGS ; comment', got '${raw}'`);
    }
    const number = Number(num);
    if (seen.has(number)) throw new Error(`${file}:${i + 1}: number ${number} already used by ${seen.get(number)}`);
    seen.set(number, name!);
    out.push({ number, name: name!, nargs: Number(nargs), comment });
  });
  return out;
}

let cached: SyscallEntry[] | undefined;

export function syscallTable(): SyscallEntry[] {
  cached ??= parseSyscallsMaster(readFileSync(SYSCALLS_MASTER, 'utf8'));
  return cached;
}

/** SYS_* constants for the BSD-flavour libc (<sys/syscall.h>). */
export function generateSyscallHeader(): string {
  const lines = [
    '/* Generated from os/syscalls.master by images/build.ts; do not edit. */',
    '#ifndef _SYS_SYSCALL_H_',
    '#define _SYS_SYSCALL_H_',
    '',
  ];
  for (const e of syscallTable()) lines.push(`#define SYS_${e.name.padEnd(16)} ${e.number}\t/* ${e.comment} */`);
  lines.push('', `#define SYS_MAXSYSCALL ${Math.max(...syscallTable().map((e) => e.number)) + 1}`, '', '#endif /* !_SYS_SYSCALL_H_ */', '');
  return lines.join('\n');
}
