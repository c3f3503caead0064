/**
 * Ground truth (docs/kernel.md section 10): every user-mode instruction fetch, load and store with
 * its pid, and every context switch — the oracle regenerated traces are compared with.
 *
 * Writers for the three formats (bin, text, din) share one interface; they buffer and flush to a
 * ByteSink. The binary format has one reader, TruthReader, used by everyone: readTruth (a record
 * object per event: tests, small files), regeneration's verification cursors (regen/truth_cursor.ts)
 * and the replay source (regen/replay/truth_source.ts, files of any size read in chunks).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ByteSink } from './sink.js';
import { ARCH_CODE, targetOfCode, type TargetName } from './target.js';

export type TruthFormat = 'bin' | 'text' | 'din';
export const TRUTH_FORMATS: readonly TruthFormat[] = ['bin', 'text', 'din'];

export const TRUTH_MAGIC = 'EMUTRUTH';
export const TRUTH_VERSION = 1;

export const TAG_JUMP = 0x80;
export const TAG_LOAD = 0x81; // + log2(size), sizes 1, 2, 4, 8
export const TAG_STORE = 0x85;
export const TAG_LOADN = 0x89; // any other size: uleb(size) first
export const TAG_STOREN = 0x8a;
export const TAG_SWITCH = 0x90;
export const TAG_FORK = 0x91;
export const TAG_EXEC = 0x92;
export const TAG_EXIT = 0x93;
export const TAG_END = 0xff;

/**
 * Kinds of the entries of a batch (TruthWriter.batch; regeneration's event batches number them
 * the same, regen/replay/consumer.ts): a fetch, a load, a store, and a run of `size` fetches from
 * consecutive addresses.
 */
export const BATCH_FETCH = 0;
export const BATCH_LOAD = 1;
export const BATCH_STORE = 2;
export const BATCH_FETCH_RUN = 3;

/** The kernel's side of a ground-truth writer (the CPU's side is os/machdep.ts TruthSink). */
export interface TruthWriter {
  ifetch(pc: number): void;
  /** n fetches from pc, pc + 4, ...: the same bytes as n calls of ifetch. */
  ifetchRun(pc: number, n: number): void;
  /**
   * Entries 0..n-1 of a batch (kind BATCH_*, address, size; a run's size is its count of
   * fetches): the same bytes as the calls of ifetch, ifetchRun, load and store one by one.
   */
  batch(n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void;
  load(addr: number, size: number): void;
  store(addr: number, size: number): void;
  switchTo(pid: number, now: number): void;
  fork(parent: number, child: number): void;
  exec(pid: number, path: string): void;
  exit(pid: number, status: number): void;
  /** Writes the trailer and flushes; the sink is closed. */
  finish(): void;
  /** Events (I, L, S) written so far. */
  readonly events: number;
}

const BUF = 1 << 20;
/**
 * The most bytes one batch entry writes: a data reference ends a run (1), its tag (1), a size
 * byte (1; batch sizes are bytes, uleb up to 2), the address delta (zigzag uleb, 5); a run of
 * at most 255 fetches: the run's end (1), a jump (1 + 5), two bytes of 127.
 */
const ENTRY_MAX = 12;
/** log2 of a data reference's size of 1, 2, 4 or 8 bytes (its LOAD/STORE tag); -1 for the others. */
const LOG2_SIZE = new Int8Array(256).fill(-1);
LOG2_SIZE[1] = 0;
LOG2_SIZE[2] = 1;
LOG2_SIZE[4] = 2;
LOG2_SIZE[8] = 3;

interface PidState {
  nextPc: number;
  lastData: number;
}


/** The compact binary format. */
export class BinTruthWriter implements TruthWriter {
  private readonly buf = new Uint8Array(BUF);
  private pos = 0;
  private run = 0;
  private nextPc = 0;
  private lastData = 0;
  private pid = -1;
  private lastSwitch = 0;
  private readonly states = new Map<number, PidState>();
  private flushed = false;
  events = 0;

  constructor(private readonly sink: ByteSink, arch: TargetName) {
    for (let i = 0; i < 8; i++) this.buf[i] = TRUTH_MAGIC.charCodeAt(i);
    this.buf[8] = TRUTH_VERSION;
    this.buf[9] = ARCH_CODE[arch];
    this.pos = 16;
  }

  private flush(): void {
    this.sink.write(this.buf.subarray(0, this.pos));
    this.pos = 0;
  }

  private uleb(v: number): void {
    if (v >>> 0 === v) {
      // The common case, a 32-bit value: shifts instead of divisions.
      while (v >= 0x80) {
        this.buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      this.buf[this.pos++] = v;
      return;
    }
    v = Math.max(0, Math.floor(v));
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  private zz(d: number): void {
    d |= 0;
    this.uleb(((d << 1) ^ (d >> 31)) >>> 0);
  }

  private endRun(): void {
    if (this.run > 0) {
      this.buf[this.pos++] = this.run - 1;
      this.run = 0;
    }
  }

  ifetch(pc: number): void {
    this.events++;
    if (pc === this.nextPc) {
      this.nextPc = (pc + 4) >>> 0;
      if (++this.run === 128) {
        if (this.pos > BUF - 32) this.flush();
        this.buf[this.pos++] = 127;
        this.run = 0;
      }
      return;
    }
    this.endRun();
    if (this.pos > BUF - 32) this.flush();
    this.buf[this.pos++] = TAG_JUMP;
    this.zz(pc - this.nextPc);
    this.nextPc = (pc + 4) >>> 0;
  }

  ifetchRun(pc: number, n: number): void {
    if (n <= 0) return;
    if (pc !== this.nextPc) {
      this.ifetch(pc);
      pc = (pc + 4) >>> 0;
      n--;
    }
    // The rest continue the run: a byte 127 for every 128 of them, as ifetch writes it.
    this.events += n;
    this.nextPc = (pc + 4 * n) >>> 0;
    let r = this.run + n;
    while (r >= 128) {
      if (this.pos > BUF - 32) this.flush();
      this.buf[this.pos++] = 127;
      r -= 128;
    }
    this.run = r;
  }

  batch(n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
    // ifetch, ifetchRun and data with the writer's state in locals (the loop regeneration's
    // output runs through). An entry writes at most ENTRY_MAX bytes, so the buffer is checked
    // once per stretch of entries that surely fits, not once per entry.
    const buf = this.buf;
    let pos = this.pos;
    let run = this.run;
    let nextPc = this.nextPc;
    let lastData = this.lastData;
    let events = this.events;
    let i = 0;
    for (;;) {
      const end = Math.min(n, i + (((BUF - 32 - pos) / ENTRY_MAX) | 0));
      for (; i < end; i++) {
        const k = kind[i]!;
        let a = addr[i]!;
        let d: number;
        if (k === BATCH_FETCH_RUN || k === BATCH_FETCH) {
          let m = k === BATCH_FETCH ? 1 : size[i]!;
          if (m === 0) continue;
          events += m;
          if (a !== nextPc) {
            // A jump: the run so far ends, the fetch at `a` is the JUMP record itself.
            if (run > 0) buf[pos++] = run - 1;
            run = 0;
            buf[pos++] = TAG_JUMP;
            d = (a - nextPc) | 0;
            d = ((d << 1) ^ (d >> 31)) >>> 0;
            while (d >= 0x80) {
              buf[pos++] = (d & 0x7f) | 0x80;
              d >>>= 7;
            }
            buf[pos++] = d;
            a = (a + 4) >>> 0;
            m--;
          }
          nextPc = (a + 4 * m) >>> 0;
          run += m;
          while (run >= 128) {
            buf[pos++] = 127;
            run -= 128;
          }
          continue;
        }
        events++;
        if (run > 0) buf[pos++] = run - 1;
        run = 0;
        const sz = size[i]!;
        // log2 of the size by table (no comparison first met with the first 8-byte access).
        const l = LOG2_SIZE[sz]!;
        if (l >= 0) buf[pos++] = (k === BATCH_LOAD ? TAG_LOAD : TAG_STORE) + l;
        else {
          buf[pos++] = k === BATCH_LOAD ? TAG_LOADN : TAG_STOREN;
          let v = sz;
          while (v >= 0x80) {
            buf[pos++] = (v & 0x7f) | 0x80;
            v >>>= 7;
          }
          buf[pos++] = v;
        }
        d = (a - lastData) | 0;
        d = ((d << 1) ^ (d >> 31)) >>> 0;
        while (d >= 0x80) {
          buf[pos++] = (d & 0x7f) | 0x80;
          d >>>= 7;
        }
        buf[pos++] = d;
        lastData = a;
      }
      // The buffer is full, or this is the first batch, which flushes at its end what it holds
      // (V8 gives the function its type feedback during that first call): the flush has then
      // run before V8 optimises this loop, and a later one does not deoptimise it.
      if (i === n && this.flushed) break;
      this.pos = pos;
      this.flush();
      this.flushed = true;
      pos = 0;
      if (i === n) break;
    }
    this.pos = pos;
    this.run = run;
    this.nextPc = nextPc;
    this.lastData = lastData;
    this.events = events;
  }

  private data(base: number, nTag: number, addr: number, size: number): void {
    this.events++;
    this.endRun();
    if (this.pos > BUF - 32) this.flush();
    const l = size === 4 ? 2 : size === 1 ? 0 : size === 2 ? 1 : size === 8 ? 3 : -1;
    if (l >= 0) {
      this.buf[this.pos++] = base + l;
    } else {
      this.buf[this.pos++] = nTag;
      this.uleb(size);
    }
    this.zz(addr - this.lastData);
    this.lastData = addr >>> 0;
  }

  load(addr: number, size: number): void {
    this.data(TAG_LOAD, TAG_LOADN, addr, size);
  }

  store(addr: number, size: number): void {
    this.data(TAG_STORE, TAG_STOREN, addr, size);
  }

  switchTo(pid: number, now: number): void {
    this.endRun();
    if (this.pid >= 0) this.states.set(this.pid, { nextPc: this.nextPc, lastData: this.lastData });
    const s = this.states.get(pid);
    this.nextPc = s ? s.nextPc : 0;
    this.lastData = s ? s.lastData : 0;
    this.pid = pid;
    if (this.pos > BUF - 32) this.flush();
    this.buf[this.pos++] = TAG_SWITCH;
    this.uleb(pid);
    this.uleb(now - this.lastSwitch);
    this.lastSwitch = now;
  }

  fork(parent: number, child: number): void {
    this.endRun();
    if (this.pos > BUF - 32) this.flush();
    this.buf[this.pos++] = TAG_FORK;
    this.uleb(parent);
    this.uleb(child);
  }

  exec(pid: number, path: string): void {
    this.endRun();
    const b = Buffer.from(path, 'latin1');
    if (this.pos > BUF - 32 - b.length) this.flush();
    this.buf[this.pos++] = TAG_EXEC;
    this.uleb(pid);
    this.uleb(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  exit(pid: number, status: number): void {
    this.endRun();
    if (this.pos > BUF - 32) this.flush();
    this.buf[this.pos++] = TAG_EXIT;
    this.uleb(pid);
    this.uleb(status >>> 0);
    this.states.delete(pid);
  }

  finish(): void {
    this.endRun();
    if (this.pos > BUF - 32) this.flush();
    this.buf[this.pos++] = TAG_END;
    this.uleb(this.events);
    this.flush();
    this.sink.close();
  }
}

/** A line-oriented writer (text and din formats). */
class LineTruthWriter implements TruthWriter {
  private lines: string[] = [];
  private pid = 0;
  events = 0;

  constructor(private readonly sink: ByteSink, private readonly din: boolean) {}

  private out(s: string): void {
    this.lines.push(s);
    if (this.lines.length >= 8192) this.flush();
  }

  private flush(): void {
    if (this.lines.length === 0) return;
    this.sink.write(Buffer.from(`${this.lines.join('\n')}\n`, 'latin1'));
    this.lines = [];
  }

  ifetch(pc: number): void {
    this.events++;
    this.out(this.din ? `2 ${(pc >>> 0).toString(16)}` : `${this.pid} I ${(pc >>> 0).toString(16).padStart(8, '0')} 4`);
  }
  ifetchRun(pc: number, n: number): void {
    for (let i = 0; i < n; i++) this.ifetch((pc + 4 * i) >>> 0);
  }
  batch(n: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void {
    for (let i = 0; i < n; i++) {
      const k = kind[i]!;
      if (k === BATCH_FETCH_RUN) this.ifetchRun(addr[i]!, size[i]!);
      else if (k === BATCH_FETCH) this.ifetch(addr[i]!);
      else if (k === BATCH_LOAD) this.load(addr[i]!, size[i]!);
      else this.store(addr[i]!, size[i]!);
    }
  }
  load(addr: number, size: number): void {
    this.events++;
    this.out(this.din ? `0 ${(addr >>> 0).toString(16)}` : `${this.pid} L ${(addr >>> 0).toString(16).padStart(8, '0')} ${size}`);
  }
  store(addr: number, size: number): void {
    this.events++;
    this.out(this.din ? `1 ${(addr >>> 0).toString(16)}` : `${this.pid} S ${(addr >>> 0).toString(16).padStart(8, '0')} ${size}`);
  }
  switchTo(pid: number, now: number): void {
    this.pid = pid;
    if (!this.din) this.out(`switch ${pid} at ${now}`);
  }
  fork(parent: number, child: number): void {
    if (!this.din) this.out(`fork ${parent} ${child}`);
  }
  exec(pid: number, path: string): void {
    if (!this.din) this.out(`exec ${pid} ${path}`);
  }
  exit(pid: number, status: number): void {
    if (!this.din) this.out(`exit ${pid} ${status}`);
  }
  finish(): void {
    if (!this.din) this.out(`end ${this.events}`);
    this.flush();
    this.sink.close();
  }
}

export function makeTruthWriter(format: TruthFormat, sink: ByteSink, arch: TargetName): TruthWriter {
  switch (format) {
    case 'bin':
      return new BinTruthWriter(sink, arch);
    case 'text':
      return new LineTruthWriter(sink, false);
    case 'din':
      return new LineTruthWriter(sink, true);
  }
}

/** Decoded records of a binary ground-truth file (readTruth). */
export type TruthRecord =
  | { kind: 'I' | 'L' | 'S'; pid: number; addr: number; size: number }
  | { kind: 'switch'; pid: number; cycles: number }
  | { kind: 'fork'; parent: number; child: number }
  | { kind: 'exec'; pid: number; path: string }
  | { kind: 'exit'; pid: number; status: number };

export class TruthFormatError extends Error {
  /** `event`: the events read before the problem (absent for a bad header). */
  constructor(readonly file: string, readonly offset: number, message: string, readonly event?: number) {
    super(`${file}: byte ${offset}${event === undefined ? '' : ` (event ${event})`}: ${message}`);
    this.name = 'TruthFormatError';
  }
}

/** What TruthReader.next() read; the reader's fields hold its values. */
export const TR_FETCH = 0; // `count` sequential instruction fetches of `pid` from `addr`
export const TR_LOAD = 1; // pid, addr, size
export const TR_STORE = 2; // pid, addr, size
export const TR_SWITCH = 3; // pid now runs; `cycles` since the previous switch (the first: since 0)
export const TR_FORK = 4; // pid forked `child`
export const TR_EXEC = 5; // pid exec'ed `path`
export const TR_EXIT = 6; // pid exited with `status`
export const TR_END = 7; // the trailer: its count matched `events` and nothing follows

/** Bytes read from a file at a time. */
const CHUNK = 4 << 20;
/** Longest record but an exec: tag + two 5-byte ulebs + slack. */
const MAX_RECORD = 32;

/**
 * The reader of the binary format: `next()` decodes one record into the reader's fields and
 * returns its kind, allocating nothing (a run of sequential fetches is one TR_FETCH record). It
 * reads bytes in memory, or a file 4 MiB at a time (TruthReader.open), so a file's size is not
 * limited by memory. Errors are TruthFormatErrors naming the file, the byte offset and the
 * event: a bad header, a bad tag, a fetch or data reference before the first switch record, a
 * truncated file, a trailer that disagrees with the events, data after the trailer.
 */
export class TruthReader {
  readonly arch: TargetName;
  /** The running process: that of the last switch record (-1 before the first one). */
  pid = -1;
  /** TR_FORK: the parent; TR_EXEC, TR_EXIT: the process the record names. */
  rpid = 0;
  addr = 0;
  /** TR_FETCH: fetches in the record. */
  count = 0;
  size = 0;
  cycles = 0;
  child = 0;
  status = 0;
  path = '';
  /** Fetches, loads and stores read so far (the current record's included). */
  events = 0;
  /** File offset of the current record's tag. */
  at = 0;

  private buf: Uint8Array;
  /** File offset of buf[0]; valid bytes are buf[0, len). */
  private base = 0;
  private len: number;
  private pos = 16;
  private eof: boolean;
  private nextPc = 0;
  private lastData = 0;
  private readonly pcOf = new Map<number, number>();
  private readonly dataOf = new Map<number, number>();
  private done = false;

  /** A reader of a file's bytes in memory. */
  constructor(bytes: Uint8Array, readonly file: string, private fd = -1) {
    this.buf = bytes;
    this.len = bytes.length;
    this.eof = fd < 0;
    if (bytes.length < 16 || Buffer.from(bytes.subarray(0, 8)).toString('latin1') !== TRUTH_MAGIC) {
      throw new TruthFormatError(file, 0, `not a ground-truth file (magic ${TRUTH_MAGIC} expected)`);
    }
    if (bytes[8] !== TRUTH_VERSION) throw new TruthFormatError(file, 8, `unsupported ground-truth version ${bytes[8]}`);
    const arch = targetOfCode(bytes[9]!);
    if (!arch) throw new TruthFormatError(file, 9, `unknown architecture code ${bytes[9]}`);
    this.arch = arch;
    if (fd >= 0) {
      this.buf = new Uint8Array(CHUNK);
      this.base = 16;
      this.len = 0;
      this.pos = 0;
      this.fill();
    }
  }

  /** A reader of a file, read in chunks; close() it (it closes itself at the end and on errors). */
  static open(file: string): TruthReader {
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(16);
      const n = readSync(fd, head, 0, 16, 0);
      return new TruthReader(head.subarray(0, n), file, fd);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** The file's size in bytes. */
  get fileSize(): number {
    return this.fd >= 0 ? fstatSync(this.fd).size : this.buf.length;
  }

  /** File offset just past what has been read. */
  get offset(): number {
    return this.base + this.pos;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  /** Keeps the unread tail, appends as much of the file as fits. */
  private fill(): void {
    const buf = this.buf;
    buf.copyWithin(0, this.pos, this.len);
    this.base += this.pos;
    this.len -= this.pos;
    this.pos = 0;
    while (this.len < buf.length && !this.eof) {
      const n = readSync(this.fd, buf, this.len, buf.length - this.len, this.base + this.len);
      if (n === 0) this.eof = true;
      this.len += n;
    }
  }

  private fail(pos: number, message: string): never {
    this.close();
    throw new TruthFormatError(this.file, this.base + pos, message, this.events);
  }

  // Varints are read with a bounds check per byte: a record is in the buffer unless the file ends.
  private uleb(): number {
    const buf = this.buf;
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.len) this.fail(this.pos, 'truncated inside a number');
      const b = buf[this.pos++]!;
      v += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return v;
      mul *= 0x80;
    }
    return this.fail(this.pos, 'a number longer than 10 bytes');
  }

  private zz(): number {
    const u = this.uleb() >>> 0;
    return (u >>> 1) ^ -(u & 1);
  }

  /** Decodes the next record; after TR_END it returns TR_END again. */
  next(): number {
    // Fetch runs and sized data references here (small enough to be inlined into the caller's
    // loop); jumps, odd sizes and process records in record().
    if (this.len - this.pos < MAX_RECORD && !this.eof) this.fill();
    const pos = this.pos;
    if (pos >= this.len || this.pid < 0 || this.done) return this.record();
    const t = this.buf[pos]!;
    this.at = this.base + pos;
    if (t < 0x80) {
      this.pos = pos + 1;
      this.addr = this.nextPc;
      this.count = t + 1;
      this.nextPc = (this.nextPc + 4 * (t + 1)) >>> 0;
      this.events += t + 1;
      return TR_FETCH;
    }
    if (t >= TAG_LOAD && t < TAG_LOADN) {
      this.pos = pos + 1;
      this.size = 1 << ((t - TAG_LOAD) & 3);
      const a = (this.lastData + this.zz()) >>> 0;
      this.lastData = a;
      this.addr = a;
      this.events++;
      return t >= TAG_STORE ? TR_STORE : TR_LOAD;
    }
    return this.record();
  }

  private record(): number {
    if (this.done) return TR_END;
    let pos = this.pos;
    if (pos >= this.len) this.fail(pos, 'truncated (no end record)');
    const at = pos;
    this.at = this.base + at;
    const t = this.buf[pos++]!;
    this.pos = pos;
    if (t < 0x80) this.fail(at, 'an instruction fetch before the first switch record');
    if (t === TAG_JUMP) {
      if (this.pid < 0) this.fail(at, 'an instruction fetch before the first switch record');
      const pc = (this.nextPc + this.zz()) >>> 0;
      this.addr = pc;
      this.count = 1;
      this.nextPc = (pc + 4) >>> 0;
      this.events++;
      return TR_FETCH;
    }
    if (t >= TAG_LOAD && t <= TAG_STOREN) {
      if (this.pid < 0) this.fail(at, 'a data reference before the first switch record');
      this.size = t >= TAG_LOADN ? this.uleb() : 1 << ((t - TAG_LOAD) & 3);
      const a = (this.lastData + this.zz()) >>> 0;
      this.lastData = a;
      this.addr = a;
      this.events++;
      return t === TAG_STOREN || (t >= TAG_STORE && t < TAG_LOADN) ? TR_STORE : TR_LOAD;
    }
    switch (t) {
      case TAG_SWITCH:
        if (this.pid >= 0) {
          this.pcOf.set(this.pid, this.nextPc);
          this.dataOf.set(this.pid, this.lastData);
        }
        this.pid = this.uleb();
        this.cycles = this.uleb();
        this.nextPc = this.pcOf.get(this.pid) ?? 0;
        this.lastData = this.dataOf.get(this.pid) ?? 0;
        return TR_SWITCH;
      case TAG_FORK:
        this.rpid = this.uleb();
        this.child = this.uleb();
        return TR_FORK;
      case TAG_EXEC: {
        this.rpid = this.uleb();
        const n = this.uleb();
        if (this.pos + n > this.len && !this.eof) {
          if (n > CHUNK - MAX_RECORD) this.fail(at, `an exec record with a ${n}-byte path`);
          this.fill();
        }
        if (this.pos + n > this.len) this.fail(this.pos, 'truncated (no end record)');
        this.path = Buffer.from(this.buf.subarray(this.pos, this.pos + n)).toString('latin1');
        this.pos += n;
        return TR_EXEC;
      }
      case TAG_EXIT:
        this.rpid = this.uleb();
        this.status = this.uleb();
        this.pcOf.delete(this.rpid);
        this.dataOf.delete(this.rpid);
        return TR_EXIT;
      case TAG_END: {
        const n = this.uleb();
        if (n !== this.events) this.fail(at, `the end record counts ${n} events, the file holds ${this.events}`);
        if (this.pos !== this.len || !this.eof) {
          if (!this.eof) this.fill();
          if (this.pos !== this.len) this.fail(this.pos, 'data after the end record');
        }
        this.done = true;
        this.close();
        return TR_END;
      }
      default:
        return this.fail(at, `bad record tag 0x${t.toString(16)}`);
    }
  }
}

/**
 * Decodes a binary ground-truth file, calling `cb` for every record in order (one object per
 * event: for tests and small files). Returns the architecture and the number of events.
 */
export function readTruth(bytes: Uint8Array, file: string, cb: (r: TruthRecord) => void): { arch: TargetName; events: number } {
  const r = new TruthReader(bytes, file);
  for (;;) {
    switch (r.next()) {
      case TR_FETCH:
        for (let i = 0, a = r.addr; i < r.count; i++, a = (a + 4) >>> 0) cb({ kind: 'I', pid: r.pid, addr: a, size: 4 });
        break;
      case TR_LOAD: cb({ kind: 'L', pid: r.pid, addr: r.addr, size: r.size }); break;
      case TR_STORE: cb({ kind: 'S', pid: r.pid, addr: r.addr, size: r.size }); break;
      case TR_SWITCH: cb({ kind: 'switch', pid: r.pid, cycles: r.cycles }); break;
      case TR_FORK: cb({ kind: 'fork', parent: r.rpid, child: r.child }); break;
      case TR_EXEC: cb({ kind: 'exec', pid: r.rpid, path: r.path }); break;
      case TR_EXIT: cb({ kind: 'exit', pid: r.rpid, status: r.status }); break;
      default: return { arch: r.arch, events: r.events };
    }
  }
}
