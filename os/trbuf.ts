/**
 * /dev/trbuf, the trace buffer device (mazieres-smith-1994 3.2; DESIGN.md section 4), in its
 * single-process form (issue 6): enough for an instrumented program to record its own trace. The
 * multi-tasking device of issue 7 extends this file (shared pointer trbuf_g6 saved and restored at
 * every kernel entry and exit, the schedule buffer written by cpu_switch, trbuf_block/unblock and
 * the bdump consumer with BIOCSMAP).
 *
 * What it does now:
 *   - open reserves the buffer: TRBUF_SIZE bytes of device memory (a VmObject) that will sit
 *     right below 0x20000000, the guard page at 0x20000000 staying unmapped;
 *   - ioctl(fd, BIOCMAP) maps the buffer into the calling process (shared across fork), marks it
 *     PRTRC_TRC and sets its pointer register (MIPS k0, SPARC %g6) to the first free byte;
 *   - the kernel owns the pointer of a traced process (3.2.2): every kernel entry saves the
 *     register into trbuf_g6, every return to user mode restores it from there — so neither a
 *     drain nor sigreturn (which reloads registers from a sigcontext saved before the handler
 *     wrote its bytes) can move it back;
 *   - on every kernel entry of a traced process, the interrupted PC is rolled back to the start of
 *     an instrumentation sequence it lies in (tracer/rollback.ts), and the instructions undone
 *     are remembered so the process's instruction count stays the count of its instrumented
 *     program's path;
 *   - a store into the guard page drains the buffer [base, pointer) into the host-side sink,
 *     resets the pointer and lets the (rolled-back) sequence execute again;
 *   - markers go to the sink with the stream position (bytes drained + pointer - base) and the
 *     process's instruction count: START at BIOCMAP, SIGNAL before a handler is entered,
 *     SIGRETURN when sigreturn resumes the interrupted context, EXIT (after the last drain).
 *
 * Marker stream (the "schedule" file): magic EMUSCHED, version 1, then records
 * `tag uleb(pid) uleb(pos) uleb(icount) ...`:
 *   0x01 START     (BIOCMAP done)
 *   0x02 SIGNAL    uleb(sig) uleb(handler) uleb(pc)   — pc: the interrupted (resume) address
 *   0x03 SIGRETURN
 *   0x04 EXIT      uleb(wait status)
 */
import { sequenceStart } from '../tracer/rollback.js';
import { ENODEV, ENOMEM, ENOTTY } from './errno.js';
import type { Cdevsw } from './dev.js';
import { IOC_VOID } from './dev.js';
import type { Kernel } from './kernel.js';
import { T_SYSCALL, VM_PROT_READ, VM_PROT_WRITE, type TrapKind } from './machdep.js';
import { PAGE_SIZE, TRBUF_END } from './param.js';
import type { KGen, Proc } from './proc.js';
import { syscallTable } from './syscalltab.js';
import { copyin, fuword } from './vm/copyio.js';
import { VM_INHERIT_SHARE, VmMapEntry } from './vm/vm_map.js';
import { VmObject } from './vm/vm_object.js';

export const TRBUF_PATH = '/dev/trbuf';
/** Character-device major number of /dev/trbuf (after 4.4BSD's mem 2; 20 is free in emu). */
export const TRBUF_MAJOR = 20;
export const TRBUF_SIZE_DEFAULT = 1 << 20;
/** <sys/trbuf.h>: ioctl requests (ioccom encoding, docs/abi.md "ioctl"). */
export const BIOCMAP = (IOC_VOID | ('B'.charCodeAt(0) << 8) | 1) >>> 0;
/** The consumer's request (issue 7): _IOWR('B', 2, struct trbuf_info), 16 bytes. */
export const BIOCSMAP = (0xc0000000 | (16 << 16) | ('B'.charCodeAt(0) << 8) | 2) >>> 0;
/** p_trace_stat bits (mazieres-smith-1994 3.2.1). */
export const PRTRC_TRC = 1;
export const PRTRC_ANA = 2;
export const PRTRC_WAK = 4;

export const MARK_START = 1;
export const MARK_SIGNAL = 2;
export const MARK_SIGRETURN = 3;
export const MARK_EXIT = 4;
export const SCHED_MAGIC = 'EMUSCHED';
export const SCHED_VERSION = 1;

export type Marker =
  | { kind: 'start'; pid: number; pos: number; icount: number }
  | { kind: 'signal'; pid: number; pos: number; icount: number; sig: number; handler: number; pc: number }
  | { kind: 'sigreturn'; pid: number; pos: number; icount: number }
  | { kind: 'exit'; pid: number; pos: number; icount: number; status: number };

/** Where drained trace bytes and markers go (the host side: files of `emu run`, tests). */
export interface TrbufSink {
  trace(bytes: Uint8Array): void;
  marker(m: Marker): void;
}

function uleb(out: number[], v: number): void {
  v = Math.max(0, Math.floor(v));
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** Binary encoding of markers (the schedule stream); the header first. */
export function encodeMarkers(ms: readonly Marker[]): Uint8Array {
  const out: number[] = [...Buffer.from(SCHED_MAGIC, 'latin1'), SCHED_VERSION];
  for (const m of ms) {
    out.push({ start: MARK_START, signal: MARK_SIGNAL, sigreturn: MARK_SIGRETURN, exit: MARK_EXIT }[m.kind]);
    uleb(out, m.pid);
    uleb(out, m.pos);
    uleb(out, m.icount);
    if (m.kind === 'signal') {
      uleb(out, m.sig);
      uleb(out, m.handler >>> 0);
      uleb(out, m.pc >>> 0);
    } else if (m.kind === 'exit') uleb(out, m.status >>> 0);
  }
  return Uint8Array.from(out);
}

/** Decodes a schedule stream; errors name the file and the byte offset. */
export function decodeMarkers(bytes: Uint8Array, file: string): Marker[] {
  const magic = Buffer.from(bytes.subarray(0, 8)).toString('latin1');
  if (bytes.length < 9 || magic !== SCHED_MAGIC) throw new Error(`${file}: not a schedule stream (magic ${SCHED_MAGIC} expected)`);
  if (bytes[8] !== SCHED_VERSION) throw new Error(`${file}: byte 8: unsupported schedule version ${bytes[8]}`);
  let pos = 9;
  const rd = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (pos >= bytes.length) throw new Error(`${file}: byte ${pos}: truncated marker`);
      const b = bytes[pos++]!;
      v += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return v;
      mul *= 0x80;
    }
  };
  const out: Marker[] = [];
  while (pos < bytes.length) {
    const at = pos;
    const tag = bytes[pos++]!;
    const pid = rd();
    const p = rd();
    const icount = rd();
    switch (tag) {
      case MARK_START: out.push({ kind: 'start', pid, pos: p, icount }); break;
      case MARK_SIGNAL: {
        const sig = rd();
        const handler = rd();
        out.push({ kind: 'signal', pid, pos: p, icount, sig, handler, pc: rd() });
        break;
      }
      case MARK_SIGRETURN: out.push({ kind: 'sigreturn', pid, pos: p, icount }); break;
      case MARK_EXIT: out.push({ kind: 'exit', pid, pos: p, icount, status: rd() }); break;
      default: throw new Error(`${file}: byte ${at}: bad marker tag 0x${tag.toString(16)}`);
    }
  }
  return out;
}

/** Collects everything in memory (tests, `emu run` writes the two streams at the end). */
export class MemoryTrbufSink implements TrbufSink {
  readonly chunks: Uint8Array[] = [];
  readonly markers: Marker[] = [];
  trace(bytes: Uint8Array): void {
    this.chunks.push(bytes.slice());
  }
  marker(m: Marker): void {
    this.markers.push(m);
  }
  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}

const SYS_sigreturn = syscallTable().find((e) => e.name === 'sigreturn')!.number;

export class TrbufDevice {
  private obj: VmObject | null = null;
  /** Bytes delivered to the sink so far. */
  drained = 0;
  /** Per traced process: instructions retired and then undone by rollback. */
  private readonly undone = new Map<Proc, number>();
  private readonly inSigreturn = new Set<Proc>();
  readonly base: number;
  /** The shared trace pointer while the kernel runs (4.4BSD-trbuf's trbuf_g6). */
  trbuf_g6: number;
  private readonly ptrIndex: number;

  constructor(readonly k: Kernel, readonly sink: TrbufSink, readonly size = k.trbufSize) {
    if (size % PAGE_SIZE !== 0 || size <= 0) throw new Error(`trace buffer size ${size} is not a positive multiple of the page size`);
    this.base = TRBUF_END - size;
    this.trbuf_g6 = this.base;
    this.ptrIndex = k.md.arch === 'mips' ? 26 : 6;
  }

  /** Registers /dev/trbuf and the kernel hooks; call before Kernel.boot. */
  static attach(k: Kernel, sink: TrbufSink): TrbufDevice {
    const d = new TrbufDevice(k, sink);
    k.devs.register(TRBUF_MAJOR, d.cdevsw(), [['trbuf', 0]]);
    k.addHook({
      kernEnter: (p, kind) => d.kernEnter(p, kind),
      userRet: (p) => d.userRet(p),
      fault: (p, va, ftype) => d.fault(p, va, ftype),
      signal: (p, sig, handler, pc) => d.signal(p, sig, handler, pc),
      exit: (p) => d.exit(p),
    });
    return d;
  }

  private get regs(): Int32Array {
    return (this.k.md as unknown as { cpu: { r: Int32Array } }).cpu.r;
  }
  private get ptr(): number {
    return this.regs[this.ptrIndex]! >>> 0;
  }
  private set ptr(v: number) {
    this.regs[this.ptrIndex] = v | 0;
  }
  private traced(p: Proc): boolean {
    return (p.p_trace_stat & PRTRC_TRC) !== 0;
  }
  /** Stream position: bytes drained plus bytes in the buffer. */
  private pos(): number {
    return this.drained + (this.trbuf_g6 - this.base);
  }
  private icount(p: Proc): number {
    return p.stats.insns - (this.undone.get(p) ?? 0);
  }

  private cdevsw(): Cdevsw {
    const d = this;
    return {
      name: 'trbuf',
      open(k): number {
        if (!d.obj) {
          d.obj = VmObject.create(k.pages, 'trbuf', null, d.size);
          if (!d.obj) return ENOMEM;
          d.obj.reference();
        }
        return 0;
      },
      // The schedule stream is read by the consumer of issue 7; the single-process device keeps
      // it on the host side, so a read finds nothing.
      *read(): KGen<number> {
        return 0;
      },
      *write(): KGen<number> {
        return ENODEV;
      },
      ioctl(_k, p, _minor, cmd): number {
        if (cmd === BIOCMAP) return d.map(p);
        return ENOTTY;
      },
    };
  }

  /** BIOCMAP: map the buffer into p, mark it traced, point its pointer register at the buffer. */
  private map(p: Proc): number {
    const vs = p.p_vmspace!;
    if (!vs.lookup(this.base)) {
      // The buffer's part of the reserved range becomes the mapping; the guard page stays reserved.
      const i = vs.reserved.findIndex(([s, t]) => s <= this.base && t >= TRBUF_END);
      if (i >= 0) {
        const [s, t] = vs.reserved[i]!;
        const keep: [number, number][] = [];
        if (s < this.base) keep.push([s, this.base]);
        if (t > TRBUF_END) keep.push([TRBUF_END, t]);
        vs.reserved.splice(i, 1, ...keep);
      }
      const e = new VmMapEntry(this.base, TRBUF_END, VM_PROT_READ | VM_PROT_WRITE, VM_INHERIT_SHARE, 'device', this.obj, 0, this.size / PAGE_SIZE, true);
      if (!vs.insert(e)) return ENOMEM;
    }
    p.p_trace_stat |= PRTRC_TRC;
    this.sink.marker({ kind: 'start', pid: p.p_pid, pos: this.pos(), icount: this.icount(p) });
    return 0;
  }

  /** Every kernel entry: rollback of an interrupted sequence (mazieres-smith-1994 3.2.2). */
  private kernEnter(p: Proc, kind: TrapKind): void {
    if (!this.traced(p)) return;
    this.trbuf_g6 = this.ptr;
    const md = this.k.md;
    const pc = md.getpc(p);
    const vs = p.p_vmspace!;
    const r = sequenceStart(md.arch, pc, (va) => fuword(vs, va));
    if (r.pc !== pc) {
      md.setpc(p, r.pc);
      this.undone.set(p, (this.undone.get(p) ?? 0) + r.undone);
    }
    if (kind === T_SYSCALL && md.syscallCode(p) === SYS_sigreturn) this.inSigreturn.add(p);
  }

  private userRet(p: Proc): void {
    if (!this.traced(p)) return;
    this.ptr = this.trbuf_g6;
    if (!this.inSigreturn.delete(p)) return;
    this.sink.marker({ kind: 'sigreturn', pid: p.p_pid, pos: this.pos(), icount: this.icount(p) });
  }

  private drain(p: Proc): void {
    const n = this.trbuf_g6 - this.base;
    if (n <= 0) return;
    const bytes = copyin(p.p_vmspace!, this.base, n);
    if (typeof bytes === 'number') throw new Error(`trbuf: cannot read the trace buffer of pid ${p.p_pid}`);
    this.sink.trace(bytes);
    this.drained += n;
    this.trbuf_g6 = this.base;
  }

  /** A store into the guard page: the buffer is full. */
  private fault(p: Proc, va: number, ftype: number): KGen<void> | null {
    if (!this.traced(p) || va < TRBUF_END || va >= TRBUF_END + PAGE_SIZE || (ftype & VM_PROT_WRITE) === 0) return null;
    this.drain(p);
    return (function* (): KGen<void> {})();
  }

  private signal(p: Proc, sig: number, handler: number, pc: number): void {
    if (!this.traced(p)) return;
    this.sink.marker({ kind: 'signal', pid: p.p_pid, pos: this.pos(), icount: this.icount(p), sig, handler, pc });
  }

  private exit(p: Proc): void {
    if (!this.traced(p)) return;
    this.drain(p);
    this.sink.marker({ kind: 'exit', pid: p.p_pid, pos: this.drained, icount: this.icount(p), status: p.p_xstat });
    this.undone.delete(p);
  }
}
