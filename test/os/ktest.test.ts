/**
 * The kernel's own guest tests (images/programs/ktest-*: processes, memory, files and pipes,
 * signals, the POSIX calls' BSD corners) and posixtest (the POSIX calls Linux and 4.4BSD share)
 * under preemption stress on all three targets: a quantum of 300 cycles, and randomised clock
 * deadlines. Each must still print its golden output (every check "ok") and exit 0. (The
 * default-quantum runs are part of test/os/programs.test.ts.) And a call the kernel does not
 * implement is named on standard error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { program } from '../../images/catalog.js';
import { buildAll } from '../../images/make.js';
import { TARGET_NAMES } from '../../format/target.js';
import { toolsAvailable } from '../support/tools.js';
import { runExecutable } from '../../bin/harness.js';

const KTESTS = ['ktest-proc', 'ktest-mem', 'ktest-io', 'ktest-sig', 'ktest-posix', 'posixtest'];
const VARIANTS = [
  { label: 'quantum of 300 cycles', quantum: 300, seed: null },
  { label: 'randomised deadlines, seed 7', quantum: 3000, seed: 7 },
] as const;

describe.skipIf(!toolsAvailable())('kernel tests under preemption stress', () => {
  let built: Awaited<ReturnType<typeof buildAll>>;
  beforeAll(async () => {
    built = await buildAll({ flavours: ['bsd'], targets: TARGET_NAMES, programs: [...KTESTS, 'sh', 'echo', 'cat', 'wc'], native: false });
  }, 600_000);
  for (const name of KTESTS) {
    for (const target of TARGET_NAMES) {
      for (const v of VARIANTS) {
        it(`${name} on ${target}, ${v.label}`, () => {
          const bin = built.executables.get(`bsd-${target}`)!;
          const golden = readFileSync(join(program(name).dir, 'golden', 'default.out'), 'latin1');
          const r = runExecutable(bin.get(name)!, { bin, quantum: v.quantum, seed: v.seed });
          expect(r.stdout.toString('latin1')).toBe(golden);
          expect(r.exitCode, r.message).toBe(0);
          // Preemption happened: some process lost the CPU at a quantum's end.
          expect(r.result.kernel.history.reduce((n, p) => n + p.p_ru.nivcsw, 0)).toBeGreaterThan(0);
        }, 600_000);
      }
    }
  }
  for (const target of TARGET_NAMES) {
    it(`an unimplemented system call is named on standard error (${target})`, () => {
      const bin = built.executables.get(`bsd-${target}`)!;
      const r = runExecutable(bin.get('ktest-posix')!, { args: ['nosys'], bin });
      expect(r.exitCode, r.message).toBe(0);
      const err = r.stderr.toString('latin1');
      expect(err).toContain('emu: pid 2 (ktest-posix): system call 97 (socket) is not implemented: ENOSYS, SIGSYS\n');
      expect(err).toContain('emu: pid 1 (ktest-posix): system call 4000 is not implemented: ENOSYS, SIGSYS\n');
    }, 600_000);
  }
  it('isatty follows the host: terminals where the console says so, never a pipe', () => {
    const bin = built.executables.get('bsd-mipsel')!;
    const tty = (terminals?: { stdin: boolean; stdout: boolean; stderr: boolean }): string =>
      runExecutable(bin.get('ktest-posix')!, { args: ['tty'], bin, ...(terminals ? { terminals } : {}) }).stdout.toString('latin1');
    expect(tty()).toBe('isatty: stdin 1 stdout 1 stderr 1 pipe 0\nktest-posix: 0 passed, 0 failed\n');
    expect(tty({ stdin: false, stdout: false, stderr: false })).toBe('isatty: stdin 0 stdout 0 stderr 0 pipe 0\nktest-posix: 0 passed, 0 failed\n');
    expect(tty({ stdin: false, stdout: true, stderr: true })).toBe('isatty: stdin 0 stdout 1 stderr 1 pipe 0\nktest-posix: 0 passed, 0 failed\n');
    expect(tty({ stdin: true, stdout: false, stderr: false })).toBe('isatty: stdin 1 stdout 0 stderr 0 pipe 0\nktest-posix: 0 passed, 0 failed\n');
  }, 600_000);
});
