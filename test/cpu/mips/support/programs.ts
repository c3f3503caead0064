/**
 * Whole-program differential test: every guest program's Linux-flavour build (images/programs,
 * built on demand by the images build driver) gives the same stdout and exit status (or the same
 * terminating signal) on emu's CPU under the test Linux layer as under qemu-user — both byte
 * orders, with the fast engine, and with the reference interpreter for the short runs.
 *
 * Not run here (reason in EXCLUDED): programs whose behaviour needs what the test layer does not
 * provide (signal delivery, fork/exec). Tests written as host shell lines need several guest
 * processes and are left to the kernel's tests.
 *
 * `npm test` runs each program's tests on one byte order, the two in turn, but FULL_ONLY
 * (test/cpu/mips/programs.test.ts); `npm run test:full` the rest (test/cpu/mips/programs.full.test.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, variant } from '../../../../images/build.js';
import { programs, type ProgramSpec } from '../../../../images/catalog.js';
import type { TargetName } from '../../../../format/target.js';
import { runGuest } from '../../../support/guestrun.js';
import { MipsLinuxProcess } from '../../../../bench/linuxuser_mips.js';
import { toolsAvailable } from '../../../support/tools.js';
import { checkSplitNames, inPart, type Part } from '../../../support/part.js';

const HAVE = toolsAvailable({ qemu: true });

const EXCLUDED: Record<string, string> = {
  sigtest: 'needs signal delivery to handlers, which the test Linux layer does not implement',
  'ttest-sig': 'needs signal delivery to handlers, which the test Linux layer does not implement',
  sh: 'forks and waits for children',
  init: 'forks and waits for children',
  pmake: 'forks and execs children',
  libctest: 'forks (popen, system) and uses system calls (symlink, pipe) the test layer lacks; test/os runs it under the kernel against its golden output',
  posixtest: 'forks and waits, locks records between processes, selects on pipes; test/os runs it under the kernel against its golden output',
};

/**
 * Tests left to `npm run test:full` (programs.full.test.ts), on both byte orders: the longest runs
 * (arith64's 2.5 G instructions, pdp, jmptest scale2).
 */
const FULL_ONLY = new Set(['arith64/default', 'pdp/default', 'jmptest/scale2']);

/**
 * `npm test`'s byte order for a program: the two in turn, in catalog order; the program's other
 * byte order is `npm run test:full`'s.
 */
function quickTarget(name: string): TargetName {
  return programs().findIndex((p) => p.name === name) % 2 === 0 ? 'mipsel' : 'mips';
}

/** Reference-interpreter runs are limited to programs this short (instructions). */
const REF_LIMIT = 4_000_000;

const SIGNALS: Record<number, string> = { 4: 'SIGILL', 5: 'SIGTRAP', 6: 'SIGABRT', 8: 'SIGFPE', 10: 'SIGBUS', 11: 'SIGSEGV' };

function cases(): { p: ProgramSpec; t: ProgramSpec['tests'][number] }[] {
  const out: { p: ProgramSpec; t: ProgramSpec['tests'][number] }[] = [];
  for (const p of programs()) {
    if (EXCLUDED[p.name]) continue;
    for (const t of p.tests) if (t.shell === undefined && t.qemu && t.needs.length === 0) out.push({ p, t });
  }
  return out;
}

export function mipsProgramsSuite(part: Part): void {
  describe.skipIf(!HAVE)('MIPS whole programs: emu equals qemu-user', () => {
    for (const target of ['mipsel', 'mips'] as TargetName[]) {
      describe(target, () => {
        if (HAVE) checkSplitNames('test/cpu/mips/support/programs.ts', FULL_ONLY, cases().map(({ p, t }) => `${p.name}/${t.name}`));
        const all = (HAVE ? cases() : []).filter(({ p, t }) => inPart(part, target === quickTarget(p.name) && !FULL_ONLY.has(`${p.name}/${t.name}`)));
        const exes = new Map<string, string>();
        beforeAll(async () => {
          for (const name of new Set(all.map((c) => c.p.name))) exes.set(name, await buildProgram(variant(target, 'linux'), name));
        }, 1_200_000);
        for (const { p, t } of all) {
          it(`${p.name}/${t.name}`, () => {
            const exe = exes.get(p.name)!;
            expect(existsSync(exe)).toBe(true);
            const stdinFile = t.stdin ? join(p.dir, t.stdin) : undefined;
            const binDir = join(exe, '..');
            const q = runGuest({ exe, args: t.args, stdinFile, programs: new Map(), binDir, target });
            const stdin = stdinFile ? readFileSync(stdinFile) : undefined;
            let fastInsns = 0;
            for (const engine of ['fast', 'ref'] as const) {
              if (engine === 'ref' && fastInsns > REF_LIMIT) continue;
              const sandbox = mkdtempSync(join(tmpdir(), 'emu-mips-prog-'));
              let proc: MipsLinuxProcess | undefined;
              try {
                proc = new MipsLinuxProcess({
                  elf: exe, engine, argv: [exe, ...t.args], stdin, sandbox,
                  env: [`PATH=${binDir}:/usr/bin:/bin`, `HOME=${sandbox}`, 'LC_ALL=C'],
                });
                const n = proc.run(20_000_000_000);
                if (engine === 'fast') fastInsns = n;
                expect(proc.done, `${engine}: program did not finish`).toBe(true);
                expect(proc.user.unsupported, `${engine}: system calls the test layer lacks`).toEqual([]);
                expect(proc.user.stdout.toString('latin1'), `${engine}: stdout`).toBe(q.stdout.toString('latin1'));
                expect(proc.user.exitStatus, `${engine}: exit status`).toBe(q.status);
                expect(proc.user.termSignal === null ? null : SIGNALS[proc.user.termSignal], `${engine}: signal`).toBe(q.signal);
              } finally {
                proc?.user.closeAll();
                rmSync(sandbox, { recursive: true, force: true });
              }
            }
          });
        }
      });
    }
  });
}
