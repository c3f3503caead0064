/**
 * A pull decoder of the ground-truth binary format (docs/kernel.md section 10; os/truth.ts writes
 * it and has the push-style reader readTruth): `next()` returns the events one at a time, so a
 * verification can walk a file of any size alongside regeneration without decoding it whole.
 * Only instruction fetches, loads and stores of the selected pid are returned; switch, fork, exec
 * and exit records are followed for the decoder state and skipped.
 */
import { TAG_END, TAG_EXEC, TAG_EXIT, TAG_FORK, TAG_JUMP, TAG_LOAD, TAG_LOADN, TAG_STORE, TAG_STOREN, TAG_SWITCH, TRUTH_MAGIC, TRUTH_VERSION } from '../format/truth.js';

export const EV_I = 0;
export const EV_L = 1;
export const EV_S = 2;

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
  private pos = 16;
  private pid = -1;
  private nextPc = 0;
  private lastData = 0;
  private readonly states = new Map<number, { nextPc: number; lastData: number }>();
  private run = 0;
  private ended = false;
  /** Events of the selected pid returned so far. */
  index = 0;

  /** The process of the event returned last. */
  get currentPid(): number {
    return this.pid;
  }
  /** Byte offset in the file (for messages). */
  get offset(): number {
    return this.pos;
  }

  /**
   * `pid`: the process whose events are returned (undefined: every process). `records` is told of
   * fork, exec and exit records as the cursor passes them.
   */
  constructor(
    private readonly bytes: Uint8Array, private readonly file: string, private readonly want?: number,
    private readonly records?: TruthRecords,
  ) {
    if (bytes.length < 16 || Buffer.from(bytes.subarray(0, 8)).toString('latin1') !== TRUTH_MAGIC) {
      throw new Error(`${file}: not a ground-truth file (magic ${TRUTH_MAGIC} expected)`);
    }
    if (bytes[8] !== TRUTH_VERSION) throw new Error(`${file}: byte 8: unsupported version ${bytes[8]}`);
  }

  private need(n: number): void {
    if (this.pos + n > this.bytes.length) throw new Error(`${this.file}: byte ${this.pos}: truncated`);
  }
  private uleb(): number {
    let v = 0;
    let mul = 1;
    for (;;) {
      this.need(1);
      const b = this.bytes[this.pos++]!;
      v += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return v;
      mul *= 0x80;
    }
  }
  private zz(): number {
    const u = this.uleb() >>> 0;
    return (u >>> 1) ^ -(u & 1);
  }

  /** The next event of the selected pid, or null at the end of the file. */
  next(out: TruthEvent): TruthEvent | null {
    for (;;) {
      if (this.run > 0) {
        this.run--;
        const a = this.nextPc;
        this.nextPc = (a + 4) >>> 0;
        if (this.want === undefined || this.pid === this.want) {
          this.index++;
          out.kind = EV_I;
          out.addr = a;
          out.size = 4;
          return out;
        }
        continue;
      }
      if (this.ended) return null;
      this.need(1);
      const t = this.bytes[this.pos++]!;
      if (t < 0x80) {
        this.run = t + 1;
        continue;
      }
      if (t === TAG_JUMP) {
        const a = (this.nextPc + this.zz()) >>> 0;
        this.nextPc = (a + 4) >>> 0;
        if (this.want === undefined || this.pid === this.want) {
          this.index++;
          out.kind = EV_I;
          out.addr = a;
          out.size = 4;
          return out;
        }
        continue;
      }
      if (t >= TAG_LOAD && t <= TAG_STOREN) {
        const size = t === TAG_LOADN || t === TAG_STOREN ? this.uleb() : 1 << ((t - TAG_LOAD) % 4);
        const a = (this.lastData + this.zz()) >>> 0;
        this.lastData = a;
        const store = t === TAG_STOREN || (t >= TAG_STORE && t < TAG_LOADN);
        if (this.want === undefined || this.pid === this.want) {
          this.index++;
          out.kind = store ? EV_S : EV_L;
          out.addr = a;
          out.size = size;
          return out;
        }
        continue;
      }
      switch (t) {
        case TAG_SWITCH: {
          if (this.pid >= 0) this.states.set(this.pid, { nextPc: this.nextPc, lastData: this.lastData });
          this.pid = this.uleb();
          this.uleb();
          const s = this.states.get(this.pid);
          this.nextPc = s ? s.nextPc : 0;
          this.lastData = s ? s.lastData : 0;
          break;
        }
        case TAG_FORK: {
          const parent = this.uleb();
          const child = this.uleb();
          this.records?.fork(parent, child);
          break;
        }
        case TAG_EXEC: {
          const p = this.uleb();
          const n = this.uleb();
          this.need(n);
          this.pos += n;
          this.records?.exec(p);
          break;
        }
        case TAG_EXIT: {
          const p = this.uleb();
          this.uleb();
          this.states.delete(p);
          this.records?.exit(p);
          break;
        }
        case TAG_END:
          this.uleb();
          this.ended = true;
          break;
        default:
          throw new Error(`${this.file}: byte ${this.pos - 1}: bad record tag 0x${t.toString(16)}`);
      }
    }
  }
}
