/**
 * Whole-program differential against qemu-sparc: every test of every guest program (Linux-flavour
 * SPARC builds in images/build/linux-sparc/bin, test cases from images/programs/<name>/program.json)
 * gives the same stdout and exit status on emu — both engines, under the test Linux layer — as
 * under qemu-sparc. Also the CPU test programs of test/cpu/sparc/progs.
 *
 * Cases that need more than one process (host shell lines, multitask programs, fork/exec) are not
 * run here: the test layer is one process, no fork/exec; the kernel's tests cover them (cases()
 * gives each one's reason; they are not registered as tests).
 *
 * `npm test` runs all but FULL_ONLY (test/cpu/sparc/programs.test.ts), `npm run test:full` those
 * (test/cpu/sparc/programs.full.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILD_DIR, buildProgram, variant } from '../../../images/build.js';
import { programs, type ProgramSpec, type ProgramTest } from '../../../images/catalog.js';
import { toolsAvailable } from '../../support/tools.js';
import { checkSplitNames, inPart, type Part } from '../../support/part.js';
import { runGuest } from '../../support/guestrun.js';
import { SparcLinuxProcess } from '../../../bench/linuxuser_sparc.js';
import type { EngineName } from '../../../cpu/sparc/index.js';
import { ASM_PROGS, C_PROGS, buildProg } from './progs.js';

const have = toolsAvailable({ qemu: true });
const BIN = join(BUILD_DIR, 'linux-sparc', 'bin');

/** Programs that fork, exec or need signal delivery: not for the one-process test layer. */
const MULTI_PROCESS = new Set(['systest', 'sigtest', 'init', 'sh', 'pmake', 'cs', 'ttest-sig', 'libctest', 'posixtest']);

/**
 * Tests left to `npm run test:full` (programs.full.test.ts): the three whose runs on the reference
 * interpreter are long (arith64's 2.5 G instructions, about 5 minutes; jmptest scale2, li features).
 * Every other test and CPU test program is `npm test`'s (programs.test.ts).
 */
const FULL_ONLY = new Set(['arith64/default', 'jmptest/scale2', 'li/features']);

function runEmu(exe: string, args: string[], stdin: Uint8Array | undefined, engine: EngineName): { stdout: Buffer; status: number | null; signal: number | null; unsupported: string[] } {
  const sandbox = mkdtempSync(join(tmpdir(), 'emu-sparc-run-'));
  try {
    const p = new SparcLinuxProcess({ elf: exe, engine, argv: [exe.split('/').pop()!, ...args], stdin, sandbox });
    p.run(20e9);
    p.user.closeAll();
    return { stdout: p.user.stdout, status: p.user.exitStatus, signal: p.user.termSignal, unsupported: p.user.unsupported };
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

function cases(): { spec: ProgramSpec; t: ProgramTest; why?: string }[] {
  const out: { spec: ProgramSpec; t: ProgramTest; why?: string }[] = [];
  for (const spec of programs()) {
    for (const t of spec.tests) {
      let why: string | undefined;
      if (!t.qemu) why = 'not a qemu test (program.json)';
      else if (t.shell !== undefined) why = 'host shell command line (several processes)';
      else if (MULTI_PROCESS.has(spec.name) || spec.kind === 'multitask' || t.needs.length > 0) why = 'needs fork/exec or signal delivery';
      out.push({ spec, t, ...(why ? { why } : {}) });
    }
  }
  return out;
}

export function sparcProgramsSuite(part: Part): void {
  describe.skipIf(!have)('SPARC whole programs vs qemu-sparc', () => {
    // The Linux-flavour SPARC builds of every program (the build driver caches them).
    beforeAll(async () => {
      for (const spec of programs()) await buildProgram(variant('sparc', 'linux'), spec.name);
    }, 1_800_000);
    if (have) checkSplitNames('test/cpu/sparc/programs.ts', FULL_ONLY, cases().map(({ spec, t }) => `${spec.name}/${t.name}`));
    for (const name of part === 'quick' ? [...C_PROGS, ...ASM_PROGS] : []) {
      it(`progs/${name}`, () => {
        const exe = buildProg(name);
        const q = runGuest({ exe, args: [], programs: new Map(), binDir: BIN, target: 'sparc' });
        for (const engine of ['interp', 'fast'] as const) {
          const e = runEmu(exe, [], undefined, engine);
          expect(e.stdout.toString('latin1')).toBe(q.stdout.toString('latin1'));
          expect(e.status).toBe(q.status);
        }
      });
    }
    for (const { spec, t, why } of have ? cases() : []) {
      const title = `${spec.name}/${t.name}`;
      if (why) continue; // run by the kernel's suite (test/os/programs.test.ts) and test/images
      if (!inPart(part, !FULL_ONLY.has(title))) continue;
      it(title, () => {
        const exe = join(BIN, spec.name);
        const stdin = t.stdin ? readFileSync(join(spec.dir, t.stdin)) : undefined;
        const q = runGuest({ exe, args: t.args, ...(t.stdin ? { stdinFile: join(spec.dir, t.stdin) } : {}), programs: new Map(), binDir: BIN, target: 'sparc' });
        for (const engine of ['fast', 'interp'] as const) {
          const e = runEmu(exe, t.args, stdin, engine);
          expect(e.unsupported).toEqual([]);
          expect(e.stdout.toString('latin1')).toBe(q.stdout.toString('latin1'));
          expect(e.signal).toBe(null);
          expect(e.status).toBe(q.status);
        }
      }, 600_000);
    }
  });
}
