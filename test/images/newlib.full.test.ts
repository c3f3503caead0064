/**
 * newlib as the guest C library (images/newlib.ts, images/libc/newlib/): programs built against
 * it on all three targets run under emu (BSD flavour) and qemu-user (Linux flavour) with equal
 * output.
 *   - test/images/newlib/syscalls.c exercises every call of newlib's system layer (errno values,
 *     open flags, fcntl, stat, signals and masks, fork/wait status, pipes, times, sbrk ...);
 *   - the portable catalog programs (NEWLIB_PROGRAMS) print their golden outputs: the goldens
 *     come from the project's libc and the host's, so this compares three C libraries.
 *   - `emu images check --libc newlib`: every member of newlib's libc.a and libm.a, of the system
 *     layer and support archives, and every newlib build of those programs is MIPS I + R2010 /
 *     SPARC v8 user code that leaves the tracer's registers alone.
 * The first run builds newlib for the three targets (a minute or two each); later runs reuse it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { variant } from '../../images/build.js';
import { checkBuilt } from '../../images/checkall.js';
import { program } from '../../images/catalog.js';
import { NEWLIB_PROGRAMS } from '../../images/newlib.js';
import { buildProgramWith, buildUserProgram } from '../../images/runtime.js';
import { FLAVOURS } from '../../images/toolchain.js';
import { TARGET_NAMES, type TargetName } from '../../format/target.js';
import { runExecutable } from '../../bin/harness.js';
import { runGuest } from '../support/guestrun.js';
import { newlibSourceAvailable } from '../support/tools.js';

const have = newlibSourceAvailable();
const SYSCALLS = join(dirname(new URL(import.meta.url).pathname), 'newlib', 'syscalls.c');

describe.skipIf(!have)('newlib: system layer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emu-newlib-'));
  const exe = (t: TargetName, f: string) => join(dir, `syscalls.${t}.${f}`);
  beforeAll(async () => {
    await Promise.all(TARGET_NAMES.flatMap((t) => FLAVOURS.map((f) => buildUserProgram(variant(t, f), [SYSCALLS], exe(t, f), [], 'newlib'))));
  }, 1_800_000);

  for (const t of TARGET_NAMES) {
    it(`syscalls.c on ${t}: every check passes, emu prints what qemu-user prints`, () => {
      const q = runGuest({ exe: exe(t, 'linux'), args: [], programs: new Map(), binDir: dir, target: t });
      const e = runExecutable(exe(t, 'bsd'));
      const out = e.stdout.toString();
      expect(out, e.message).toMatch(/\n0 failures\n$/);
      expect(out).not.toMatch(/^FAIL/m);
      expect(out).toBe(q.stdout.toString());
      expect([e.exitCode, q.status]).toEqual([0, 0]);
    });
  }
  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});

describe.skipIf(!have)('newlib: catalog programs print their golden outputs', () => {
  const built = new Map<string, Map<string, string>>();
  beforeAll(async () => {
    for (const t of TARGET_NAMES) {
      for (const f of FLAVOURS) {
        const v = variant(t, f);
        const m = new Map<string, string>();
        await Promise.all(NEWLIB_PROGRAMS.map(async (n) => m.set(n, await buildProgramWith(v, n, 'newlib'))));
        built.set(`${f}-${t}`, m);
      }
    }
  }, 1_800_000);

  for (const name of NEWLIB_PROGRAMS) {
    const p = program(name);
    // Shell tests need the host's or the guest's shell and tools: test/images/programs.test.ts and
    // test/os/programs.test.ts run those; here each program runs alone.
    for (const t of p.tests.filter((x) => x.shell === undefined && x.qemu && x.needs.length === 0)) {
      for (const target of TARGET_NAMES) {
        it(`${name}/${t.name} on ${target}: emu and qemu-user print the golden output`, () => {
          const golden = readFileSync(join(p.dir, t.golden)).toString('latin1');
          const stdin = t.stdin ? join(p.dir, t.stdin) : undefined;
          const lin = built.get(`linux-${target}`)!;
          const q = runGuest({ exe: lin.get(name)!, args: t.args, programs: lin, binDir: dirname(lin.get(name)!), target, ...(stdin ? { stdinFile: stdin } : {}) });
          const bsd = built.get(`bsd-${target}`)!;
          const e = runExecutable(bsd.get(name)!, { args: t.args, bin: bsd, ...(stdin ? { stdin: readFileSync(stdin) } : {}) });
          expect(q.stdout.toString('latin1'), `qemu-user; stderr: ${q.stderr.slice(0, 500)}`).toBe(golden);
          expect(q.status).toBe(t.status);
          expect(e.stdout.toString('latin1'), `emu: ${e.message}; stderr: ${e.stderr.toString().slice(0, 500)}`).toBe(golden);
          expect(e.exitCode, e.message).toBe(t.status);
        }, 600_000);
      }
    }
  }
});

describe.skipIf(!have)('newlib: ISA purity', () => {
  for (const t of TARGET_NAMES) {
    it(`${t}: newlib's libraries, the system layer, and the programs built with them`, async () => {
      const r = await checkBuilt({ targets: [t], libc: 'newlib' });
      // libc.a and libm.a once; crt0, the system layer and the support archive per flavour; the programs.
      expect(r.checked).toBe(2 + 2 * 3 + 2 * NEWLIB_PROGRAMS.length);
      expect(r.failures.join('\n\n')).toBe('');
    }, 1_800_000);
  }
});
