/**
 * Regeneration internals:
 *   - the computable operations (tracer/semantics.ts) against 64-bit BigInt arithmetic, with the
 *     CPU packages' edge cases (MIPS division by zero and INT_MIN / -1, SPARC v8 overflow);
 *   - the table engine (regen/engine.ts) and the compiled schemas (regen/compile.ts) against the
 *     reference interpreter: all equal the ground truth event for event, with signals, longjmp
 *     and jump tables (test/regen/support/engines.ts; jmptest's 123 M events in
 *     regen.full.test.ts);
 *   - stream contexts: signal handlers' bytes out of the interrupted code's view, nested
 *     handlers, a handler left by longjmp.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Marker } from '../../format/sched.js';
import { planContexts, ContextReader } from '../../regen/stream.js';
import { sdiv64, smulHi, udiv64, umulHi } from '../../cpu/arith.js';
import { evalOp } from '../../tracer/semantics.js';
import { toolsAvailable } from '../support/tools.js';
import { traced } from '../tracer/support/trace.js';
import { enginesSuite } from './support/engines.js';
import { RegenProgram } from '../../regen/model.js';
import { RegenProcess } from '../../regen/process.js';
import { TruthCursor, type TruthEvent } from '../../regen/truth_cursor.js';
import { VerifySink, funcNamer } from '../../regen/verify.js';

const i32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const edge = fc.constantFrom(0, 1, -1, 0x7fffffff, -0x80000000, 0xffff, -0x10000);
const word = fc.oneof(i32, edge);

describe('operation semantics', () => {
  it('multiply high words equal 64-bit products', () => {
    fc.assert(fc.property(word, word, (a, b) => {
      const s = BigInt(a) * BigInt(b);
      expect(smulHi(a, b)).toBe(Number(BigInt.asIntN(32, s >> 32n)));
      const u = BigInt(a >>> 0) * BigInt(b >>> 0);
      expect(umulHi(a >>> 0, b >>> 0)).toBe(Number(BigInt.asIntN(32, u >> 32n)));
      expect(evalOp('mult', a, b, 0)).toEqual([Number(BigInt.asIntN(32, s >> 32n)), Number(BigInt.asIntN(32, s))]);
    }), { numRuns: 2000 });
  });

  it('MIPS div/divu: quotient and remainder, divide by 1 when undefined', () => {
    fc.assert(fc.property(word, word, (a, b) => {
      const [hi, lo] = evalOp('div', a, b, 0);
      const d = b === 0 || (a === -0x80000000 && b === -1) ? 1 : b;
      expect(lo).toBe(Number(BigInt.asIntN(32, BigInt(a) / BigInt(d))));
      expect(hi).toBe(Number(BigInt.asIntN(32, BigInt(a) % BigInt(d))));
      const du = b === 0 ? 1 : b >>> 0;
      const [uh, ul] = evalOp('divu', a, b, 0);
      expect(ul).toBe(Number(BigInt.asIntN(32, BigInt(a >>> 0) / BigInt(du))));
      expect(uh).toBe(Number(BigInt.asIntN(32, BigInt(a >>> 0) % BigInt(du))));
    }), { numRuns: 2000 });
  });

  it('SPARC udiv/sdiv of Y:rs1 with the v8 overflow values', () => {
    fc.assert(fc.property(word, word, word, (y, a, b) => {
      fc.pre(b !== 0);
      const ud = ((BigInt(y >>> 0) << 32n) | BigInt(a >>> 0)) / BigInt(b >>> 0);
      expect(udiv64(y, a, b)).toBe(ud > 0xffffffffn ? -1 : Number(BigInt.asIntN(32, ud)));
      const sd = ((BigInt(y) << 32n) | BigInt(a >>> 0)) / BigInt(b);
      const want = sd > 0x7fffffffn ? 0x7fffffff : sd < -0x80000000n ? -0x80000000 : Number(sd);
      expect(sdiv64(y, a, b)).toBe(want);
    }), { numRuns: 2000 });
  });
});

describe('stream contexts', () => {
  const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);
  it('keep a handler\'s bytes out of the interrupted code, nested and after a longjmp', () => {
    const ms: Marker[] = [
      { kind: 'start', pid: 1, pos: 0, icount: 0, sp: 0x7fffeff0 },
      { kind: 'signal', pid: 1, pos: 10, icount: 5, sig: 30, handler: 0, pc: 0 },
      { kind: 'signal', pid: 1, pos: 15, icount: 8, sig: 31, handler: 0, pc: 0 },
      { kind: 'sigreturn', pid: 1, pos: 20, icount: 9 },
      { kind: 'sigreturn', pid: 1, pos: 30, icount: 11 },
      { kind: 'signal', pid: 1, pos: 40, icount: 20, sig: 30, handler: 0, pc: 0 }, // left by longjmp
      { kind: 'exit', pid: 1, pos: 60, icount: 30, status: 0 },
    ];
    const p = planContexts(ms, bytes.length);
    expect(p.ranges).toEqual([[[0, 10], [30, 40]], [[10, 15], [20, 30]], [[15, 20]], [[40, 60]]]);
    expect(p.ctxOf.get(1)).toBe(1);
    expect(p.ctxOf.get(2)).toBe(2);
    expect(p.ctxOf.get(3)).toBe(1);
    expect(p.ctxOf.get(4)).toBe(0);
    expect(p.ctxOf.get(5)).toBe(3);
    const main = new ContextReader(bytes, p.ranges[0]!, 0);
    const got: number[] = [];
    for (let i = 0; i < 20; i++) got.push(main.byte());
    expect(got).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
    expect(() => main.byte()).toThrow(/no more bytes for context 0/);
  });
});

const have = toolsAvailable();

enginesSuite('quick');

describe.skipIf(!have)('process state', () => {
  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: a clone taken mid-run (inside a signal handler, and later) continues exactly`, { timeout: 300_000 }, async () => {
      const t = await traced(target, 'ttest-sig');
      const prog = new RegenProgram(t.inst.schema, 'schema');
      const trace = t.run.trace.bytes();
      const markers = t.run.trace.markers;
      const plan = planContexts(markers, trace.length);
      const name = funcNamer(t.inst.schema);
      const exit = markers[markers.length - 1]!;
      // Inside the third handler (between its SIGNAL and SIGRETURN), and late in the run.
      const sigs = markers.map((m, i) => [m, i] as const).filter(([m]) => m.kind === 'signal');
      const [s3, i3] = sigs[2]!;
      const inHandler = Math.floor((s3.icount + markers[i3 + 1]!.icount) / 2);
      expect(markers[i3 + 1]!.kind).toBe('sigreturn');
      for (const cut of [inHandler, Math.floor(exit.icount * 0.77)]) {
        // The original, driven by the markers; at `cut` a clone is taken with a verifier that
        // has skipped the events made so far, and both go on to the end.
        const truth = (): TruthCursor => new TruthCursor(t.orig.truth!, 'truth', 1);
        const a = new VerifySink(truth(), name);
        const procs: { p: RegenProcess; readers: ContextReader[] }[] = [];
        const readersOf = (): ContextReader[] => plan.ranges.map((r, i) => new ContextReader(trace, r, i));
        const ra = readersOf();
        procs.push({ p: new RegenProcess(prog, ra[0]!, a), readers: ra });
        let cloned = false;
        markers.forEach((m, i) => {
          for (const { p, readers } of procs) {
            if (!cloned && m.icount > cut && m.kind !== 'start') {
              p.run(cut);
              const skip = truth();
              const ev: TruthEvent = { kind: 0, addr: 0, size: 0 };
              for (let k = 0; k < a.index; k++) skip.next(ev);
              const rb = readersOf();
              // The clone reads its own copies of every context, positioned where the original is.
              rb[p.reader.ctx] = p.reader.clone();
              const c = p.clone(rb[p.reader.ctx]!, new VerifySink(skip, name));
              procs.push({ p: c, readers: rb });
              cloned = true;
              // (an arbitrary count may fall inside a sequence: the run stops before it)
              expect(c.ic).toBe(p.ic);
              expect(cut - p.ic).toBeLessThan(8);
            }
            switch (m.kind) {
              case 'start': p.start(m.icount, m.sp); break;
              case 'signal': p.run(m.icount); p.deliverSignal(m.pc, readers[plan.ctxOf.get(i)!]!); break;
              case 'sigreturn': p.run(m.icount); p.sigreturn(); break;
              case 'exit': p.run(m.icount); break;
            }
            if (m.kind !== 'start') expect(p.ic).toBe(m.icount);
          }
        });
        expect(procs.length).toBe(2);
        a.finish();
        (procs[1]!.p.sink as VerifySink).finish();
      }
    });
  }
});

describe.skipIf(!have)('the prologue after START', () => {
  for (const target of ['mipsel', 'sparc'] as const) {
    it(`${target}: a marker inside the prologue's tail stops there, at the prologue's PC, and the run goes on`, { timeout: 300_000 }, async () => {
      // A switch may land on any instruction after the trbufmap system call (quantum 300 does it).
      const t = await traced(target, 'ttest-asm');
      const prog = new RegenProgram(t.inst.schema, 'schema');
      const pro = t.inst.schema.prologue;
      expect(pro.afterStart).toBeGreaterThan(1);
      const trace = t.run.trace.bytes();
      const markers = t.run.trace.markers;
      const plan = planContexts(markers, trace.length);
      const readers = plan.ranges.map((r, i) => new ContextReader(trace, r, i));
      const events: number[] = [];
      const sink = { ifetch: (a: number) => void events.push(a), load: () => {}, store: () => {} };
      const start = markers[0]!;
      if (start.kind !== 'start') throw new Error(`the first marker is ${start.kind}`);
      const p = new RegenProcess(prog, readers[0]!, sink);
      p.start(start.icount, start.sp);
      expect(p.ic).toBe(start.icount);
      for (let k = 1; k < pro.afterStart; k++) {
        p.run(start.icount + k);
        expect(p.ic).toBe(start.icount + k);
        expect(p.nextPc()).toBe(pro.addr + 4 * (pro.count - pro.afterStart + k));
      }
      expect(events).toEqual([]); // instrumentation only: no reference of the original program
      const exit = markers[markers.length - 1]!;
      p.run(exit.icount);
      expect(p.ic).toBe(exit.icount);
      expect(events.length).toBeGreaterThan(0);
    });
  }
});
