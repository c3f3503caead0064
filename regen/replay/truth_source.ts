/**
 * A ground-truth file (docs/kernel.md section 10) as a replay source: the binary format decoded
 * in chunks straight into the consumers' callbacks, with no object per event (os/truth.ts's
 * readTruth builds a record object per event, which is right for tests and too slow for
 * replaying hundreds of millions of events). The file is read 4 MiB at a time, so its size is
 * not limited by memory.
 *
 * Times: a switch record carries the cycles since the previous switch (the first one: since
 * cycle 0), so switch k happens at the sum of the first k deltas. The file does not carry the
 * end of the run: `end` gets NaN unless the caller knows it (the run's --stats report).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  ARCH_CODES, TAG_END, TAG_EXEC, TAG_EXIT, TAG_FORK, TAG_JUMP, TAG_LOAD, TAG_LOADN, TAG_STORE, TAG_STOREN, TAG_SWITCH,
  TRUTH_MAGIC, TRUTH_VERSION, type TruthArch,
} from '../../format/truth.js';
import { NO_SCHEDULE, REF_I, REF_L, REF_S, type ProgressFn, type RefConsumer, type ReplaySource, type ScheduleConsumer } from './consumer.js';

const CHUNK = 4 << 20;
/** Longest record but an exec: tag + two 5-byte ulebs + slack. */
const MAX_RECORD = 32;

export class TruthSourceError extends Error {}

/** True when the file starts with the ground-truth magic. */
export function isTruthFile(head: Uint8Array): boolean {
  return head.length >= 8 && Buffer.from(head.subarray(0, 8)).toString('latin1') === TRUTH_MAGIC;
}

export class TruthSource implements ReplaySource {
  readonly kind = 'truth' as const;
  readonly arch: TruthArch;
  readonly cpuHz: number | undefined = undefined;
  readonly size: number;

  constructor(readonly file: string) {
    const fd = openSync(file, 'r');
    try {
      this.size = fstatSync(fd).size;
      const head = Buffer.alloc(16);
      const n = readSync(fd, head, 0, 16, 0);
      if (n < 16 || !isTruthFile(head)) throw new TruthSourceError(`${file}: byte 0: not a ground-truth file (magic ${TRUTH_MAGIC} expected)`);
      if (head[8] !== TRUTH_VERSION) throw new TruthSourceError(`${file}: byte 8: unsupported ground-truth version ${head[8]}`);
      const arch = (Object.keys(ARCH_CODES) as TruthArch[]).find((a) => ARCH_CODES[a] === head[9]);
      if (!arch) throw new TruthSourceError(`${file}: byte 9: unknown architecture code ${head[9]}`);
      this.arch = arch;
    } finally {
      closeSync(fd);
    }
  }

  run(refs: RefConsumer, sched: ScheduleConsumer = NO_SCHEDULE, progress?: ProgressFn): number {
    const file = this.file;
    const fd = openSync(file, 'r');
    const buf = new Uint8Array(CHUNK);
    /** File offset of buf[0]; valid bytes are buf[0, len). */
    let base = 16;
    let len = 0;
    let pos = 0;
    let eof = false;
    const fill = (): void => {
      // Keeps the unread tail, appends as much as fits.
      buf.copyWithin(0, pos, len);
      base += pos;
      len -= pos;
      pos = 0;
      while (len < buf.length && !eof) {
        const n = readSync(fd, buf, len, buf.length - len, base + len);
        if (n === 0) eof = true;
        len += n;
      }
    };
    let events = 0;
    let pid = -1;
    let nextPc = 0;
    let lastData = 0;
    let cycle = 0;
    const pcOf = new Map<number, number>();
    const dataOf = new Map<number, number>();
    const fail = (at: number, msg: string): never => {
      throw new TruthSourceError(`${file}: byte ${base + at} (event ${events}): ${msg}`);
    };
    const need = (n: number): void => {
      if (pos + n > len) {
        if (!eof) fill();
        if (pos + n > len) fail(pos, 'truncated (no end record)');
      }
    };
    // Varints are read with a bounds check per byte: cheap next to the consumer's work.
    const uleb = (): number => {
      let v = 0;
      let mul = 1;
      for (let i = 0; i < 10; i++) {
        if (pos >= len) fail(pos, 'truncated inside a number');
        const b = buf[pos++]!;
        v += (b & 0x7f) * mul;
        if ((b & 0x80) === 0) return v;
        mul *= 0x80;
      }
      return fail(pos, 'a number longer than 10 bytes');
    };
    let lastProgress = 0;
    try {
      fill();
      for (;;) {
        if (len - pos < MAX_RECORD && !eof) fill();
        if (progress && base + pos - lastProgress > CHUNK) {
          lastProgress = base + pos;
          progress(lastProgress, this.size);
        }
        if (pos >= len) fail(pos, 'truncated (no end record)');
        const at = pos;
        const t = buf[pos++]!;
        if (t < 0x80) {
          if (pid < 0) fail(at, 'an instruction fetch before the first switch record');
          let pc = nextPc;
          for (let i = 0; i <= t; i++) {
            refs.ref(pid, REF_I, pc, 4);
            pc = (pc + 4) >>> 0;
          }
          nextPc = pc;
          events += t + 1;
        } else if (t === TAG_JUMP) {
          if (pid < 0) fail(at, 'an instruction fetch before the first switch record');
          const u = uleb() >>> 0;
          const pc = (nextPc + ((u >>> 1) ^ -(u & 1))) >>> 0;
          refs.ref(pid, REF_I, pc, 4);
          nextPc = (pc + 4) >>> 0;
          events++;
        } else if (t >= TAG_LOAD && t <= TAG_STOREN) {
          if (pid < 0) fail(at, 'a data reference before the first switch record');
          const size = t >= TAG_LOADN ? uleb() : 1 << ((t - TAG_LOAD) & 3);
          const u = uleb() >>> 0;
          const a = (lastData + ((u >>> 1) ^ -(u & 1))) >>> 0;
          lastData = a;
          const store = t === TAG_STOREN || (t >= TAG_STORE && t < TAG_LOADN);
          refs.ref(pid, store ? REF_S : REF_L, a, size);
          events++;
        } else if (t === TAG_SWITCH) {
          if (pid >= 0) {
            pcOf.set(pid, nextPc);
            dataOf.set(pid, lastData);
          }
          pid = uleb();
          cycle += uleb();
          nextPc = pcOf.get(pid) ?? 0;
          lastData = dataOf.get(pid) ?? 0;
          sched.switchTo(pid, cycle, events);
        } else if (t === TAG_FORK) {
          const parent = uleb();
          sched.fork(parent, uleb());
        } else if (t === TAG_EXEC) {
          const p = uleb();
          const n = uleb();
          if (n > CHUNK - MAX_RECORD) fail(at, `an exec record with a ${n}-byte path`);
          need(n);
          sched.exec(p, Buffer.from(buf.subarray(pos, pos + n)).toString('latin1'));
          pos += n;
        } else if (t === TAG_EXIT) {
          const p = uleb();
          sched.exit(p, uleb());
          pcOf.delete(p);
          dataOf.delete(p);
        } else if (t === TAG_END) {
          const n = uleb();
          if (n !== events) fail(at, `the end record counts ${n} events, the file holds ${events}`);
          if (pos !== len || !eof) {
            if (!eof) fill();
            if (pos !== len) fail(pos, 'data after the end record');
          }
          progress?.(this.size, this.size);
          sched.end(NaN, events);
          return events;
        } else {
          fail(at, `bad record tag 0x${t.toString(16)}`);
        }
      }
    } finally {
      closeSync(fd);
    }
  }
}
