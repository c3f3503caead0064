/**
 * Virtual time (docs/kernel.md section 5): the cycle counter, the queue of cycle deadlines the CPU
 * runs up to (so an interrupt lands between any two instructions), and the tick-based callouts of
 * 4.4BSD (timeout/untimeout, run by softclock from hardclock).
 *
 * Determinism: events with equal deadlines run in the order they were scheduled; nothing here
 * reads the host clock.
 */
import type { Prng } from '../format/prng.js';

export interface ClockEvent {
  when: number;
  seq: number;
  fn: () => void;
  /** Index in the heap, -1 when not queued. */
  idx: number;
  /** True for events that may wake a process (device completions): they keep the machine alive. */
  wakes: boolean;
}

export interface Callout {
  /** Tick at which it fires. */
  tick: number;
  seq: number;
  fn: () => void;
  /** True when it may wake a sleeping process (tsleep timeouts, nanosleep): not a deadlock. */
  wakes: boolean;
  pending: boolean;
}

function before(a: ClockEvent, b: ClockEvent): boolean {
  return a.when < b.when || (a.when === b.when && a.seq < b.seq);
}

export class Clock {
  /** Virtual time in CPU cycles since boot. */
  now = 0;
  /** hardclock ticks since boot (4.4BSD `ticks`). */
  ticks = 0;
  private seq = 0;
  private readonly heap: ClockEvent[] = [];
  private callouts: Callout[] = [];
  private wakingEvents = 0;

  constructor(readonly cpuHz: number, readonly hz: number, readonly prng: Prng | null) {}

  /** Cycles per hardclock tick. */
  get tickCycles(): number {
    return Math.max(1, Math.floor(this.cpuHz / this.hz));
  }

  /**
   * A deadline `period` cycles from now; under --seed, uniform in [period/2, 3·period/2) so that
   * interrupts land at varying instructions.
   */
  interval(period: number): number {
    if (!this.prng || period < 2) return Math.max(1, period);
    return Math.max(1, this.prng.range(Math.floor(period / 2), Math.floor((3 * period) / 2) - 1));
  }

  /** Scales a device latency (±50 % under --seed). */
  jitter(cycles: number): number {
    if (!this.prng || cycles < 2) return cycles;
    return this.prng.range(Math.floor(cycles / 2), Math.floor((3 * cycles) / 2));
  }

  schedule(when: number, fn: () => void, wakes = false): ClockEvent {
    const ev: ClockEvent = { when, seq: this.seq++, fn, idx: -1, wakes };
    this.push(ev);
    if (wakes) this.wakingEvents++;
    return ev;
  }

  cancel(ev: ClockEvent): void {
    if (ev.idx < 0) return;
    this.removeAt(ev.idx);
    if (ev.wakes) this.wakingEvents--;
  }

  /** Deadline of the earliest event (Infinity when none). */
  nextDeadline(): number {
    return this.heap.length ? this.heap[0]!.when : Infinity;
  }

  /** Runs every event whose deadline has passed, in deadline order. */
  runDue(): void {
    while (this.heap.length && this.heap[0]!.when <= this.now) {
      const ev = this.heap[0]!;
      this.removeAt(0);
      if (ev.wakes) this.wakingEvents--;
      ev.fn();
    }
  }

  /** True while something other than the periodic clocks could wake a process. */
  hasWakingWork(): boolean {
    return this.wakingEvents > 0 || this.callouts.some((c) => c.wakes);
  }

  // --- callouts (4.4BSD timeout/untimeout; ticks as the unit) ---

  timeout(fn: () => void, ticks: number, wakes = true): Callout {
    const c: Callout = { tick: this.ticks + Math.max(1, ticks), seq: this.seq++, fn, wakes, pending: true };
    // Insert keeping (tick, seq) order; the list is short.
    let i = this.callouts.length;
    while (i > 0 && this.callouts[i - 1]!.tick > c.tick) i--;
    this.callouts.splice(i, 0, c);
    return c;
  }

  untimeout(c: Callout): void {
    if (!c.pending) return;
    c.pending = false;
    const i = this.callouts.indexOf(c);
    if (i >= 0) this.callouts.splice(i, 1);
  }

  /** softclock: runs the callouts due at the current tick. */
  softclock(): void {
    while (this.callouts.length && this.callouts[0]!.tick <= this.ticks) {
      const c = this.callouts.shift()!;
      c.pending = false;
      c.fn();
    }
  }

  // --- binary heap ---

  private push(ev: ClockEvent): void {
    const h = this.heap;
    let i = h.length;
    h.push(ev);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(ev, h[parent]!)) break;
      h[i] = h[parent]!;
      h[i]!.idx = i;
      i = parent;
    }
    h[i] = ev;
    ev.idx = i;
  }

  private removeAt(i: number): void {
    const h = this.heap;
    const ev = h[i]!;
    ev.idx = -1;
    const last = h.pop()!;
    if (i === h.length) return;
    // Put `last` at i and restore heap order in both directions.
    let j = i;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if (!before(last, h[parent]!)) break;
      h[j] = h[parent]!;
      h[j]!.idx = j;
      j = parent;
    }
    for (;;) {
      const l = 2 * j + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && before(h[r]!, h[l]!) ? r : l;
      if (!before(h[c]!, last)) break;
      h[j] = h[c]!;
      h[j]!.idx = j;
      j = c;
    }
    h[j] = last;
    last.idx = j;
  }
}
