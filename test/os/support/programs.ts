/**
 * Every guest program's golden tests (images/programs/<name>/program.json) on emu's kernel, with
 * the BSD-flavour builds, on all three targets. The golden files are the outputs of the host-native
 * builds and of the Linux builds under qemu-user (test/images/programs.test.ts checks that), so
 * this compares emu with both oracles. Shell tests run their command line with the guest's own
 * /bin/sh. Every run starts in /tmp with the test's programs in /bin.
 * EMU_PROGRAMS=a,b and EMU_TARGETS=mipsel,sparc select a subset. `npm test` runs each program on
 * one target, the three in turn (test/os/programs.test.ts); `npm run test:full` on the other two
 * (test/os/programs.full.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { program, programs, type ProgramTest } from '../../../images/catalog.js';
import { buildAll } from '../../../images/make.js';
import { TARGET_NAMES, type TargetName } from '../../../format/target.js';
import { toolsAvailable } from '../../support/tools.js';
import { inPart, type Part } from '../../support/part.js';
import { type GuestRun, runExecutable } from '../../../bin/harness.js';

const only = process.env['EMU_PROGRAMS']?.split(',').filter(Boolean);
/** Host tools some shell tests use; the guest system has no such programs. */
const HOST_TOOLS = ['cmp', 'cksum', 'od', 'diff', 'sort', 'head', 'tail', 'tr', 'sed', 'awk', 'uniq'];
/**
 * Tests whose premise does not hold on emu, with the reason (they pass natively for a reason that
 * does not exist here).
 */
const NOT_ON_EMU: Record<string, string> = {
  'init/orphans': 'needs init to adopt the orphans of a shell it did not start: natively init makes itself the child subreaper; under a 4.4BSD kernel only pid 1 adopts orphans, and here pid 1 is the test shell',
};
const BASE = ['sh', 'echo', 'cat', 'wc'];

function hostToolsUsed(line: string): string[] {
  return HOST_TOOLS.filter((t) => new RegExp(`(^|[|;&(]\\s*|\\s)${t}(\\s|$)`).test(line));
}
const targets = (process.env['EMU_TARGETS']?.split(',').filter(Boolean) ?? TARGET_NAMES) as TargetName[];
const haveTools = toolsAvailable();
const selected = (only ? only.map(program) : programs()).filter((p) => p.tests.length > 0);

/**
 * `npm test`'s target for a program (programs.test.ts): the three targets in turn, in catalog
 * order, so that each runs a third of the programs; the other two targets of each program are
 * `npm run test:full`'s (programs.full.test.ts).
 */
function quickTarget(name: string): TargetName {
  return TARGET_NAMES[programs().findIndex((p) => p.name === name) % TARGET_NAMES.length]!;
}

function compare(r: GuestRun, golden: Buffer, t: ProgramTest): void {
  const out = r.stdout.toString('latin1');
  const exp = golden.toString('latin1');
  if (out !== exp) {
    let i = 0;
    while (i < out.length && i < exp.length && out[i] === exp[i]) i++;
    expect.fail(`stdout differs from golden at byte ${i}:\n  expected: ${JSON.stringify(exp.slice(i, i + 160))}\n  actual:   ${JSON.stringify(out.slice(i, i + 160))}\nstderr: ${r.stderr.toString().slice(0, 500)}\n${r.message}`);
  }
  expect(r.exitCode, r.message).toBe(t.status);
}

export function goldenSuite(part: Part): void {
  describe.skipIf(!haveTools)('guest programs on emu (BSD flavour): golden output', () => {
    for (const p of selected) {
      const mine = targets.filter((t) => inPart(part, t === quickTarget(p.name)));
      if (mine.length === 0) continue;
      describe(p.name, () => {
        const needs = [...new Set([p.name, ...BASE, ...p.tests.flatMap((t) => t.needs)])];
        let built: Awaited<ReturnType<typeof buildAll>>;
        beforeAll(async () => {
          built = await buildAll({ flavours: ['bsd'], targets: mine, programs: needs, native: false });
        });
        for (const t of p.tests) {
          const host = t.shell !== undefined ? hostToolsUsed(t.shell) : [];
          const why = NOT_ON_EMU[`${p.name}/${t.name}`] ?? (host.length ? `uses host tools the guest system lacks: ${host.join(', ')}` : undefined);
          // A case emu's kernel cannot run (why) is not registered: test/images/programs.test.ts
          // runs it natively and under qemu-user; a skipped entry would look like a missing check.
          if (why) continue;
          for (const target of mine) {
            it(`${t.name} on ${target}`, () => {
              const bin = built.executables.get(`bsd-${target}`)!;
              const golden = readFileSync(join(p.dir, t.golden));
              const stdin = t.stdin ? readFileSync(join(p.dir, t.stdin)) : undefined;
              const r = t.shell !== undefined
                ? runExecutable(bin.get('sh')!, { args: ['-c', t.shell], bin, stdin })
                : runExecutable(bin.get(p.name)!, { args: t.args, bin, stdin });
              compare(r, golden, t);
            }, 600_000);
          }
        }
      });
    }
  });
}
