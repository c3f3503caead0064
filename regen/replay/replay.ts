/**
 * One replay pass: a source's stream into the consumers asked for — the shared cache, a sweep
 * grid, the timeline — and the reference counts by kind, which every pass keeps (the din test
 * compares them with a din file's line counts). The ref consumer handed to the source is a single
 * object of one class per configuration, so the source's call site stays monomorphic.
 */
import type { CacheSpec } from '../cachesim.js';
import { CacheReplay, type CacheSummary } from '../cachesim_replay.js';
import { Timeline } from '../timeline.js';
import { REF_I, REF_I_RUN, type ProgressFn, type RefConsumer, type ReplaySource, type ScheduleConsumer, scheduleFanout } from './consumer.js';
import { Sweep, type SweepGrid, type SweepResult } from './sweep.js';

/** References by kind and by pid, nothing else (a replay without a cache). */
export class RefCounter implements RefConsumer {
  readonly byKind = new Float64Array(3);
  private readonly byPid = new Map<number, Float64Array>();
  private curPid = -1;
  private cur: Float64Array = new Float64Array(3);

  ref(pid: number, kind: number): void {
    if (pid !== this.curPid) {
      let c = this.byPid.get(pid);
      if (!c) this.byPid.set(pid, (c = new Float64Array(3)));
      this.cur = c;
      this.curPid = pid;
    }
    this.byKind[kind]++;
    this.cur[kind]++;
  }

  refBatch(pid: number, n: number, kind: Uint8Array, _addr: Uint32Array, size: Uint8Array): void {
    for (let i = 0; i < n; i++) {
      const k = kind[i]!;
      if (k !== REF_I_RUN) this.ref(pid, k);
      else {
        this.ref(pid, REF_I);
        this.byKind[REF_I] += size[i]! - 1;
        this.cur[REF_I] += size[i]! - 1;
      }
    }
  }

  perPid(): Map<number, [number, number, number]> {
    const m = new Map<number, [number, number, number]>();
    for (const [pid, c] of this.byPid) m.set(pid, [c[0]!, c[1]!, c[2]!]);
    return m;
  }
}

export interface ReplayOptions {
  /** The cache to simulate (none: references are only counted). */
  cache?: CacheSpec;
  /** Tag lines by process (default true; docs/replay.md). */
  pidTags?: boolean;
  sweep?: SweepGrid;
  timeline?: boolean;
  progress?: ProgressFn;
}

export interface ReplayResult {
  events: number;
  /** References by kind: I, L, S. */
  refs: [number, number, number];
  /** Host seconds the pass took (reported on stderr only; never part of a result file). */
  seconds: number;
  cache?: CacheSummary;
  sweep?: SweepResult;
  timeline?: Timeline;
}

export function replay(source: ReplaySource, opts: ReplayOptions = {}): ReplayResult {
  const pidTags = opts.pidTags ?? true;
  const sched: ScheduleConsumer[] = [];
  let cache: CacheReplay | undefined;
  let sweep: Sweep | undefined;
  let counter: RefCounter | undefined;
  let refs: RefConsumer;
  if (opts.cache && opts.sweep) throw new Error('a replay runs either one cache or a sweep');
  if (opts.cache) {
    refs = cache = new CacheReplay(opts.cache, pidTags);
    sched.push(cache);
  } else if (opts.sweep) {
    refs = sweep = new Sweep(opts.sweep, pidTags);
    sched.push(sweep);
  } else {
    refs = counter = new RefCounter();
  }
  const timeline = opts.timeline ? new Timeline() : undefined;
  if (timeline) sched.push(timeline);
  const t0 = performance.now();
  const events = source.run(refs, scheduleFanout(sched), opts.progress);
  const seconds = (performance.now() - t0) / 1000;
  const r: ReplayResult = { events, refs: [0, 0, 0], seconds };
  if (cache) {
    r.cache = cache.summary();
    r.refs = [...r.cache.total.refs];
  } else if (sweep) {
    r.sweep = sweep.result();
    // Every cell saw the whole stream; the first live one gives the counts.
    const c = sweep.first();
    if (c) r.refs = [...c.summary().total.refs];
  } else if (counter) {
    r.refs = [counter.byKind[0]!, counter.byKind[1]!, counter.byKind[2]!];
  }
  if (timeline) r.timeline = timeline;
  return r;
}
