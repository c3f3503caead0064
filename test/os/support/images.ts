/**
 * The boot images (images/specs.ts) on emu's kernel:
 *   - every image runs its /etc/rc to the output and exit status of the same command line run
 *     by the host's shell with the host-native builds of its programs (data files put at the same
 *     paths under a temporary directory);
 *   - multi-process images keep that output under preemption stress: a quantum of 300 cycles,
 *     and randomised clock deadlines (--seed);
 *   - two runs of an image give byte-identical ground truth and statistics.
 * Images whose command runs jobs concurrently (a background `&`, `pmake -j`) are compared as
 * multisets of lines: their interleaving on the host is the host scheduler's.
 * EMU_IMAGES=demo-mipsel,li-sparc selects a subset. `npm test` runs the cases QUICK names
 * (test/os/images.test.ts), `npm run test:full` the rest (test/os/images.full.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../../images/make.js';
import type { BootImage } from '../../../format/image.js';
import { PROGRAMS_DIR } from '../../../images/build.js';
import { assembleImage } from '../../../images/pack.js';
import { BASE_PROGRAMS, type ImageSpec, imageSpecs } from '../../../images/specs.js';
import { toolsAvailable } from '../../support/tools.js';
import { checkSplitNames, inPart, type Part } from '../../support/part.js';
import { runImage } from '../../../bin/harness.js';

const only = process.env['EMU_IMAGES']?.split(',').filter(Boolean);
const haveTools = toolsAvailable();

const STRESS = [['quantum of 300 cycles', { quantum: 300 }], ['randomised deadlines (seed 1)', { seed: 1, quantum: 2000 }]] as const;

/**
 * `npm test`'s part (images.test.ts): /etc/rc of every image on mipsel but the two longest (pdp,
 * pmake), the multi-process ones on mips and sparc; one image per target under each kind of
 * preemption stress; the determinism of demo-mipsel. The rest is images.full.test.ts.
 */
const QUICK = new Set([
  ...['demo', 'pipeline', 'cs', 'sigtest', 'li', 'cc1', 'egrep', 'compress', 'sgefa', 'jmptest'].map((i) => `${i}-mipsel: /etc/rc`),
  ...['demo-sparc', 'pipeline-mips', 'cs-sparc', 'sigtest-mips', 'sigtest-sparc'].map((i) => `${i}: /etc/rc`),
  'demo-mipsel: quantum of 300 cycles', 'pipeline-mips: randomised deadlines (seed 1)', 'cs-sparc: randomised deadlines (seed 1)',
  'demo-mipsel: two runs',
]);

function concurrent(s: ImageSpec): boolean {
  return /&\s*($|\n)/m.test(s.command) || /pmake\s+-j/.test(s.command);
}

function multiProcess(s: ImageSpec): boolean {
  return concurrent(s) || s.command.includes('|') || s.programs.includes('cs');
}

/** The image's command on the host: native builds on PATH, data files under a temporary root. */
function nativeRun(s: ImageSpec, nativeBin: string): { stdout: string; status: number | null } {
  const root = mkdtempSync(join(tmpdir(), 'emu-img-'));
  try {
    mkdirSync(join(root, 'tmp'));
    // /tmp first: the temporary root itself lies under the host's /tmp.
    let cmd = s.command.replace(/(^|[\s<>=])\/tmp\//g, `$1${root}/tmp/`);
    for (const d of s.data) {
      mkdirSync(dirname(join(root, d.guest)), { recursive: true });
      cpSync(join(PROGRAMS_DIR, d.source), join(root, d.guest));
      cmd = cmd.split(d.guest).join(join(root, d.guest));
    }
    const r = spawnSync('/bin/sh', ['-c', cmd], {
      cwd: root, env: { PATH: `${nativeBin}:/usr/bin:/bin`, HOME: root, LC_ALL: 'C' }, maxBuffer: 1 << 28, timeout: 600_000,
    });
    if (r.error) throw r.error;
    // Names of the data files appear in outputs: back to the guest's paths.
    return { stdout: r.stdout.toString('latin1').split(root).join(''), status: r.status };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function same(s: ImageSpec, got: string, want: string): void {
  if (concurrent(s)) {
    expect(got.split('\n').sort()).toEqual(want.split('\n').sort());
  } else {
    expect(got).toBe(want);
  }
}

export function imagesSuite(part: Part): void {
  describe.skipIf(!haveTools)('boot images on emu', () => {
    // Each case's key (QUICK's names); the part's cases, and the images they run.
    const keys: string[] = [];
    const mine = (key: string): boolean => (keys.push(key), inPart(part, QUICK.has(key)));
    const all = imageSpecs().filter((s) => !only || only.includes(s.name));
    const cases = all.map((s) => ({
      s,
      rc: mine(`${s.name}: /etc/rc`),
      stress: multiProcess(s) ? STRESS.filter(([label]) => mine(`${s.name}: ${label}`)) : [],
      twice: ['demo-mipsel', 'demo-sparc'].includes(s.name) && mine(`${s.name}: two runs`),
    }));
    if (!only) checkSplitNames('test/os/support/images.ts', QUICK, keys);
    const specs = cases.filter((c) => c.rc || c.stress.length > 0 || c.twice).map((c) => c.s);
    const images = new Map<string, BootImage>();
    const oracle = new Map<string, { stdout: string; status: number | null }>();
    beforeAll(async () => {
      const progs = [...new Set(specs.flatMap((s) => [...BASE_PROGRAMS, ...s.programs]))];
      const built = await buildAll({ flavours: ['bsd'], targets: [...new Set(specs.map((s) => s.target))], programs: progs, native: true });
      const nativeBin = dirname(built.native.get('sh')!);
      for (const s of specs) {
        images.set(s.name, await assembleImage(s));
        oracle.set(s.name, nativeRun(s, nativeBin));
      }
    }, 1_200_000);

    for (const { s, rc, stress } of cases) {
      if (rc) it(`${s.name}: /etc/rc gives the host-native output and status${concurrent(s) ? ' (lines as a multiset)' : ''}`, () => {
        const r = runImage(images.get(s.name)!, s.name);
        const want = oracle.get(s.name)!;
        same(s, r.stdout.toString('latin1'), want.stdout);
        expect(r.exitCode, r.message).toBe(want.status);
      }, 600_000);
      for (const [label, o] of stress) {
        it(`${s.name}: same output under preemption stress, ${label}`, () => {
          const r = runImage(images.get(s.name)!, s.name, o);
          const want = oracle.get(s.name)!;
          same(s, r.stdout.toString('latin1'), want.stdout);
          expect(r.exitCode, r.message).toBe(want.status);
          expect(r.result.kernel.nswitch).toBeGreaterThan(10);
        }, 600_000);
      }
    }

    for (const name of cases.filter((c) => c.twice).map((c) => c.s.name)) {
      it(`${name}: two runs give identical ground truth and statistics`, () => {
        const a = runImage(images.get(name)!, name, { truth: 'bin' });
        const b = runImage(images.get(name)!, name, { truth: 'bin' });
        expect(Buffer.from(a.truth!).equals(Buffer.from(b.truth!))).toBe(true);
        expect(JSON.stringify(a.result.stats)).toBe(JSON.stringify(b.result.stats));
        expect(a.stdout.equals(b.stdout)).toBe(true);
        const c = runImage(images.get(name)!, name, { truth: 'bin', seed: 5, quantum: 5000 });
        const d = runImage(images.get(name)!, name, { truth: 'bin', seed: 5, quantum: 5000 });
        expect(Buffer.from(c.truth!).equals(Buffer.from(d.truth!))).toBe(true);
        expect(JSON.stringify(c.result.stats)).toBe(JSON.stringify(d.result.stats));
        // A different schedule: the seed changes where the interrupts land.
        expect(Buffer.from(c.truth!).equals(Buffer.from(a.truth!))).toBe(false);
      }, 900_000);
    }
  });
}
