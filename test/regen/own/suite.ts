/**
 * Tracing your own program (issue 18), as a user does it with the built CLI (bin/emu.js): a
 * program that forks, execs another static program, pipes, handles signals and reads the time
 * (parent.c, child.c here) is built with `emu images cc` (BSD flavour for emu, Linux flavour for
 * qemu-user), run untraced, traced as a bare executable with --truth, regenerated with --verify
 * and replayed; its output and exit status must be the same under emu, traced or not, and under
 * qemu-user. With --trace-exec none the exec'ed program is absent from the bundle and the
 * regenerated trace, and the rest still verifies.
 *
 * The runs use a short quantum so that the worker's signals start handlers wherever the parent
 * was preempted; on the MIPS some land in a branch delay slot (checked: the case where
 * sigreturn executes the branch again, regen/signals.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../../images/build.js';
import { TARGETS } from '../../../images/toolchain.js';
import type { TargetName } from '../../../format/target.js';
import { openBundle } from '../../../format/bundle.js';
import { parseElf } from '../../../format/elf.js';
import { instrumentCached } from '../../../bin/qpt_cache.js';
import { decodeMips } from '../../../tracer/isa_mips.js';
import { built, emu, emuAsync, type CliRun } from '../../support/cli.js';
import { toolsAvailable } from '../../support/tools.js';

const SRC = join(ROOT_DIR, 'test', 'regen', 'own');
/** The scheduler's quantum of the emu runs, in cycles: short, so signals land anywhere. */
const QUANTUM = '2000';

function which(cmd: string): string {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} is not on PATH`);
  return r.stdout.trim();
}

/** Events and programs of `emu regen BUNDLE --verify --stats`. */
function verify(bundle: string): { events: number; programs: string[] } {
  const v = emu(['regen', bundle, '--verify', '--stats']);
  expect(v.stderr).toMatch(/verified \d+ events of \d+ traced processes/);
  expect(v.status).toBe(0);
  const programs = [...v.stderr.matchAll(/^pid \d+ (\S+):/gm)].map((m) => m[1]!);
  return { events: Number(/verified (\d+) events/.exec(v.stderr)![1]), programs };
}

export function ownProgramSuite(targets: readonly TargetName[]): void {
  describe.skipIf(!toolsAvailable({ qemu: true }) || !built)('your own program, traced as a bare executable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-own-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    for (const target of targets) {
      describe(target, () => {
        const exe = (name: string, flavour: string): string => join(dir, `${name}-${target}-${flavour}`);
        const fs = join(dir, `fs-${target}`);
        let expected: string;

        beforeAll(async () => {
          // Built with emu images cc, both flavours at once (-X: one flag per use).
          const cc = (name: string, flavour: string): Promise<CliRun> =>
            emuAsync(['images', 'cc', '-t', target, '-f', flavour, '-X', '-O2', '-X', '-DWORKER_SIGNALS=100', join(SRC, `${name}.c`), '-o', exe(name, flavour)]);
          const builds = await Promise.all([cc('parent', 'bsd'), cc('child', 'bsd'), cc('parent', 'linux'), cc('child', 'linux')]);
          for (const b of builds) expect(b.stderr, 'emu images cc').toBe('');
          mkdirSync(join(fs, 'bin'), { recursive: true });
          writeFileSync(join(fs, 'bin', 'child'), readFileSync(exe('child', 'bsd')), { mode: 0o755 });
          // The oracle: qemu-user runs the Linux build; the parent execs the child through
          // $EMU_QEMU found on PATH (docs/abi.md, "execve under qemu-user").
          const qbin = join(dir, `qbin-${target}`);
          mkdirSync(qbin, { recursive: true });
          writeFileSync(join(qbin, 'child'), readFileSync(exe('child', 'linux')), { mode: 0o755 });
          const qemu = which(TARGETS[target].qemu);
          const q = spawnSync(qemu, [exe('parent', 'linux')], {
            cwd: dir, encoding: 'latin1', env: { PATH: `${qbin}:/usr/bin:/bin`, EMU_QEMU: qemu, LC_ALL: 'C' }, timeout: 120_000,
          });
          expect(q.stderr).toBe('');
          expect(q.status).toBe(5);
          expected = q.stdout;
          expect(expected).toMatch(/^squares: 300 squares, sum 9045050, largest 90000$/m);
          expect(expected).toMatch(/its signals caught\nparent: the clock moves forward\n$/);
        }, 600_000);

        it('runs untraced with the output and status of qemu-user', () => {
          const r = emu(['run', '--quantum', QUANTUM, '--fs', fs, exe('parent', 'bsd')]);
          expect(r.stderr).toBe('');
          expect(r.stdout).toBe(expected);
          expect(r.status).toBe(5);
        });

        it('traced with --truth: same output, the exec\'ed program traced, regen --verify and replay agree', () => {
          const bundle = join(dir, `all-${target}.trace`);
          const r = emu(['run', '--quantum', QUANTUM, '--fs', fs, exe('parent', 'bsd'), '--trace', '--truth', '--out', bundle]);
          expect(r.stdout).toBe(expected);
          expect(r.status).toBe(5);
          expect(r.stderr).toMatch(/^emu: trace bundle .*: \d+ trace bytes/);
          const b = openBundle(bundle);
          const name = `/bin/parent-${target}-bsd`;
          expect(b.manifest.executable?.name).toBe(name);
          expect(b.manifest.options.traceExec).toBe('all');
          expect(b.manifest.programs.map((p) => p.path)).toEqual([name, '/bin/child']);
          const v = verify(bundle);
          // parent, its exec'ing child (the parent's image, then child's), the worker.
          expect(v.programs.sort()).toEqual(['/bin/child', name, name, name].sort());
          const signals = b.sched.markers.filter((m) => m.kind === 'signal');
          expect(signals.length).toBeGreaterThan(50);
          if (target !== 'sparc') {
            // Handlers entered between a branch and its delay slot: sigreturn runs the branch again.
            const inst = instrumentCached(new Uint8Array(readFileSync(exe('parent', 'bsd'))), name);
            const e = parseElf(inst.elf, name);
            const sec = e.sections.find((s) => s.name === '.qpt.text')!;
            const dv = new DataView(inst.elf.buffer, inst.elf.byteOffset + sec.offset, sec.size);
            const inDelaySlot = signals.filter((m) => {
              const at = (m.pc! - 4) >>> 0;
              return at >= sec.addr && at < sec.addr + sec.size && decodeMips(dv.getUint32(at - sec.addr, !e.bigEndian), at).delay;
            });
            expect(inDelaySlot.length).toBeGreaterThan(0);
          }
          const rp = emu(['replay', bundle, '--cache', '4K:32:1']);
          expect(rp.status).toBe(0);
          expect(rp.stdout).toMatch(/4K:32:1/);
        });

        it('--trace-exec none: the exec\'ed program runs untraced, absent from the trace; the rest verifies', () => {
          const bundle = join(dir, `none-${target}.trace`);
          const r = emu(['run', '--quantum', QUANTUM, '--fs', fs, exe('parent', 'bsd'), '--trace', '--truth', '--trace-exec', 'none', '--out', bundle]);
          expect(r.stdout).toBe(expected);
          expect(r.status).toBe(5);
          const b = openBundle(bundle);
          const name = `/bin/parent-${target}-bsd`;
          expect(b.manifest.options.traceExec).toBe('none');
          expect(b.manifest.programs.map((p) => p.path)).toEqual([name]);
          // The regenerated processes: the parent, the exec'ing child up to its exec, the worker.
          const v = verify(bundle);
          expect(v.programs.sort()).toEqual([name, name, name]);
        });
      });
    }
  });
}
