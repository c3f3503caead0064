/**
 * Non-local gotos into a label of another function (issue 20): the receiver runs with the stack
 * pointer the jump loaded, not the one of the activation's call (regen/process.ts unwindTo), and
 * the label's entry assumes no relation of it to the function's entry stack pointer
 * (tracer/dataflow.ts `knows`, tracer/slots.ts). test/tracer/nonlocal/nonlocal.c (an alloca
 * between the setjmp and the jump; a setjmp in an outer activation of a recursive function), at
 * -O0 and -O2 on the three targets: the traced program behaves as untraced and regeneration
 * equals both ground truths. GCC's built-in-setjmp, the torture test that found it, is in
 * torture.full.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TARGET_NAMES, type TargetName } from '../../format/target.js';
import { BUILD_DIR, ROOT_DIR, variant } from '../../images/build.js';
import { buildUserProgram } from '../../images/runtime.js';
import { instrument } from '../../tracer/instrument.js';
import { runExecutable } from '../../bin/harness.js';
import { toolsAvailable } from '../support/tools.js';
import { regenAgainst, type Traced } from './support/trace.js';

const OWN = join(ROOT_DIR, 'test', 'tracer', 'nonlocal', 'nonlocal.c');

function check(path: string, name: string): void {
  const exe = new Uint8Array(readFileSync(path));
  const inst = instrument(exe, path);
  const orig = runExecutable({ data: exe, name }, { args: [], truth: 'bin', trace: true });
  const run = runExecutable({ data: inst.elf, name }, { args: [], truth: 'bin', trace: true, maxInstructions: 10_000_000 });
  expect(orig.status).toBe(0);
  expect(run.haltReason).toBe('init exited');
  expect(run.status).toBe(orig.status);
  expect(run.stdout.toString('latin1')).toBe(orig.stdout.toString('latin1'));
  const t: Traced = { exe, path, inst, orig, run, args: [] };
  const a = regenAgainst(t, 'original');
  expect(a.events).toBeGreaterThan(orig.insns);
  expect(regenAgainst(t, 'mapped').events).toBe(a.events);
  expect(a.bytes).toBe(run.trace.bytes().length);
}

async function buildOwn(target: TargetName, opt: string): Promise<string> {
  const out = join(BUILD_DIR, 'nonlocal', `${target}${opt}`, 'nonlocal');
  await buildUserProgram(variant(target, 'bsd'), [OWN], out, [opt]);
  return out;
}

describe.skipIf(!toolsAvailable())('non-local gotos: the receiver\'s stack pointer', () => {
  for (const target of TARGET_NAMES) for (const opt of ['-O0', '-O2']) {
    it(`${target} nonlocal ${opt}: same output and status; regeneration equals both ground truths`, { timeout: 120_000 }, async () => {
      check(await buildOwn(target, opt), 'nonlocal');
    });
  }
});
