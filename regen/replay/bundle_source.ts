/**
 * Trace bundles (docs/trace-bundle.md) as replay sources:
 *   - BundleSource: the multi-process regeneration of regen/multi.ts (`regenerate`), straight into
 *     the consumers;
 *   - BundleTruthSource (`emu replay BUNDLE --truth`): the bundle's ground truth — that of the
 *     traced, instrumented run — restricted and mapped back to what regeneration produces, so that
 *     replaying either gives identical cache statistics (the oracle of docs/replay.md).
 *
 * The mapping (the same rule as regen/verify_multi.ts, applied here in one streaming pass so
 * the schedule records of the truth reach the consumers in place):
 *   - a process's image counts from an exec whose first fetch lies in instrumented text (the new
 *     text of some schema of the bundle) to its exit or next exec; which program it is, is the
 *     pid's next START in the schedule stream; a fork's child inherits its parent's image;
 *   - fetches map through that program's address map: original instructions take their original
 *     addresses and keep their data references; instrumentation sequences and glue (and so their
 *     stores into the trace buffer) disappear;
 *   - schedule calls: exec(pid, path) when a traced image starts (as regeneration does at a
 *     START) and, for the timeline's names, at the execs of processes never traced so far; fork,
 *     exit and switches of every process (the ground truth has them all: its timeline shows the
 *     consumer and untraced processes too; the cache lists only processes that made references),
 *     with the count of refs delivered so far; end at the manifest's run.cycles. A traced process
 *     that execs an untraced program keeps its traced program's name, as in regeneration.
 */
import { checkedTruthFile, openBundle, type Bundle, type OpenBundleOptions } from '../../format/bundle.js';
import { regenerate, regenerateSliced } from '../multi.js';
import type { Schema } from '../../format/schema.js';
import { NO_SCHEDULE, REF_I, type ProgressFn, type RefConsumer, type ReplaySource, type ScheduleConsumer } from './consumer.js';
import { TruthSource } from './truth_source.js';

export class BundleSource implements ReplaySource {
  readonly kind = 'regen' as const;
  readonly arch: string;
  readonly cpuHz: number;
  readonly bundle: Bundle;

  /** `opts`: openBundle's (the schema cache). */
  constructor(readonly file: string, opts: OpenBundleOptions = {}) {
    this.bundle = openBundle(file, opts);
    this.arch = this.bundle.manifest.arch;
    this.cpuHz = this.bundle.manifest.cpuHz;
  }

  run(refs: RefConsumer, sched: ScheduleConsumer = NO_SCHEDULE, progress?: ProgressFn): number {
    return regenerate(this.bundle, refs, sched, progress ? { progress } : {}).events;
  }

  async runSliced(refs: RefConsumer, sched: ScheduleConsumer, progress: ProgressFn | undefined, between: () => Promise<void>): Promise<number> {
    return (await regenerateSliced(this.bundle, refs, sched, progress ? { progress } : {}, between)).events;
  }
}

/** An address map as sorted typed arrays; `map(a)` is the original address, or -1 for added code. */
class AddressMap {
  private readonly start: Float64Array;
  private readonly end: Float64Array;
  /** Original address of the entry's first word, or -1 (instrumentation, glue). */
  private readonly orig: Float64Array;
  private last = 0;

  constructor(schema: Schema) {
    const m = schema.addressMap;
    this.start = new Float64Array(m.length);
    this.end = new Float64Array(m.length);
    this.orig = new Float64Array(m.length);
    m.forEach(([s, n, kind, v], i) => {
      this.start[i] = s;
      this.end[i] = s + 4 * n;
      this.orig[i] = kind === 'o' ? v : -1;
    });
  }

  map(a: number): number {
    let i = this.last;
    if (!(a >= this.start[i]! && a < this.end[i]!)) {
      let lo = 0;
      let hi = this.start.length - 1;
      i = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (a < this.start[mid]!) hi = mid - 1;
        else if (a >= this.end[mid]!) lo = mid + 1;
        else {
          i = mid;
          break;
        }
      }
      if (i < 0) return -1;
      this.last = i;
    }
    const o = this.orig[i]!;
    return o < 0 ? -1 : o + (a - this.start[i]!);
  }
}

interface Image {
  map: AddressMap | null;
  /** exec'ed, first fetch not seen yet. */
  pending: boolean;
  /** The process has had a traced image (it or an ancestor since the fork). */
  traced: boolean;
}

/** The truth's stream, restricted to traced images and mapped back, into the real consumers. */
class TracedFilter implements RefConsumer, ScheduleConsumer {
  private readonly images = new Map<number, Image>();
  private readonly starts = new Map<number, { path: string; schema: Schema }[]>();
  private readonly maps = new Map<Schema, AddressMap>();
  private readonly lo: number;
  private readonly hi: number;
  private curPid = -1;
  private cur: Image | undefined = undefined;
  private keep = false;
  n = 0;

  constructor(b: Bundle, private readonly file: string, private readonly refs: RefConsumer, private readonly out: ScheduleConsumer, private readonly endCycle: number) {
    let lo = 0xffffffff;
    let hi = 0;
    for (const m of b.sched.markers) {
      if (m.kind !== 'start') continue;
      const p = b.programs.get(m.hash ?? '')!;
      let q = this.starts.get(m.pid);
      if (!q) this.starts.set(m.pid, (q = []));
      q.push({ path: p.info.path, schema: p.schema });
      lo = Math.min(lo, p.schema.newText.base);
      hi = Math.max(hi, p.schema.newText.base + p.schema.newText.size);
    }
    this.lo = lo;
    this.hi = hi;
  }

  ref(pid: number, kind: number, addr: number, size: number): void {
    if (pid !== this.curPid) {
      this.curPid = pid;
      this.cur = this.images.get(pid);
    }
    const im = this.cur;
    if (kind === REF_I) {
      this.keep = false;
      if (im === undefined) return;
      if (im.pending) {
        im.pending = false;
        if (addr >= this.lo && addr < this.hi) {
          const p = this.starts.get(pid)?.shift();
          if (!p) throw new Error(`${this.file}: event ${this.n}: pid ${pid} runs an instrumented program the schedule never starts`);
          let m = this.maps.get(p.schema);
          if (!m) this.maps.set(p.schema, (m = new AddressMap(p.schema)));
          im.map = m;
          im.traced = true;
          this.out.exec(pid, p.path);
        }
      }
      if (im.map === null) return;
      const o = im.map.map(addr);
      if (o < 0) return;
      this.keep = true;
      this.n++;
      this.refs.ref(pid, REF_I, o, 4);
      return;
    }
    if (this.keep) {
      this.n++;
      this.refs.ref(pid, kind, addr, size);
    }
  }

  switchTo(pid: number, cycle: number): void {
    this.out.switchTo(pid, cycle, this.n);
  }
  fork(parent: number, child: number): void {
    const im = this.images.get(parent);
    if (im) this.images.set(child, { ...im });
    this.out.fork(parent, child);
  }
  exec(pid: number, path: string): void {
    const traced = this.images.get(pid)?.traced === true;
    this.images.set(pid, { map: null, pending: true, traced });
    if (pid === this.curPid) this.cur = this.images.get(pid);
    if (!traced) this.out.exec(pid, path);
  }
  exit(pid: number, status: number): void {
    this.out.exit(pid, status);
    this.images.delete(pid);
    if (pid === this.curPid) this.cur = undefined;
  }
  end(): void {
    this.out.end(this.endCycle, this.n);
  }
}

export class BundleTruthSource implements ReplaySource {
  readonly kind = 'truth' as const;
  readonly arch: string;
  readonly cpuHz: number;
  readonly file: string;
  private readonly truth: TruthSource;

  constructor(readonly bundle: Bundle) {
    this.file = checkedTruthFile(bundle);
    this.truth = new TruthSource(this.file);
    this.arch = bundle.manifest.arch;
    this.cpuHz = bundle.manifest.cpuHz;
  }

  run(refs: RefConsumer, sched: ScheduleConsumer = NO_SCHEDULE, progress?: ProgressFn): number {
    const f = new TracedFilter(this.bundle, this.file, refs, sched, this.bundle.manifest.run.cycles);
    this.truth.run(f, f, progress);
    return f.n;
  }

  async runSliced(refs: RefConsumer, sched: ScheduleConsumer, progress: ProgressFn | undefined, between: () => Promise<void>): Promise<number> {
    const f = new TracedFilter(this.bundle, this.file, refs, sched, this.bundle.manifest.run.cycles);
    await this.truth.runSliced(f, f, progress, between);
    return f.n;
  }
}
