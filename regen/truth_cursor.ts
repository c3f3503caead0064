/**
 * A pull cursor over a ground-truth file (docs/kernel.md section 10; format/truth.ts's reader):
 * `next()` returns the events one at a time, so a verification can walk a file of any size
 * alongside regeneration. Only instruction fetches, loads and stores of the selected pid are
 * returned; switch, fork, exec and exit records are followed by the reader and skipped.
 */
import { BATCH_FETCH, BATCH_LOAD, BATCH_STORE, TR_END, TR_EXEC, TR_EXIT, TR_FETCH, TR_FORK, TR_LOAD, TR_STORE, TruthReader } from '../format/truth.js';

/** Event kinds, numbered as the ground-truth writer's batches (format/truth.ts BATCH_*). */
export const EV_I = BATCH_FETCH;
export const EV_L = BATCH_LOAD;
export const EV_S = BATCH_STORE;

export interface TruthEvent {
  kind: number;
  addr: number;
  size: number;
}

/** Process records a cursor reports while it walks (multi-process verification). */
export interface TruthRecords {
  fork(parent: number, child: number): void;
  exec(pid: number): void;
  exit(pid: number): void;
}

export class TruthCursor {
  private readonly r: TruthReader;
  /** Fetches of the current run still to return, from runPc. */
  private run = 0;
  private runPc = 0;
  /** Events of the selected pid returned so far. */
  index = 0;

  /** The process of the event returned last. */
  get currentPid(): number {
    return this.r.pid;
  }
  /** Byte offset in the file (for messages). */
  get offset(): number {
    return this.r.offset;
  }

  /**
   * `pid`: the process whose events are returned (undefined: every process). `records` is told of
   * fork, exec and exit records as the cursor passes them.
   */
  constructor(bytes: Uint8Array, file: string, private readonly want?: number, private readonly records?: TruthRecords) {
    this.r = new TruthReader(bytes, file);
  }

  /** The next event of the selected pid, or null at the end of the file. */
  next(out: TruthEvent): TruthEvent | null {
    const r = this.r;
    for (;;) {
      if (this.run > 0) {
        this.run--;
        const a = this.runPc;
        this.runPc = (a + 4) >>> 0;
        if (this.want === undefined || r.pid === this.want) {
          this.index++;
          out.kind = EV_I;
          out.addr = a;
          out.size = 4;
          return out;
        }
        continue;
      }
      const k = r.next();
      switch (k) {
        case TR_FETCH:
          this.run = r.count;
          this.runPc = r.addr;
          break;
        case TR_LOAD:
        case TR_STORE:
          if (this.want === undefined || r.pid === this.want) {
            this.index++;
            out.kind = k === TR_STORE ? EV_S : EV_L;
            out.addr = r.addr;
            out.size = r.size;
            return out;
          }
          break;
        case TR_FORK: this.records?.fork(r.rpid, r.child); break;
        case TR_EXEC: this.records?.exec(r.rpid); break;
        case TR_EXIT: this.records?.exit(r.rpid); break;
        case TR_END: return null;
      }
    }
  }
}
