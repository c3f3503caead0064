/**
 * The known-function experiment of mazieres-smith-1994 section 5: a word-aligned,
 * non-overlapping 1 KiB bcopy generated 268 trace bytes in their qpt, where 12 (its three
 * arguments) would do. images/programs/ttest-bcopy makes one 1 KiB call of each string
 * function; the trace bytes each call writes (witnesses and records inside the function and its
 * callees) are counted by regeneration's profile, and the regeneration is verified against
 * ground truth. The copies and fills write none (their arguments are values the caller's
 * regeneration knows and their loops are counted); strlen, strcmp and memcmp, whose exits depend
 * on the data, write their loops' stopping values (tracer/known.ts).
 */
import { expect } from 'vitest';
import type { TargetName } from '../../../format/target.js';
import { RegenProgram } from '../../../regen/model.js';
import { regenerateProcess } from '../../../regen/run.js';
import { TruthCursor } from '../../../regen/truth_cursor.js';
import { VerifySink, funcNamer } from '../../../regen/verify.js';
import { traced } from './trace.js';

/**
 * Trace bytes per call of main: every witness and record written from the moment main calls a
 * function until it is back in main (the callee's own callees included: bcopy goes through
 * memmove), keyed by the callee's name; main's own bytes under 'main'.
 */
export async function bytesPerCall(target: TargetName): Promise<Map<string, number>> {
  const t = await traced(target, 'ttest-bcopy');
  expect(t.run.stdout.toString()).toBe(t.orig.stdout.toString());
  const fns = t.inst.schema.functions.map((f) => ({ name: f.name, addr: f.addr, end: f.end }));
  const nameOf = (pc: number): string => fns.find((f) => pc >= f.addr && pc < f.end)?.name ?? '?';
  const bytes = new Map<string, number>();
  let current = 'start';
  let inMain = false;
  const verify = new VerifySink(new TruthCursor(t.orig.truth!, `${t.path} (original run)`, 1), funcNamer(t.inst.schema));
  const sink = {
    ifetch(pc: number): void {
      verify.ifetch(pc);
      const main = nameOf(pc) === 'main';
      if (main) current = 'main';
      else if (inMain) current = nameOf(pc);
      inMain = main;
    },
    load: (a: number, n: number): void => verify.load(a, n),
    store: (a: number, n: number): void => verify.store(a, n),
  };
  regenerateProcess(new RegenProgram(t.inst.schema, `${t.path}.schema`), t.run.trace.bytes(), t.run.trace.markers, sink, {
    profile: (it, fn) => {
      const n = it[0] === 'w' ? fn.wbytes : it[0] === 'r' ? Math.abs(it[3]) : it[0] === 'a' ? it[2] : 0;
      bytes.set(current, (bytes.get(current) ?? 0) + n);
    },
  });
  verify.finish();
  return bytes;
}

/** The section-5 expectations on the bytes per call of bytesPerCall. */
export function checkKnown(target: TargetName, b: Map<string, number>): void {
  const row = Object.fromEntries(['bcopy', 'memcpy', 'memmove', 'memset', 'strlen', 'strcmp', 'memcmp', 'strcpy', 'bzero', 'main'].map((f) => [f, b.get(f) ?? 0]));
  process.stderr.write(`[known ${target}] trace bytes per 1 KiB call: ${JSON.stringify(row)}\n`);
  // Section 5: qpt wrote 268 bytes for this bcopy, 12 would do (its three arguments). Here
  // the copies and fills write at most a record or two (MIPS: nothing): their arguments are
  // values main's regeneration computes (the length, main's one 4-byte record, is the
  // volatile `vn`), and their loops are counted loops decided from them (docs/tracer.md).
  for (const f of ['bcopy', 'memcpy', 'memmove', 'memset', 'bzero']) expect(row[f], f).toBeLessThanOrEqual(target === 'sparc' ? 4 : 0);
  expect(row['main']).toBe(4);
  // The data-dependent exits are known loops (tracer/known.ts): 4 bytes per data predicate of
  // each loop, its stopping value, instead of a witness per iteration (before them: strlen 257
  // bytes on the MIPS, one witness per word, 132 on the SPARC; strcmp 1023, memcmp 1024, one per
  // byte). strlen: the word loop's value, the byte loop's two, and the witnesses around them.
  for (const f of ['strlen', 'strcmp', 'memcmp']) {
    expect(row[f], f).toBeGreaterThanOrEqual(4);
    expect(row[f], f).toBeLessThanOrEqual(16);
  }
}
