/**
 * The streaming interface of replay: what a multi-process reference stream delivers to its
 * consumers (the cache simulator, the timeline, statistics), whether it comes from regeneration
 * of a trace bundle or from a ground-truth file. It is the `ae_recreate(file, func)` of
 * larus-1990 extended to many processes.
 *
 * Contract:
 *   - `ref` is called once per event of the canonical model (docs/kernel.md section 10), in
 *     execution order: pid, kind (REF_I, REF_L, REF_S — the numbering of regen/truth_cursor.ts),
 *     the unsigned 32-bit address and the size in bytes. It is the hot path: a consumer must not
 *     allocate in it, and a source calls it from a loop without allocating either.
 *   - Schedule calls come between the refs, at the point in the stream where they happened:
 *     `switchTo(pid, cycle, events)` when `pid` gets the CPU at absolute virtual `cycle`
 *     (`events` refs have been delivered before it); `fork`, `exec` (the program's path), `exit`
 *     (the wait status). A source that knows no time passes NaN as the cycle.
 *   - `end(cycle, events)` once, after the last ref; `cycle` is the end of the run when the source
 *     knows it, NaN otherwise.
 */
import { BATCH_FETCH_RUN } from '../../format/truth.js';
import { EV_I, EV_L, EV_S } from '../truth_cursor.js';

export const REF_I = EV_I;
export const REF_L = EV_L;
export const REF_S = EV_S;
export const REF_KINDS = ['I', 'L', 'S'] as const;

export interface RefConsumer {
  ref(pid: number, kind: number, addr: number, size: number): void;
  /**
   * Optional: n entries of one process at once, in order, each what `ref` would receive (kind,
   * address and size of entry i at index i) or, with kind REF_I_RUN, `size` instruction fetches
   * of 4 bytes from addr, addr + 4, ... A source may call either method; the arrays are reused
   * after the call returns.
   */
  refBatch?(pid: number, n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void;
}

/** In a batch only: a run of `size` instruction fetches at consecutive addresses. */
export const REF_I_RUN = BATCH_FETCH_RUN;

/** A batch delivered one ref at a time (to a consumer without refBatch). */
export function refsOneByOne(c: RefConsumer, pid: number, n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    const k = kind[i]!;
    if (k !== REF_I_RUN) {
      c.ref(pid, k, addr[i]!, size[i]!);
      continue;
    }
    const a = addr[i]!;
    for (let j = 0, m = size[i]!; j < m; j++) c.ref(pid, REF_I, (a + 4 * j) >>> 0, 4);
  }
}

export interface ScheduleConsumer {
  switchTo(pid: number, cycle: number, events: number): void;
  fork(parent: number, child: number): void;
  exec(pid: number, path: string): void;
  exit(pid: number, status: number): void;
  end(cycle: number, events: number): void;
}

/** A schedule consumer that ignores everything (the default of a source). */
export const NO_SCHEDULE: ScheduleConsumer = {
  switchTo() {}, fork() {}, exec() {}, exit() {}, end() {},
};

/** Fans schedule calls out to several consumers (they are rare: no speed concern). */
export function scheduleFanout(list: readonly ScheduleConsumer[]): ScheduleConsumer {
  if (list.length === 0) return NO_SCHEDULE;
  if (list.length === 1) return list[0]!;
  return {
    switchTo: (p, c, e) => { for (const s of list) s.switchTo(p, c, e); },
    fork: (a, b) => { for (const s of list) s.fork(a, b); },
    exec: (p, path) => { for (const s of list) s.exec(p, path); },
    exit: (p, st) => { for (const s of list) s.exit(p, st); },
    end: (c, e) => { for (const s of list) s.end(c, e); },
  };
}

/** Progress of a long replay: `done` of `total` units (bytes of input, or events). */
export type ProgressFn = (done: number, total: number) => void;

/** Where a replay's stream comes from, and what it knows about the machine. */
export interface ReplaySource {
  /** The file named in messages. */
  readonly file: string;
  /** 'truth' (a ground-truth file) or 'regen' (regeneration of a trace bundle). */
  readonly kind: 'truth' | 'regen';
  readonly arch: string;
  /** The machine's clock rate when the source knows it (a bundle's manifest), else undefined. */
  readonly cpuHz: number | undefined;
  /**
   * Delivers the whole stream. Returns the number of refs delivered. Throws an Error naming the
   * file, the byte offset and the event index when the input is damaged.
   */
  run(refs: RefConsumer, sched?: ScheduleConsumer, progress?: ProgressFn): number;
  /**
   * run() in slices, awaiting `between` after each (the host's event loop runs there: signals,
   * bin/interrupt.ts; it may throw to abandon the pass). The same stream as run()'s.
   */
  runSliced?(refs: RefConsumer, sched: ScheduleConsumer, progress: ProgressFn | undefined, between: () => Promise<void>): Promise<number>;
}
