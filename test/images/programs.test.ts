/**
 * Golden-output tests of every guest program (images/programs/<name>/program.json):
 *   - the host-native build (host gcc + glibc) of portable programs prints the golden output: an
 *     oracle independent of the project's libc;
 *   - the Linux-flavour build under qemu-mipsel, qemu-mips and qemu-sparc prints the golden output
 *     and exits with the expected status.
 * EMU_PROGRAMS=a,b limits the run to some programs; EMU_TARGETS=mipsel,sparc to some targets.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { program, programs, type ProgramSpec, type ProgramTest } from '../../images/catalog.js';
import { buildAll } from '../../images/make.js';
import { TARGET_NAMES, type TargetName } from '../../format/target.js';
import { runGuest, type RunResult } from '../support/guestrun.js';
import { toolsAvailable } from '../support/tools.js';

const only = process.env['EMU_PROGRAMS']?.split(',').filter(Boolean);
const targets = (process.env['EMU_TARGETS']?.split(',').filter(Boolean) ?? TARGET_NAMES) as TargetName[];
const haveTools = toolsAvailable({ qemu: true });
// With EMU_PROGRAMS, only the named programs (and what their tests need) are parsed, so work in
// progress elsewhere in images/programs/ does not get in the way.
const selectedSpecs = only ? only.map(program) : programs();
const all = only ? [...new Map([...selectedSpecs, ...selectedSpecs.flatMap((p) => p.tests.flatMap((t) => t.needs.map(program)))].map((p) => [p.name, p])).values()] : selectedSpecs;
const selected = selectedSpecs.filter((p) => p.tests.length > 0);

function describeFailure(r: RunResult, golden: Buffer): string {
  const out = r.stdout.toString('latin1');
  const exp = golden.toString('latin1');
  let i = 0;
  while (i < out.length && i < exp.length && out[i] === exp[i]) i++;
  const line = exp.slice(0, i).split('\n').length;
  return `stdout differs from golden at byte ${i} (line ${line}):\n  expected: ${JSON.stringify(exp.slice(i, i + 120))}\n  actual:   ${JSON.stringify(out.slice(i, i + 120))}\nstderr: ${r.stderr.slice(0, 2000)}`;
}

function check(p: ProgramSpec, t: ProgramTest, r: RunResult): void {
  const golden = readFileSync(join(p.dir, t.golden));
  if (!r.stdout.equals(golden)) expect.fail(describeFailure(r, golden));
  expect(r.signal, `killed by ${r.signal}; stderr: ${r.stderr.slice(0, 2000)}`).toBeNull();
  expect(r.status, `exit status; stderr: ${r.stderr.slice(0, 2000)}`).toBe(t.status);
}

describe.skipIf(!haveTools)('guest programs: golden output', () => {
  for (const p of selected) {
    // Programs whose tests all run only on emu's kernel (qemu: false, not native) have nothing here.
    if (!p.tests.some((t) => t.qemu || p.native)) continue;
    describe(p.name, () => {
      const needs = [...new Set([p.name, ...p.tests.flatMap((t) => t.needs)])];
      const nativeOk = p.native && needs.every((n) => all.find((x) => x.name === n)?.native);
      let built: Awaited<ReturnType<typeof buildAll>>;
      beforeAll(async () => {
        built = await buildAll({ flavours: ['linux'], targets, programs: needs, native: nativeOk });
      });

      for (const t of p.tests) {
        const spec = (bin: Map<string, string>, target?: TargetName) => {
          const exe = bin.get(p.name)!;
          const s: Parameters<typeof runGuest>[0] = { programs: bin, binDir: dirname(exe), exe, args: t.args };
          if (target) s.target = target;
          if (t.shell !== undefined) s.shell = t.shell;
          if (t.stdin) s.stdinFile = join(p.dir, t.stdin);
          return s;
        };
        if (nativeOk) {
          it(`${t.name}: native host build matches golden`, () => {
            check(p, t, runGuest(spec(built.native)));
          });
        }
        if (t.qemu) {
          for (const target of targets) {
            it(`${t.name}: linux-${target} under qemu matches golden`, () => {
              check(p, t, runGuest(spec(built.executables.get(`linux-${target}`)!, target)));
            });
          }
        }
      }
    });
  }
});
