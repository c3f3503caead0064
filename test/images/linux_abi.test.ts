/**
 * The Linux flavour's view of Linux (images/libc/sys/linux/<isa>/include/): system-call numbers
 * (LNR_*), errno, open/fcntl, signal and termios values (LINUX_*), and the layouts of the
 * structures it converts (linux_struct.h), checked against the Linux UAPI headers installed with
 * the Debian cross compilers. The values are read from objects the cross gcc compiles, so every
 * macro is evaluated exactly as Linux's own headers define it for that architecture.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIBC_DIR } from '../../images/build.js';
import { uapiHeadersAvailable } from '../support/tools.js';

const work = mkdtempSync(join(tmpdir(), 'emu-linuxabi-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Arch {
  isa: 'mips' | 'sparc';
  prefix: string;
  flags: string[];
  littleEndian: boolean;
  /** The Debian package of the Linux UAPI headers the cross gcc reads. */
  pkg: string;
}

const ARCHES: Arch[] = [
  { isa: 'mips', prefix: 'mipsel-linux-gnu-', flags: [], littleEndian: true, pkg: 'linux-libc-dev-mipsel-cross' },
  { isa: 'sparc', prefix: 'sparc64-linux-gnu-', flags: ['-m32'], littleEndian: false, pkg: 'linux-libc-dev-sparc64-cross' },
];

const have = uapiHeadersAvailable(ARCHES);

/** `#define NAME VALUE` lines of a header whose names start with prefix. */
function defines(file: string, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^#define\s+(\w+)\s+(\S+)/.exec(line);
    if (m && m[1]!.startsWith(prefix)) out.set(m[1]!, m[2]!);
  }
  return out;
}

/**
 * Evaluates C expressions with the cross compiler against the installed headers: each becomes
 * one `long long` in .rodata, read back from the object. A name that is not defined there
 * yields null.
 */
function evaluate(a: Arch, includes: string[], exprs: string[]): (bigint | null)[] {
  const MISSING = 0x7fffffffdeadbeefn;
  const lines = includes.map((i) => `#include <${i}>`);
  lines.push('const long long vals[] = {');
  for (const e of exprs) lines.push(`#ifdef ${e}`, `(long long)(${e}),`, '#else', `${MISSING}LL,`, '#endif');
  lines.push('};');
  const src = join(work, `${a.isa}-eval.c`);
  const obj = join(work, `${a.isa}-eval.o`);
  const bin = join(work, `${a.isa}-eval.bin`);
  writeFileSync(src, lines.join('\n') + '\n');
  execFileSync(`${a.prefix}gcc`, [...a.flags, '-c', '-O0', src, '-o', obj]);
  execFileSync(`${a.prefix}objcopy`, ['-O', 'binary', '-j', '.rodata', obj, bin]);
  const data = readFileSync(bin);
  return exprs.map((_, i) => {
    const v = a.littleEndian ? data.readBigInt64LE(8 * i) : data.readBigInt64BE(8 * i);
    return v === MISSING ? null : v;
  });
}

function cValue(s: string): bigint {
  return BigInt(s.replace(/[uUlL]+$/, ''));
}

describe.skipIf(!have)('Linux flavour constants and structures match the Linux UAPI headers', () => {
  for (const a of ARCHES) {
    const inc = join(LIBC_DIR, 'sys', 'linux', a.isa, 'include');

    it(`${a.isa}: system-call numbers (linux_nr.h)`, () => {
      const mine = defines(join(inc, 'linux_nr.h'), 'LNR_');
      expect(mine.size).toBeGreaterThan(40);
      const names = [...mine.keys()];
      // Linux spells the 64-bit lseek `_llseek`.
      const linuxNames = names.map((n) => `__NR_${n === 'LNR_llseek' ? '_llseek' : n.slice(4)}`);
      const vals = evaluate(a, ['asm/unistd.h'], linuxNames);
      const bad: string[] = [];
      names.forEach((n, i) => {
        if (vals[i] !== cValue(mine.get(n)!)) bad.push(`${n}=${mine.get(n)} linux=${vals[i] ?? 'undefined'}`);
      });
      expect(bad).toEqual([]);
    });

    for (const [file, includes] of [
      ['linux_errno.h', ['asm/errno.h']],
      // asm/fcntl.h of MIPS defines F_GETLK64 and friends only when __BITS_PER_LONG is known.
      ['linux_fcntl.h', ['asm/bitsperlong.h', 'asm/fcntl.h']],
      ['linux_signal.h', ['asm/signal.h']],
      ['linux_termios.h', ['asm/ioctls.h', 'asm/termios.h']],
      ['linux_mman.h', ['linux/mman.h']],
    ] as const) {
      it(`${a.isa}: ${file}`, () => {
        const mine = defines(join(inc, file), 'LINUX_');
        expect(mine.size).toBeGreaterThan(5);
        const names = [...mine.keys()];
        const vals = evaluate(a, [...includes], names.map((n) => n.slice(6)));
        const bad: string[] = [];
        names.forEach((n, i) => {
          if (vals[i] !== cValue(mine.get(n)!)) bad.push(`${n}=${mine.get(n)} linux=${vals[i] ?? 'undefined'}`);
        });
        expect(bad).toEqual([]);
      });
    }

    it(`${a.isa}: <poll.h> values are Linux's (poll passes them through unchanged)`, () => {
      const mine = defines(join(LIBC_DIR, 'include', 'poll.h'), 'POLL');
      expect(mine.size).toBeGreaterThan(8);
      const names = [...mine.keys()];
      const vals = evaluate(a, ['asm/poll.h'], names);
      // An alias (POLLWRNORM POLLOUT) stands for the value of the name it gives.
      const value = (n: string): bigint => {
        const v = mine.get(n)!;
        return mine.has(v) ? value(v) : cValue(v);
      };
      const bad: string[] = [];
      names.forEach((n, i) => {
        if (vals[i] !== value(n)) bad.push(`${n}=${mine.get(n)} linux=${vals[i] ?? 'undefined'}`);
      });
      expect(bad).toEqual([]);
    });

    it(`${a.isa}: structure layouts (linux_struct.h)`, () => {
      const statFields = ['st_dev', 'st_ino', 'st_mode', 'st_nlink', 'st_uid', 'st_gid', 'st_rdev', 'st_size', 'st_blksize', 'st_blocks',
        'st_atime_nsec', 'st_mtime_nsec', 'st_ctime_nsec'];
      const sa = a.isa === 'sparc' ? 'struct __new_sigaction' : 'struct sigaction';
      const saFields = a.isa === 'sparc' ? ['sa_handler', 'sa_flags', 'sa_restorer', 'sa_mask'] : ['sa_flags', 'sa_handler', 'sa_mask'];
      const sigset = a.isa === 'sparc' ? '__new_sigset_t' : 'sigset_t';
      const asserts = [
        'sizeof(struct linux_stat64) == sizeof(struct stat64)',
        ...statFields.map((f) => `offsetof(struct linux_stat64, ${f}) == offsetof(struct stat64, ${f})`),
        ...['atime', 'mtime', 'ctime'].map((t) => `offsetof(struct linux_stat64, st_${t}_sec) == offsetof(struct stat64, st_${t})`),
        `sizeof(struct linux_sigaction) == sizeof(${sa})`,
        ...saFields.map((f) => `offsetof(struct linux_sigaction, ${f}) == offsetof(${sa}, ${f})`),
        `sizeof(linux_sigset_t) == sizeof(${sigset})`,
        'sizeof(struct linux_termios) == sizeof(struct termios)',
        'LINUX_TERMIOS_NCCS == NCCS',
        'sizeof(struct linux_flock64) == sizeof(struct flock64)',
        ...['l_type', 'l_whence', 'l_start', 'l_len', 'l_pid'].map((f) => `offsetof(struct linux_flock64, ${f}) == offsetof(struct flock64, ${f})`),
        ...['c_iflag', 'c_oflag', 'c_cflag', 'c_lflag', 'c_line', 'c_cc'].map((f) => `offsetof(struct linux_termios, ${f}) == offsetof(struct termios, ${f})`),
      ];
      const src = join(work, `${a.isa}-layout.c`);
      writeFileSync(src, [
        '#include <stddef.h>',
        '#include <asm/stat.h>',
        '#include <asm/signal.h>',
        '#include <asm/termbits.h>',
        '#include <asm/bitsperlong.h>',
        '#include <asm/fcntl.h>',
        `#include "${join(inc, 'linux_struct.h')}"`,
        ...asserts.map((x) => `_Static_assert(${x}, "${x.replace(/"/g, '')}");`),
        '',
      ].join('\n'));
      let err = '';
      try {
        execFileSync(`${a.prefix}gcc`, [...a.flags, '-ffreestanding', '-fsyntax-only', src], { stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        err = String((e as { stderr?: Buffer }).stderr ?? e);
      }
      expect(err).toBe('');
    });
  }
});
