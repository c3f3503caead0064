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
import { describe, expect, it } from 'vitest';
import type { TargetName } from '../../../format/target.js';
import { RegenProgram } from '../../../regen/model.js';
import { regenerateProcess } from '../../../regen/run.js';
import { TruthCursor } from '../../../regen/truth_cursor.js';
import { VerifySink, funcNamer } from '../../../regen/verify.js';
import { regenAgainst, traced, type Traced } from './trace.js';
import { toolsAvailable } from '../../support/tools.js';
import { inPart, type Part } from '../../support/part.js';
import { ContextReader } from '../../../regen/stream.js';
import { RegenProcess } from '../../../regen/process.js';
import type { Marker } from '../../../format/sched.js';
import { readTruth } from '../../../format/truth.js';

/**
 * Trace bytes per call of main: every witness and record written from the moment main calls a
 * function until it is back in main (the callee's own callees included: bcopy goes through
 * memmove), keyed by the callee's name; main's own bytes under 'main'.
 */
export async function bytesPerCall(target: TargetName, t?: Traced): Promise<Map<string, number>> {
  t ??= await traced(target, 'ttest-bcopy');
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

/**
 * Known loops stopped at every instruction (issue 7's contract for them). One regeneration of
 * t's trace steps one instruction at a time, as a switch at every instruction would stop it, and
 * is verified against the original run's ground truth; at every step its next instrumented PC
 * is the instrumented run's (when no rollback happened in that run). Then the process dies
 * inside the first run of each known loop, at up to 16 points from the read ahead of the stopping
 * values to the completion of their record (the first and last 8: the first iterations, the last
 * ones and the exit with its record): the stream then ends where
 * those values would have been (a signal handler leaving the loop by longjmp ends its context
 * the same way), and regeneration to the death point must make exactly the events of the
 * complete run up to there. Returns the number of death points checked.
 */
export function checkStops(t: Traced): number {
  const prog = new RegenProgram(t.inst.schema, `${t.path}.schema`);
  const trace = t.run.trace.bytes();
  const markers = t.run.trace.markers;
  expect(markers.map((m) => m.kind)).toEqual(['start', 'exit']);
  const [start, exit] = markers as [Marker & { kind: 'start' }, Marker & { kind: 'exit' }];
  // The instrumented run's fetches: with no rollback, the n-th is the PC at instruction count n.
  const pcs: number[] = [];
  readTruth(t.run.truth!, `${t.path} (instrumented run)`, (r) => void (r.kind === 'I' && pcs.push(r.addr)));
  const exact = t.run.trbuf.rollbacks === 0;
  // Reference: stepped, verified, recording the events and where each stopping value is read.
  const events: number[] = [];
  const verify = new VerifySink(new TruthCursor(t.orig.truth!, `${t.path} (original run)`, 1), funcNamer(t.inst.schema));
  const sink = {
    ifetch(pc: number): void {
      verify.ifetch(pc);
      events.push(0, pc, 4);
    },
    load(a: number, n: number): void {
      verify.load(a, n);
      events.push(1, a, n);
    },
    store(a: number, n: number): void {
      verify.store(a, n);
      events.push(2, a, n);
    },
  };
  const ref = new RegenProcess(prog, new ContextReader(trace, [[start.pos, exit.pos]], 0), sink);
  ref.compiled = false;
  const reads: { ic: number; pos: number }[] = [];
  ref.profile = (it): void => {
    if (it[0] === 'a') reads.push({ ic: ref.ic, pos: ref.reader.position - it[2] });
  };
  ref.start(start.icount, start.sp);
  const evAt: number[] = [];
  const pcAt: number[] = [];
  for (let k = start.icount; k <= exit.icount; k++) {
    ref.run(k);
    // A count inside a sequence is no marker's: the run stops before the sequence.
    if (ref.ic !== k) continue;
    evAt[k] = events.length;
    if (k < exit.icount) {
      pcAt[k] = ref.nextPc();
      if (exact && pcAt[k] !== pcs[k]) expect(pcAt[k], `instruction ${k}`).toBe(pcs[k]);
    }
  }
  verify.finish();
  expect(reads.length).toBeGreaterThan(0);
  // The records of the stopping values.
  const records = [...t.inst.knownRecords.values()];
  let checked = 0;
  // The first run of each loop (by the PC where its values are read).
  const loops = new Set<number>();
  for (const { ic: k0, pos } of reads) {
    if (loops.has(pcAt[k0] ?? -1)) continue;
    loops.add(pcAt[k0] ?? -1);
    // The death points: from the read ahead until the record ending the loop has completed.
    const ks: number[] = [];
    for (let k = k0; k < exit.icount; k++) {
      const pc = pcAt[k];
      if (pc === undefined) continue;
      if (records.some(([, z]) => pc === z)) break;
      if (records.some(([a, z]) => pc > a && pc < z)) continue; // inside a sequence: rolled back
      ks.push(k);
    }
    const chosen = ks.length > 16 ? [...ks.slice(0, 8), ...ks.slice(-8)] : ks;
    for (const k of chosen) {
      const got: number[] = [];
      const dead: Marker[] = [start, { kind: 'exit', pid: start.pid, pos, icount: k, status: 9, pc: pcAt[k]! }];
      regenerateProcess(prog, trace, dead, {
        ifetch: (pc) => void got.push(0, pc, 4), load: (a, n) => void got.push(1, a, n), store: (a, n) => void got.push(2, a, n),
      });
      const want = evAt[k]!;
      let bad = got.length === want ? -1 : Math.min(got.length, want);
      for (let i = 0; i < want && bad < 0; i++) if (got[i] !== events[i]) bad = i - (i % 3);
      if (bad >= 0) expect(got.slice(bad, bad + 3), `death at instruction ${k}: event ${bad / 3} of ${want / 3}`).toEqual(events.slice(bad, bad + 3));
      checked++;
    }
  }
  return checked;
}

/**
 * The experiment on each target of the part (mipsel in `npm test`, mips and sparc in the full
 * suite): trace bytes per call, regeneration equal to ground truth, stopped at every instruction
 * and dying inside the known loops, and the compiled schemas' engine.
 */
export function knownSuite(part: Part): void {
  describe.skipIf(!toolsAvailable())('known functions: 1 KiB calls (mazieres-smith-1994 section 5)', () => {
    for (const target of (['mipsel', 'mips', 'sparc'] as TargetName[]).filter((t) => inPart(part, t === 'mipsel'))) {
      it(`${target}: trace bytes per call, regeneration equal to ground truth, stopped at every instruction and dying inside the known loops`, async () => {
        const t = await traced(target, 'ttest-bcopy', undefined, { knownLoops: true });
        checkKnown(target, await bytesPerCall(target, t));
        expect(checkStops(t)).toBeGreaterThan(40);
        // The compiled schemas' engine reads the stopping values ahead too (regen/compile.ts).
        expect(regenAgainst(t, 'original', { compiled: true }).events).toBeGreaterThan(0);
      }, 300_000);
    }
  });
}
