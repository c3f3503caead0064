/**
 * `--verify`: regenerated events against a ground-truth file, event for event, and the first
 * divergence reported with its event index, the last instruction address, the function it lies
 * in, and both events. Also the second oracle: the ground truth of an instrumented run mapped
 * back through the schema's address map (original instructions keep their original addresses
 * and data references; instrumentation sequences and glue, and their stores into the trace
 * buffer, disappear).
 */
import type { Schema } from '../format/schema.js';
import type { EventSink } from './process.js';
import { EV_I, EV_L, EV_S, TruthCursor, type TruthEvent } from './truth_cursor.js';

const KIND = ['I', 'L', 'S'];

export interface Divergence {
  index: number;
  pc: number;
  func: string;
  expected: string;
  actual: string;
}

export class DivergenceError extends Error {
  constructor(readonly d: Divergence) {
    super(`first divergence at event ${d.index} (last instruction 0x${d.pc.toString(16)} in ${d.func}): expected ${d.expected}, regenerated ${d.actual}`);
    this.name = 'DivergenceError';
  }
}

export function fmtEvent(e: TruthEvent | null): string {
  return e ? `${KIND[e.kind]} 0x${(e.addr >>> 0).toString(16)} ${e.size}` : 'end of trace';
}

/** Names the function of an original address (for reports). */
export function funcNamer(schema: Schema): (pc: number) => string {
  const fs = schema.functions.map((f) => ({ a: f.addr, e: f.end, n: f.name })).sort((x, y) => x.a - y.a);
  return (pc) => {
    const f = fs.find((x) => pc >= x.a && pc < x.e);
    return f ? `${f.n}+0x${(pc - f.a).toString(16)}` : '?';
  };
}

/** A sink that compares every event with the next one of a ground-truth cursor. */
export class VerifySink implements EventSink {
  private readonly exp: TruthEvent = { kind: 0, addr: 0, size: 0 };
  index = 0;
  /** Instruction fetches compared so far (the rest of `index` are loads and stores). */
  fetches = 0;
  private lastPc = 0;

  constructor(private readonly cur: { next(out: TruthEvent): TruthEvent | null }, private readonly name: (pc: number) => string) {}

  private check(kind: number, addr: number, size: number): void {
    const e = this.cur.next(this.exp);
    if (!e || e.kind !== kind || e.addr !== addr >>> 0 || e.size !== size) {
      throw new DivergenceError({
        index: this.index, pc: this.lastPc, func: this.name(this.lastPc), expected: fmtEvent(e),
        actual: fmtEvent({ kind, addr: addr >>> 0, size }),
      });
    }
    this.index++;
  }
  ifetch(pc: number): void {
    this.check(EV_I, pc, 4);
    this.fetches++;
    this.lastPc = pc >>> 0;
  }
  load(addr: number, size: number): void {
    this.check(EV_L, addr, size);
  }
  store(addr: number, size: number): void {
    this.check(EV_S, addr, size);
  }
  /** After regeneration: the truth must have no events left. */
  finish(): void {
    const e = this.cur.next(this.exp);
    if (e) {
      throw new DivergenceError({ index: this.index, pc: this.lastPc, func: this.name(this.lastPc), expected: fmtEvent(e), actual: 'end of trace' });
    }
  }
}

/**
 * The events of an instrumented run's ground truth, as the original program would have made
 * them: a cursor over the instrumented truth that maps instruction addresses through the
 * schema's address map and drops what instrumentation did.
 */
export class MappedTruthCursor {
  private readonly map: Schema['addressMap'];
  private keep = false;
  private readonly inner: TruthCursor;
  private readonly lo: number;
  private readonly hi: number;

  constructor(bytes: Uint8Array, file: string, pid: number, schema: Schema) {
    this.inner = new TruthCursor(bytes, file, pid);
    this.map = schema.addressMap;
    this.lo = schema.newText.base;
    this.hi = schema.newText.base + schema.newText.size;
  }

  private lookup(a: number): number | undefined {
    let lo = 0;
    let hi = this.map.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [start, n, kind, v] = this.map[mid]!;
      if (a < start) hi = mid - 1;
      else if (a >= start + 4 * n) lo = mid + 1;
      else return kind === 'o' ? v + (a - start) : undefined;
    }
    return undefined;
  }

  next(out: TruthEvent): TruthEvent | null {
    for (;;) {
      const e = this.inner.next(out);
      if (!e) return null;
      if (e.kind === EV_I) {
        if (e.addr >= this.lo && e.addr < this.hi) {
          const o = this.lookup(e.addr);
          this.keep = o !== undefined;
          if (this.keep) {
            e.addr = o!;
            return e;
          }
          continue;
        }
        // Outside the new text: before the prologue ran (cannot happen) — reported as is.
        this.keep = true;
        return e;
      }
      if (this.keep) return e;
    }
  }
}

export { EV_I, EV_L, EV_S };
