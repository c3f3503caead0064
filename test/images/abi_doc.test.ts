/**
 * docs/abi.md against the sources it documents, so that the document cannot drift:
 *   - the system-call table equals os/syscalls.master, row for row;
 *   - the errno and signal tables equal <errno.h> and <signal.h>;
 *   - the offset tables of struct stat, struct dirent, struct flock and each ISA's struct
 *     sigcontext equal the offsets the cross compiler computes from the headers (when the
 *     toolchain is installed).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBC_DIR, ROOT_DIR } from '../../images/build.js';
import { TARGETS } from '../../images/toolchain.js';
import { syscallTable } from '../../format/syscalltab.js';
import { toolsAvailable } from '../support/tools.js';

const doc = readFileSync(join(ROOT_DIR, 'docs', 'abi.md'), 'utf8');

/** The rows of the first table after a heading (and after an optional marker line), as cells. */
function tableAfter(heading: string): string[][] {
  const lines = doc.split('\n');
  let i = lines.findIndex((l) => l.trim() === heading);
  if (i < 0) throw new Error(`docs/abi.md: no heading '${heading}'`);
  while (i < lines.length && !lines[i]!.startsWith('|')) i++;
  const rows: string[][] = [];
  for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    rows.push(lines[i]!.trim().slice(1, -1).split('|').map((c) => c.trim()));
  }
  return rows;
}

/** `#define NAME NUMBER /* comment *\/` lines of a libc header. */
function headerDefines(rel: string, re: RegExp): string[][] {
  const out: string[][] = [];
  for (const line of readFileSync(join(LIBC_DIR, 'include', rel), 'utf8').split('\n')) {
    const m = /^#define\s+(\w+)\s+(\d+)\s*\/\*\s*(.*?)\s*\*\//.exec(line);
    if (m && re.test(m[1]!)) out.push([m[2]!, m[1]!, m[3]!]);
  }
  return out;
}

describe('docs/abi.md agrees with the sources', () => {
  it('system-call table == os/syscalls.master', () => {
    const rows = tableAfter('## System calls');
    expect(rows).toEqual(syscallTable().map((e) => [String(e.number), e.name, String(e.nargs), e.comment]));
  });

  it('errno table == <errno.h>', () => {
    const rows = tableAfter('## errno values');
    expect(rows.length).toBeGreaterThan(80);
    expect(rows).toEqual(headerDefines('errno.h', /^E(?!LAST$)/));
  });

  it('signal table == <signal.h>', () => {
    const rows = tableAfter('### Numbers');
    expect(rows.length).toBe(31);
    expect(rows).toEqual(headerDefines('signal.h', /^SIG[A-Z0-9]+$/));
  });
});

const have = toolsAvailable();

describe.skipIf(!have)('docs/abi.md structure offsets == the compiler\'s', () => {
  const cases: { table: string; struct: string; isa: 'mips' | 'sparc'; header: string }[] = [
    { table: '### struct stat (`<sys/stat.h>`, 96 bytes)', struct: 'struct stat', isa: 'mips', header: 'sys/stat.h' },
    { table: '### struct stat (`<sys/stat.h>`, 96 bytes)', struct: 'struct stat', isa: 'sparc', header: 'sys/stat.h' },
    { table: '### Directory entries (`<sys/dirent.h>`)', struct: 'struct dirent', isa: 'mips', header: 'sys/dirent.h' },
    { table: '### Record locks (`struct flock`, `<fcntl.h>`, 24 bytes)', struct: 'struct flock', isa: 'mips', header: 'fcntl.h' },
    { table: '### Record locks (`struct flock`, `<fcntl.h>`, 24 bytes)', struct: 'struct flock', isa: 'sparc', header: 'fcntl.h' },
    { table: '### struct sigcontext, MIPS (`<machine/signal.h>`)', struct: 'struct sigcontext', isa: 'mips', header: 'signal.h' },
    { table: '### struct sigcontext, SPARC (`<machine/signal.h>`)', struct: 'struct sigcontext', isa: 'sparc', header: 'signal.h' },
  ];
  for (const c of cases) {
    it(`${c.isa}: ${c.table.replace(/^### /, '')}`, () => {
      const rows = tableAfter(c.table);
      const asserts: string[] = [];
      for (const [off, field] of rows) {
        const name = /`(\w+)/.exec(field ?? '')?.[1];
        if (name) asserts.push(`offsetof(${c.struct}, ${name}) == ${off}`);
        else if (field === '') asserts.push(`sizeof(${c.struct}) == ${off}`);
      }
      if (c.struct === 'struct stat') asserts.push('sizeof(struct stat) == 96');
      if (c.struct === 'struct flock') asserts.push('sizeof(struct flock) == 24');
      expect(asserts.length).toBeGreaterThan(4);
      const t = c.isa === 'mips' ? TARGETS.mipsel : TARGETS.sparc;
      const dir = mkdtempSync(join(tmpdir(), 'emu-abidoc-'));
      try {
        const src = join(dir, 'layout.c');
        writeFileSync(src, [`#include <stddef.h>`, `#include <${c.header}>`,
          ...asserts.map((a) => `_Static_assert(${a}, "${a}");`), ''].join('\n'));
        let err = '';
        try {
          execFileSync(`${t.prefix}gcc`, [...t.cflags, '-nostdinc', '-isystem', execFileSync(`${t.prefix}gcc`, [...t.cflags, '-print-file-name=include'], { encoding: 'utf8' }).trim(),
            `-I${join(LIBC_DIR, 'arch', t.isa, 'include')}`, `-I${join(LIBC_DIR, 'include')}`, '-fsyntax-only', src], { stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
          err = String((e as { stderr?: Buffer }).stderr ?? e);
        }
        expect(err).toBe('');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
