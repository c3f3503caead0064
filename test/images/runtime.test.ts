/**
 * The guest runtime against the guest ABI (os/syscalls.master) and against itself:
 *   - BSD flavour: every system call has its stub, and the stub traps with the master file's
 *     number (the last value put in v0 / %g1 before `syscall` / `ta 0`);
 *   - Linux flavour: every system call has its libc entry point;
 *   - compiler-support routines: no routine calls itself (gcc can lower C to a call of the very
 *     routine being compiled), and they depend on nothing outside themselves;
 *   - libm: no function calls itself (the same lowering: narrowing to the float form, sincos).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBC_DIR, buildRuntime, objPath, variant } from '../../images/build.js';
import { TARGETS } from '../../images/toolchain.js';
import { TARGET_NAMES } from '../../format/target.js';
import { syscallTable } from '../../format/syscalltab.js';
import { toolsAvailable } from '../support/tools.js';

const have = toolsAvailable();
/** The sources of the compiler-support routines, and of libm. */
const SUPPORT_SRCS = readdirSync(join(LIBC_DIR, 'src', 'support')).filter((f) => f.endsWith('.c')).map((f) => join(LIBC_DIR, 'src', 'support', f));
const MATH_SRCS = readdirSync(join(LIBC_DIR, 'src', 'math')).filter((f) => f.endsWith('.c')).map((f) => join(LIBC_DIR, 'src', 'math', f));

/** The libc function that performs each call, when its name is not the call's. */
const ENTRY: Record<'bsd' | 'linux', Record<string, string>> = {
  bsd: {
    exit: '_exit', break: '__sys_break', sigaction: '__sys_sigaction', sigsuspend: '__sys_sigsuspend', lseek: '__sys_lseek',
    pread: '__sys_pread', pwrite: '__sys_pwrite', truncate: '__sys_truncate', ftruncate: '__sys_ftruncate', mmap: '__sys_mmap',
  },
  linux: { exit: '_exit', break: 'brk' },
};

interface Fn {
  name: string;
  lines: string[];
}

/** Functions of an objdump -d listing, each with its instruction lines. */
function functions(listing: string): Map<string, Fn> {
  const out = new Map<string, Fn>();
  let cur: Fn | undefined;
  for (const line of listing.split('\n')) {
    const m = /^[0-9a-f]+ <([^>]+)>:$/.exec(line);
    if (m) {
      cur = { name: m[1]!, lines: [] };
      out.set(cur.name, cur);
    } else if (cur && /^\s+[0-9a-f]+:/.test(line)) cur.lines.push(line);
  }
  return out;
}

function objdump(prefix: string, args: string[]): string {
  return execFileSync(`${prefix}objdump`, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** The number a stub loads into the syscall-number register before its trap, or undefined. */
function trapNumber(fn: Fn, isa: 'mips' | 'sparc'): number | undefined {
  let n: number | undefined;
  for (const l of fn.lines) {
    const load = isa === 'mips' ? /\tli\tv0,(-?\w+)$/.exec(l) : /\tmov\s+(-?\w+), %g1/.exec(l);
    if (load) n = Number(load[1]);
    if (isa === 'mips' ? /\tsyscall\b/.test(l) : /\tta\s+0$/.test(l)) return n;
  }
  return undefined;
}

/**
 * The calls in some objects (objdump -dr): each call instruction's caller and callee, and the
 * functions the objects define.
 */
function callsOf(prefix: string, objs: string[]): { own: Set<string>; calls: { caller: string; callee: string }[] } {
  // objdump -dr of several objects: one block per object, headed "<path>.o:     file format ...".
  const members = objdump(prefix, ['-dr', ...objs]).split(/\n(?=\S+\.o:\s+file format)/).filter((b) => /\.o:\s+file format/.test(b));
  expect(members.length).toBe(objs.length);
  const own = new Set(members.flatMap((m) => [...functions(m).keys()]));
  const calls: { caller: string; callee: string }[] = [];
  for (const m of members) {
    const lines = m.split('\n');
    let cur = '';
    lines.forEach((line, i) => {
      const f = /^[0-9a-f]+ <([^>]+)>:$/.exec(line);
      if (f) cur = f[1]!;
      if (!/\t(jal|j|bal|call)\s/.test(line) || /\tcall\s+%/.test(line)) return;
      // A call's target: the relocation's symbol when there is one, except that a relocation
      // against a section (a call to a static function) leaves the target in the instruction,
      // which objdump names on the instruction's line, as it does for calls the assembler
      // resolved without a relocation (SPARC's pc-relative calls inside an object).
      const r = /R_(?:MIPS_26|SPARC_WDISP30)\s+(\S+)/.exec(lines[i + 1] ?? '');
      const named = /<([^>+]+)(\+0x[0-9a-f]+)?>/.exec(line);
      const callee = r && !r[1]!.startsWith('.') ? r[1]! : named && !named[2] ? named[1]! : undefined;
      if (callee !== undefined) calls.push({ caller: cur, callee });   /* else a jump inside the function */
    });
  }
  return { own, calls };
}

describe.skipIf(!have)('guest runtime', () => {
  for (const t of TARGET_NAMES) {
    const target = TARGETS[t];

    it(`${t}: BSD-flavour stubs trap with the numbers of os/syscalls.master`, async () => {
      const rt = await buildRuntime(variant(t, 'bsd'));
      const fns = functions(objdump(target.prefix, ['-d', rt.libc]));
      const bad: string[] = [];
      for (const e of syscallTable()) {
        const name = ENTRY.bsd[e.name] ?? e.name;
        const fn = fns.get(name);
        if (!fn) bad.push(`${e.name}: no function ${name}`);
        else if (trapNumber(fn, target.isa) !== e.number) bad.push(`${e.name}: ${name} traps with ${trapNumber(fn, target.isa)}, expected ${e.number}`);
      }
      expect(bad).toEqual([]);
    });

    it(`${t}: Linux flavour has an entry point for every system call`, async () => {
      const rt = await buildRuntime(variant(t, 'linux'));
      const defined = new Set(execFileSync(`${target.prefix}nm`, ['--defined-only', rt.libc], { encoding: 'utf8' })
        .split('\n').map((l) => l.split(' ')).filter((f) => f.length === 3 && /[TW]/.test(f[1]!)).map((f) => f[2]!));
      const missing = syscallTable().map((e) => ENTRY.linux[e.name] ?? e.name).filter((n) => !defined.has(n));
      expect(missing).toEqual([]);
    });

    it(`${t}: compiler-support routines neither call themselves nor anything outside`, async () => {
      const v = variant(t, 'linux');
      await buildRuntime(v);
      const objs = SUPPORT_SRCS.map((src) => objPath(v, src));
      const { own, calls } = callsOf(target.prefix, objs);
      const bad: string[] = [];
      for (const c of calls) {
        if (c.callee === c.caller) bad.push(`${c.caller} calls itself`);
        else if (!own.has(c.callee)) bad.push(`${c.caller} calls ${c.callee}, outside the support routines`);
      }
      expect(bad).toEqual([]);
      const undef = execFileSync(`${target.prefix}nm`, ['-u', ...objs], { encoding: 'utf8' }).split('\n')
        .filter((l) => /^\s+U /.test(l)).map((l) => l.trim());
      expect(undef).toEqual([]);
    });

    it(`${t}: no libm function calls itself (gcc turns (float)f((double)x) into fx, sin and cos into sincos)`, async () => {
      const v = variant(t, 'linux');
      await buildRuntime(v);
      const { calls } = callsOf(target.prefix, MATH_SRCS.map((src) => objPath(v, src)));
      expect(calls.length).toBeGreaterThan(100);
      expect(calls.filter((c) => c.callee === c.caller).map((c) => `${c.caller} calls itself`)).toEqual([]);
    });
  }
});
