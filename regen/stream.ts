/**
 * The recorded bytes as each execution context of a process reads them.
 *
 * A signal handler writes its bytes into the same buffer, in the middle of the interrupted
 * code's bytes: the SIGNAL marker gives the stream position where the handler's bytes start and
 * the SIGRETURN marker where the interrupted code's resume. Regeneration may read a witness ahead
 * (at a predicate, before the edge that wrote it), so the interrupted code must not see the
 * handler's bytes: every context reads its own ranges of the stream. Contexts nest like the
 * handlers; a handler left by longjmp simply continues as the current context. (Issue 7 splits
 * the stream between processes the same way, by the schedule markers.)
 */
import type { Marker } from '../format/sched.js';

export class StreamError extends Error {}

/** Ranges [start, end) of each context, and which context each SIGNAL marker opens. */
export interface ContextPlan {
  ranges: [number, number][][];
  /** Per marker index: the context a SIGNAL opens, or the context a SIGRETURN returns to. */
  ctxOf: Map<number, number>;
}

/** Plans the contexts of one process from its markers (in stream order). */
export function planContexts(markers: readonly Marker[], total: number): ContextPlan {
  const ranges: [number, number][][] = [[]];
  const ctxOf = new Map<number, number>();
  const stack: number[] = [];
  let cur = 0;
  let open = -1;
  const close = (pos: number): void => {
    if (open >= 0) {
      if (pos > open) ranges[cur]!.push([open, pos]);
      open = -1;
    }
  };
  markers.forEach((m, i) => {
    switch (m.kind) {
      case 'start':
        open = m.pos;
        break;
      case 'signal': {
        close(m.pos);
        stack.push(cur);
        cur = ranges.length;
        ranges.push([]);
        ctxOf.set(i, cur);
        open = m.pos;
        break;
      }
      case 'sigreturn':
        close(m.pos);
        cur = stack.pop() ?? 0;
        ctxOf.set(i, cur);
        open = m.pos;
        break;
      case 'exit':
        close(m.pos);
        break;
    }
  });
  close(total);
  return { ranges, ctxOf };
}

/** A context's reader over its ranges. */
export class ContextReader {
  private ri = 0;
  private off: number;
  /** Bytes read so far. */
  consumed = 0;

  constructor(private readonly bytes: Uint8Array, private readonly ranges: [number, number][], readonly ctx: number) {
    this.off = ranges.length > 0 ? ranges[0]![0] : 0;
  }

  /** Absolute stream position of the next byte (for messages). */
  get position(): number {
    return this.off;
  }

  byte(): number {
    while (this.ri < this.ranges.length && this.off >= this.ranges[this.ri]![1]) {
      this.ri++;
      if (this.ri < this.ranges.length) this.off = this.ranges[this.ri]![0];
    }
    if (this.ri >= this.ranges.length) throw new StreamError(`the trace has no more bytes for context ${this.ctx} (stream position ${this.off})`);
    this.consumed++;
    return this.bytes[this.off++]!;
  }

  /** True when n more bytes are there for this context (in its current or later ranges). */
  has(n: number): boolean {
    let ri = this.ri;
    let off = this.off;
    while (ri < this.ranges.length) {
      const [a, b] = this.ranges[ri]!;
      if (off < a) off = a;
      if (off < b) {
        n -= b - off;
        if (n <= 0) return true;
      }
      ri++;
      off = 0;
    }
    return false;
  }

  clone(): ContextReader {
    const c = new ContextReader(this.bytes, this.ranges, this.ctx);
    c.ri = this.ri;
    c.off = this.off;
    c.consumed = this.consumed;
    return c;
  }
}
