/**
 * Ground truth (docs/kernel.md section 10): every user-mode instruction fetch, load and store with
 * its pid, and every context switch — the oracle regenerated traces are compared with.
 *
 * Writers for the three formats (bin, text, din) share one interface; the binary reader decodes
 * a file back into the canonical event stream. Writers buffer and flush to a ByteSink.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface ByteSink {
  write(bytes: Uint8Array): void;
  close(): void;
}

/** A host file written with synchronous writes (the machine is synchronous). */
export class FileSink implements ByteSink {
  private readonly fd: number;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }
  write(bytes: Uint8Array): void {
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Collects everything in memory (tests). */
export class MemorySink implements ByteSink {
  private readonly chunks: Uint8Array[] = [];
  closed = false;
  write(bytes: Uint8Array): void {
    this.chunks.push(bytes.slice());
  }
  close(): void {
    this.closed = true;
  }
  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}

export type TruthFormat = 'bin' | 'text' | 'din';
export const TRUTH_FORMATS: readonly TruthFormat[] = ['bin', 'text', 'din'];

export const TRUTH_MAGIC = 'EMUTRUTH';
export const TRUTH_VERSION = 1;
export const ARCH_CODES = { mipsel: 1, mips: 2, sparc: 3 } as const;
export type TruthArch = keyof typeof ARCH_CODES;

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

/** The kernel's side of a ground-truth writer (the CPU's side is os/machdep.ts TruthSink). */
export interface TruthWriter {
  ifetch(pc: number): void;
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

interface PidState {
  nextPc: number;
  lastData: number;
}

const LOG2: Record<number, number> = { 1: 0, 2: 1, 4: 2, 8: 3 };

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
  events = 0;

  constructor(private readonly sink: ByteSink, arch: TruthArch) {
    for (let i = 0; i < 8; i++) this.buf[i] = TRUTH_MAGIC.charCodeAt(i);
    this.buf[8] = TRUTH_VERSION;
    this.buf[9] = ARCH_CODES[arch];
    this.pos = 16;
  }

  private flush(): void {
    this.sink.write(this.buf.subarray(0, this.pos));
    this.pos = 0;
  }

  private uleb(v: number): void {
    v = v >>> 0 === v ? v : Math.max(0, Math.floor(v));
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

  private data(base: number, nTag: number, addr: number, size: number): void {
    this.events++;
    this.endRun();
    if (this.pos > BUF - 32) this.flush();
    const l = LOG2[size];
    if (l !== undefined) {
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

export function makeTruthWriter(format: TruthFormat, sink: ByteSink, arch: TruthArch): TruthWriter {
  switch (format) {
    case 'bin':
      return new BinTruthWriter(sink, arch);
    case 'text':
      return new LineTruthWriter(sink, false);
    case 'din':
      return new LineTruthWriter(sink, true);
  }
}

/** Decoded records of a binary ground-truth file. */
export type TruthRecord =
  | { kind: 'I' | 'L' | 'S'; pid: number; addr: number; size: number }
  | { kind: 'switch'; pid: number; cycles: number }
  | { kind: 'fork'; parent: number; child: number }
  | { kind: 'exec'; pid: number; path: string }
  | { kind: 'exit'; pid: number; status: number };

export class TruthFormatError extends Error {
  constructor(file: string, offset: number, message: string) {
    super(`${file}: byte ${offset}: ${message}`);
    this.name = 'TruthFormatError';
  }
}

/**
 * Decodes a binary ground-truth file, calling `cb` for every record in order. Returns the
 * architecture and the number of events; throws TruthFormatError (naming the file and byte
 * offset) for a bad header, a bad tag, a truncated file or a count that disagrees with the
 * trailer.
 */
export function readTruth(bytes: Uint8Array, file: string, cb: (r: TruthRecord) => void): { arch: TruthArch; events: number } {
  if (bytes.length < 16 || Buffer.from(bytes.subarray(0, 8)).toString('latin1') !== TRUTH_MAGIC) {
    throw new TruthFormatError(file, 0, `not a ground-truth file (magic ${TRUTH_MAGIC} expected)`);
  }
  if (bytes[8] !== TRUTH_VERSION) throw new TruthFormatError(file, 8, `unsupported version ${bytes[8]}`);
  const arch = (Object.keys(ARCH_CODES) as TruthArch[]).find((a) => ARCH_CODES[a] === bytes[9]);
  if (!arch) throw new TruthFormatError(file, 9, `unknown architecture code ${bytes[9]}`);
  let pos = 16;
  const need = (n: number): void => {
    if (pos + n > bytes.length) throw new TruthFormatError(file, pos, 'truncated');
  };
  const uleb = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      need(1);
      const b = bytes[pos++]!;
      v += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return v;
      mul *= 0x80;
    }
  };
  const zz = (): number => {
    const u = uleb() >>> 0;
    return (u >>> 1) ^ -(u & 1);
  };
  const states = new Map<number, PidState>();
  let pid = -1;
  let nextPc = 0;
  let lastData = 0;
  let events = 0;
  for (;;) {
    need(1);
    const at = pos;
    const t = bytes[pos++]!;
    if (t < 0x80) {
      for (let i = 0; i <= t; i++) {
        cb({ kind: 'I', pid, addr: nextPc, size: 4 });
        nextPc = (nextPc + 4) >>> 0;
      }
      events += t + 1;
    } else if (t === TAG_JUMP) {
      const addr = (nextPc + zz()) >>> 0;
      cb({ kind: 'I', pid, addr, size: 4 });
      nextPc = (addr + 4) >>> 0;
      events++;
    } else if (t >= TAG_LOAD && t <= TAG_STOREN) {
      let size: number;
      if (t === TAG_LOADN || t === TAG_STOREN) size = uleb();
      else size = 1 << ((t - TAG_LOAD) % 4);
      const addr = (lastData + zz()) >>> 0;
      lastData = addr;
      const store = t === TAG_STOREN || (t >= TAG_STORE && t < TAG_LOADN);
      cb({ kind: store ? 'S' : 'L', pid, addr, size });
      events++;
    } else if (t === TAG_SWITCH) {
      if (pid >= 0) states.set(pid, { nextPc, lastData });
      pid = uleb();
      const cycles = uleb();
      const s = states.get(pid);
      nextPc = s ? s.nextPc : 0;
      lastData = s ? s.lastData : 0;
      cb({ kind: 'switch', pid, cycles });
    } else if (t === TAG_FORK) {
      const parent = uleb();
      cb({ kind: 'fork', parent, child: uleb() });
    } else if (t === TAG_EXEC) {
      const p = uleb();
      const n = uleb();
      need(n);
      cb({ kind: 'exec', pid: p, path: Buffer.from(bytes.subarray(pos, pos + n)).toString('latin1') });
      pos += n;
    } else if (t === TAG_EXIT) {
      const p = uleb();
      cb({ kind: 'exit', pid: p, status: uleb() });
      states.delete(p);
    } else if (t === TAG_END) {
      const n = uleb();
      if (n !== events) throw new TruthFormatError(file, at, `trailer counts ${n} events, the file holds ${events}`);
      if (pos !== bytes.length) throw new TruthFormatError(file, pos, 'data after the end record');
      return { arch, events };
    } else {
      throw new TruthFormatError(file, at, `bad record tag 0x${t.toString(16)}`);
    }
  }
}
