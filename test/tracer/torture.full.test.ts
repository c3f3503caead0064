/**
 * GCC torture tests that do with code addresses what the tracer once got wrong (issue 20), on all
 * three targets at -O2 and -O0: pr70460 jumps to a label plus a label difference (the traced
 * program used to loop forever at -O2; at -O0, where the sum goes through a stack slot, it jumped
 * to an untranslated address and exited 127), 920501-5 through a table of label values (regeneration stopped: "not a
 * successor"), pr64242 and built-in-setjmp leave functions by __builtin_longjmp (regeneration
 * diverged; built-in-setjmp's receiver runs above an alloca made after the setjmp, see also
 * nonlocal.test.ts), 20010122-1 compares return addresses. Each behaves as untraced and regenerates
 * equal to both ground truths. Sources come from Debian's gcc-12-source (skipped without it,
 * a failure under CI).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TARGET_NAMES } from '../../format/target.js';
import { instrument } from '../../tracer/instrument.js';
import { runExecutable } from '../../bin/harness.js';
import { gccSourceAvailable } from '../support/tools.js';
import { buildTorture, tortureSources } from '../support/torture.js';
import { regenAgainst, type Traced } from './support/trace.js';

const TESTS = ['pr70460', '920501-5', 'pr64242', 'built-in-setjmp', '20010122-1'];
const have = gccSourceAvailable();

describe.skipIf(!have)('torture tests with code addresses', () => {
  for (const target of TARGET_NAMES) {
    for (const name of TESTS) for (const opt of ['-O2', '-O0']) {
      it(`${target} ${name} ${opt}: same output and status; regeneration equals both ground truths`, { timeout: 300_000 }, async () => {
        const src = tortureSources(TESTS).get(name)!;
        const path = await buildTorture(target, src, [opt]);
        const exe = new Uint8Array(readFileSync(path));
        const inst = instrument(exe, path);
        const orig = runExecutable({ data: exe, name }, { args: [], truth: 'bin', trace: true });
        const run = runExecutable({ data: inst.elf, name }, { args: [], truth: 'bin', trace: true, maxInstructions: 100_000_000 });
        expect(orig.status).toBe(0);
        expect(run.haltReason).toBe('init exited');
        expect(run.status).toBe(orig.status);
        expect(run.stdout.toString('latin1')).toBe(orig.stdout.toString('latin1'));
        const t: Traced = { exe, path, inst, orig, run, args: [] };
        const a = regenAgainst(t, 'original');
        expect(regenAgainst(t, 'mapped').events).toBe(a.events);
        expect(a.bytes).toBe(run.trace.bytes().length);
      });
    }
  }
});
