/**
 * A ground-truth file (docs/kernel.md section 10) as a replay source: format/truth.ts's reader
 * over the file in chunks, straight into the consumers' callbacks with no object per event, so
 * its size is not limited by memory and hundreds of millions of events replay quickly.
 *
 * Times: a switch record carries the cycles since the previous switch (the first one: since
 * cycle 0), so switch k happens at the sum of the first k deltas. The file does not carry the
 * end of the run: `end` gets NaN unless the caller knows it (the run's --stats report).
 */
import { TR_EXEC, TR_EXIT, TR_FETCH, TR_FORK, TR_LOAD, TR_STORE, TR_SWITCH, TRUTH_MAGIC, TruthReader } from '../../format/truth.js';
import type { TargetName } from '../../format/target.js';
import { NO_SCHEDULE, REF_I, REF_L, REF_S, type ProgressFn, type RefConsumer, type ReplaySource, type ScheduleConsumer } from './consumer.js';

/** Progress is reported every this many bytes. */
const PROGRESS_STEP = 4 << 20;
/** Bytes of the file between two returns to the host's event loop in runSliced. */
const SLICE_BYTES = 4 << 20;

/** True when the file starts with the ground-truth magic. */
export function isTruthFile(head: Uint8Array): boolean {
  return head.length >= 8 && Buffer.from(head.subarray(0, 8)).toString('latin1') === TRUTH_MAGIC;
}

export class TruthSource implements ReplaySource {
  readonly kind = 'truth' as const;
  readonly arch: TargetName;
  readonly cpuHz: number | undefined = undefined;
  readonly size: number;

  constructor(readonly file: string) {
    const r = TruthReader.open(file);
    this.arch = r.arch;
    this.size = r.fileSize;
    r.close();
  }

  run(refs: RefConsumer, sched: ScheduleConsumer = NO_SCHEDULE, progress?: ProgressFn): number {
    const r = TruthReader.open(this.file);
    try {
      return this.pass(r, { cycle: 0, lastProgress: 0 }, refs, sched, progress, Infinity)!;
    } finally {
      r.close();
    }
  }

  /** run() in slices of SLICE_BYTES of the file, awaiting `between` after each (bin/interrupt.ts). */
  async runSliced(refs: RefConsumer, sched: ScheduleConsumer, progress: ProgressFn | undefined, between: () => Promise<void>): Promise<number> {
    const r = TruthReader.open(this.file);
    try {
      const st = { cycle: 0, lastProgress: 0 };
      for (let stop = SLICE_BYTES; ; stop += SLICE_BYTES) {
        const n = this.pass(r, st, refs, sched, progress, stop);
        if (n !== null) return n;
        await between();
      }
    } finally {
      r.close();
    }
  }

  /** Delivers records until the reader is past `stop` (null) or at the end (the refs delivered). */
  private pass(r: TruthReader, st: { cycle: number; lastProgress: number }, refs: RefConsumer, sched: ScheduleConsumer, progress: ProgressFn | undefined, stop: number): number | null {
    let cycle = st.cycle;
    let lastProgress = st.lastProgress;
    try {
      for (;;) {
        if (r.at >= stop) return null;
        const k = r.next();
        if (progress && r.at - lastProgress > PROGRESS_STEP) {
          lastProgress = r.at;
          progress(lastProgress, this.size);
        }
        switch (k) {
          case TR_FETCH: {
            const pid = r.pid;
            const n = r.count;
            for (let i = 0, pc = r.addr; i < n; i++, pc = (pc + 4) >>> 0) refs.ref(pid, REF_I, pc, 4);
            break;
          }
          case TR_LOAD: refs.ref(r.pid, REF_L, r.addr, r.size); break;
          case TR_STORE: refs.ref(r.pid, REF_S, r.addr, r.size); break;
          case TR_SWITCH:
            cycle += r.cycles;
            sched.switchTo(r.pid, cycle, r.events);
            break;
          case TR_FORK: sched.fork(r.rpid, r.child); break;
          case TR_EXEC: sched.exec(r.rpid, r.path); break;
          case TR_EXIT: sched.exit(r.rpid, r.status); break;
          default:
            progress?.(this.size, this.size);
            sched.end(NaN, r.events);
            return r.events;
        }
      }
    } finally {
      st.cycle = cycle;
      st.lastProgress = lastProgress;
    }
  }
}
