/**
 * The schedule stream of the multi-tasking trace (mazieres-smith-1994 3.2.2; docs/trace-bundle.md
 * section 3): the records the kernel writes into its schedule buffer, the records the consumer adds
 * (OVERFLOW, END), and their decoding into markers that carry absolute positions in the trace
 * stream — what regeneration needs.
 *
 * Two encodings exist:
 *   - version 2, the stream of a traced machine: records carry the pointer register's value
 *     (`ptr`), and the consumer's OVERFLOW records say where the buffer was drained, so positions
 *     are computed by the reader (the paper's design: the kernel knows nothing of the consumer's
 *     files);
 *   - version 1, the markers of a single process run with the kernel itself draining the buffer
 *     (the tracer's tests and benchmarks, bin/harness.ts): records carry absolute positions directly.
 * decodeMarkers reads both. The kernel writes version 2 (os/trbuf.ts), encodeMarkers
 * version 1; regeneration and the bundle reader decode them here.
 */
import { ARCH_CODE, targetOfCode, type TargetName } from './target.js';

export const SCHED_MAGIC = 'EMUSCHED';
export const SCHED_VERSION = 1;
export const SCHED_VERSION_STREAM = 2;

export const MARK_START = 0x01;
export const MARK_SIGNAL = 0x02;
export const MARK_SIGRETURN = 0x03;
export const MARK_EXIT = 0x04;
export const MARK_SWITCH = 0x05;
export const MARK_FORK = 0x06;
export const MARK_EXEC = 0x07;
export const REC_HEADER = 0x10;
export const REC_OVERFLOW = 0x20;
export const REC_END = 0x21;

/** A process event located in the trace stream: `pos` is the absolute byte position. */
interface MarkerBase {
  pid: number;
  pos: number;
  /** Instructions the process has retired, less those undone by rollback. */
  icount: number;
  /** Virtual time in cycles (stream version 2; absent in version 1). */
  time?: number;
}

export type Marker =
  | (MarkerBase & { kind: 'start'; hash?: string })
  | (MarkerBase & { kind: 'signal'; sig: number; handler: number; pc: number })
  | (MarkerBase & { kind: 'sigreturn' })
  | (MarkerBase & { kind: 'exit'; status: number; pc?: number })
  | (MarkerBase & { kind: 'switch'; pc: number })
  | (MarkerBase & { kind: 'fork'; child: number })
  | (MarkerBase & { kind: 'exec' });

export type MarkerKind = Marker['kind'];

const TAGS: Record<MarkerKind, number> = {
  start: MARK_START, signal: MARK_SIGNAL, sigreturn: MARK_SIGRETURN, exit: MARK_EXIT, switch: MARK_SWITCH, fork: MARK_FORK, exec: MARK_EXEC,
};

function uleb(out: number[], v: number): void {
  v = Math.max(0, Math.floor(v));
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function hexToBytes(h: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < 64; i += 2) out.push(parseInt(h.slice(i, i + 2), 16) || 0);
  return out;
}

function extras(out: number[], m: Marker): void {
  switch (m.kind) {
    case 'signal':
      uleb(out, m.sig);
      uleb(out, m.handler >>> 0);
      uleb(out, m.pc >>> 0);
      break;
    case 'exit':
      uleb(out, m.status >>> 0);
      break;
    case 'switch':
      uleb(out, m.pc >>> 0);
      break;
    case 'fork':
      uleb(out, m.child);
      break;
    case 'start':
    case 'sigreturn':
    case 'exec':
      break;
  }
}

/** Version 1 encoding (absolute positions), header first. */
export function encodeMarkers(ms: readonly Marker[]): Uint8Array {
  const out: number[] = [...Buffer.from(SCHED_MAGIC, 'latin1'), SCHED_VERSION];
  for (const m of ms) {
    out.push(TAGS[m.kind]);
    uleb(out, m.pid);
    uleb(out, m.pos);
    uleb(out, m.icount);
    extras(out, m);
  }
  return Uint8Array.from(out);
}

/** Version 2: the header a kernel writes first. */
export function encodeHeader(arch: TargetName, base: number, size: number): Uint8Array {
  const out: number[] = [...Buffer.from(SCHED_MAGIC, 'latin1'), SCHED_VERSION_STREAM, REC_HEADER];
  uleb(out, ARCH_CODE[arch]);
  uleb(out, base >>> 0);
  uleb(out, size);
  return Uint8Array.from(out);
}

/**
 * Version 2: one kernel record. `ptr` is the pointer register's value; `hash` (START) the sha256
 * of the executable, 64 hex digits.
 */
export function encodeRecord(m: Marker, ptr: number, time: number): number[] {
  const out: number[] = [TAGS[m.kind]];
  uleb(out, m.pid);
  uleb(out, ptr >>> 0);
  uleb(out, m.icount);
  uleb(out, time);
  if (m.kind === 'start') out.push(...hexToBytes(m.hash ?? ''));
  else extras(out, m);
  if (m.kind === 'exit') uleb(out, (m.pc ?? 0) >>> 0);
  return out;
}

/** Version 2: the consumer's records. */
export function encodeOverflow(ptr: number): Uint8Array {
  const out = [REC_OVERFLOW];
  uleb(out, ptr >>> 0);
  return Uint8Array.from(out);
}
export function encodeEnd(bytes: number): Uint8Array {
  const out = [REC_END];
  uleb(out, bytes);
  return Uint8Array.from(out);
}

export class SchedError extends Error {
  constructor(readonly file: string, readonly offset: number, msg: string) {
    super(offset < 0 ? `${file}: ${msg}` : `${file}: byte ${offset}: ${msg}`);
    this.name = 'SchedError';
  }
}

/** A decoded schedule stream. */
export interface DecodedSchedule {
  version: number;
  /** Version 2: the buffer the pointers point into. */
  header: { arch: TargetName; base: number; size: number } | null;
  markers: Marker[];
  /** Byte offset of each marker's record in the file (for messages). */
  offsets: number[];
  /** Drains recorded by the consumer (OVERFLOW records), with the bytes each delivered. */
  drains: number[];
  /** The END record's total of trace bytes; null when the stream has none (a truncated stream). */
  end: number | null;
  /** Offset just past the last complete record. */
  length: number;
}

/**
 * Decodes a schedule stream of either version. Errors name the file and the byte offset: a bad
 * magic or version, a bad tag, a record cut short, a pointer outside the buffer, anything after
 * the END record. A stream without an END record decodes (end = null): the caller decides.
 */
export function decodeSchedule(bytes: Uint8Array, file: string): DecodedSchedule {
  const magic = Buffer.from(bytes.subarray(0, 8)).toString('latin1');
  if (bytes.length < 9 || magic !== SCHED_MAGIC) throw new SchedError(file, -1, `not a schedule stream (magic ${SCHED_MAGIC} expected)`);
  const version = bytes[8]!;
  if (version !== SCHED_VERSION && version !== SCHED_VERSION_STREAM) throw new SchedError(file, 8, `unsupported schedule version ${version}`);
  let pos = 9;
  let at = 9;
  const rd = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (pos >= bytes.length) throw new SchedError(file, at, 'truncated marker');
      const b = bytes[pos++]!;
      v += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return v;
      mul *= 0x80;
      if (mul > 2 ** 56) throw new SchedError(file, at, 'number too long');
    }
  };
  const out: DecodedSchedule = { version, header: null, markers: [], offsets: [], drains: [], end: null, length: 9 };
  /** Version 2: bytes drained before the current buffer contents. */
  let drained = 0;
  const position = (ptr: number): number => {
    if (version === SCHED_VERSION) return ptr;
    const h = out.header;
    if (!h) throw new SchedError(file, at, 'record before the HEADER');
    if (ptr < h.base || ptr > h.base + h.size) throw new SchedError(file, at, `pointer 0x${ptr.toString(16)} outside the buffer [0x${h.base.toString(16)}, 0x${(h.base + h.size).toString(16)}]`);
    return drained + (ptr - h.base);
  };
  while (pos < bytes.length) {
    at = pos;
    if (out.end !== null) throw new SchedError(file, at, 'data after the END record');
    const tag = bytes[pos++]!;
    if (version === SCHED_VERSION_STREAM && (tag === REC_HEADER || tag === REC_OVERFLOW || tag === REC_END)) {
      if (tag === REC_HEADER) {
        if (out.header) throw new SchedError(file, at, 'a second HEADER');
        const code = rd();
        const arch = targetOfCode(code);
        if (!arch) throw new SchedError(file, at, `unknown architecture code ${code}`);
        const base = rd();
        out.header = { arch, base, size: rd() };
      } else if (tag === REC_OVERFLOW) {
        const n = position(rd()) - drained;
        out.drains.push(n);
        drained += n;
      } else {
        out.end = rd();
        if (out.end !== drained) throw new SchedError(file, at, `END counts ${out.end} trace bytes, the OVERFLOW records ${drained}`);
      }
      out.length = pos;
      continue;
    }
    const pid = rd();
    const p = position(rd());
    const icount = rd();
    const base: MarkerBase = { pid, pos: p, icount };
    if (version === SCHED_VERSION_STREAM) base.time = rd();
    let m: Marker;
    switch (tag) {
      case MARK_START: {
        if (version === SCHED_VERSION_STREAM) {
          if (pos + 32 > bytes.length) throw new SchedError(file, at, 'truncated marker');
          m = { kind: 'start', ...base, hash: Buffer.from(bytes.subarray(pos, pos + 32)).toString('hex') };
          pos += 32;
        } else m = { kind: 'start', ...base };
        break;
      }
      case MARK_SIGNAL: {
        const sig = rd();
        const handler = rd();
        m = { kind: 'signal', ...base, sig, handler, pc: rd() };
        break;
      }
      case MARK_SIGRETURN: m = { kind: 'sigreturn', ...base }; break;
      case MARK_EXIT: {
        const status = rd();
        m = version === SCHED_VERSION_STREAM ? { kind: 'exit', ...base, status, pc: rd() } : { kind: 'exit', ...base, status };
        break;
      }
      case MARK_SWITCH: m = { kind: 'switch', ...base, pc: rd() }; break;
      case MARK_FORK: m = { kind: 'fork', ...base, child: rd() }; break;
      case MARK_EXEC: m = { kind: 'exec', ...base }; break;
      default: throw new SchedError(file, at, `bad record tag 0x${tag.toString(16)}`);
    }
    out.markers.push(m);
    out.offsets.push(at);
    out.length = pos;
  }
  if (version === SCHED_VERSION_STREAM && !out.header) throw new SchedError(file, 9, 'no HEADER record');
  return out;
}

/** The markers of a schedule stream of either version (errors name the file and byte offset). */
export function decodeMarkers(bytes: Uint8Array, file: string): Marker[] {
  return decodeSchedule(bytes, file).markers;
}
