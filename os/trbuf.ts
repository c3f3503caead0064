/**
 * /dev/trbuf, the multi-tasking trace buffer device (mazieres-smith-1994 section 3.2; DESIGN.md
 * section 4; docs/trace-bundle.md section 4).
 *
 *   - open reserves the buffer: TRBUF_SIZE bytes of device memory (a VmObject) right below
 *     0x20000000, the guard page at 0x20000000 staying unmapped; trbuf_g6 starts at its base.
 *   - ioctl(fd, BIOCMAP) maps it into a traced process (PRTRC_TRC) — and so does trbufmap(2)
 *     (os/sys_trbuf.ts), open and BIOCMAP in one call leaving no descriptor, which is what the
 *     instrumented program's prologue calls; ioctl(fd, BIOCSMAP, &info) maps it into the consumer
 *     (PRTRC_ANA). Both share ONE pointer: every kernel entry from such a
 *     process saves its pointer register (MIPS k0, SPARC %g6) into trbuf_g6 and every return to
 *     user mode restores it from there (3.2.2) — so neither a switch, nor a drain, nor sigreturn
 *     (which reloads registers saved before a handler wrote its bytes) can move it back.
 *   - every kernel entry of a traced process rolls an interrupted instrumentation sequence back
 *     to its start (os/trbuf_rollback.ts; the instructions undone are subtracted from the process's
 *     instruction count), and after an interrupt that did so the next run of the process gets at
 *     least MIN_RUN cycles, so that a quantum shorter than a sequence cannot livelock it.
 *   - the schedule buffer (kernel memory, SchedBuffer below; records: format/sched.ts) receives a SWITCH record at the end
 *     of cpu_switch when the process chosen is traced and is not the last traced process
 *     scheduled, or an overflow happened since; and START, FORK, EXEC, SIGNAL, SIGRETURN, EXIT
 *     records. The consumer reads it with read(2). Nearly full at a return to user mode: T_SBOF.
 *   - a traced store into the guard page (the buffer is full) → trbuf_block (os/trbuf_block.ts);
 *     the consumer drains and resets the pointer, then BIOCUNBLK; the store re-executes.
 *
 *   - a signal delivered to a traced process enters its trampoline's translation: the program
 *     keeps original code addresses (tracer/rewrite.ts), so the trampoline address sigaction
 *     passed is the original one; the word at XLAT_BASE + address (the instrumented executable's
 *     translation table) is where its instrumented copy starts.
 *
 * Without a guest consumer the device can drain into a host-side sink instead (the kernel itself
 * is the consumer: the tracer's tests and benchmarks, bin/harness.ts): the same records, as markers with
 * absolute stream positions, and the buffer drained at each overflow and at each traced exit.
 */
import { createHash } from 'node:crypto';
import { BIOCBLOCK, BIOCGSTAT, BIOCMAP, BIOCSMAP, BIOCSRTIMEOUT, BIOCSWATCH, BIOCUNBLK, XLAT_BASE } from '../format/trbuf.js';
import { sequenceStart } from './trbuf_rollback.js';
import { COST } from './cost.js';
import { EBUSY, EINVAL, ENODEV, ENOMEM, ENOTTY, EPERM, EWOULDBLOCK } from './errno.js';
import type { Cdevsw } from './dev.js';
import type { TrbufMapper } from './sys_trbuf.js';
import type { Uio } from './kern_descrip.js';
import { wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { T_INTR, T_SYSCALL, VM_PROT_READ, VM_PROT_WRITE, type TrapKind } from './machdep.js';
import { PAGE_SIZE, PCATCH, PSOCK, TRBUF_END } from './param.js';
import type { KGen, Proc } from './proc.js';
import { syscallTable } from '../format/syscalltab.js';
import { BLK_OVERFLOW, BLK_REQUEST, BLK_SCHED, PRTRC_ANA, PRTRC_TRC, TraceBlock } from './trbuf_block.js';
import { encodeHeader, encodeRecord, type Marker } from '../format/sched.js';
import type { TargetName } from '../format/target.js';
import { copyin, fuword } from './vm/copyio.js';
import { VM_INHERIT_SHARE, VmMapEntry } from './vm/vm_map.js';
import { VmObject } from './vm/vm_object.js';

export { PRTRC_ANA, PRTRC_TRC, PRTRC_WAK } from './trbuf_block.js';

/** Character-device major number of /dev/trbuf (after 4.4BSD's mem 2; 20 is free in emu). */
export const TRBUF_MAJOR = 20;
export const TRBUF_SIZE_DEFAULT = 1 << 20;
/** Capacity of the kernel's schedule buffer. */
export const TRBUF_SCHED_SIZE = 32768;
/** Cycles a process may run after an interrupt rolled it back (longer than any sequence). */
export const MIN_RUN = 16;

/** Where the kernel drains trace bytes and markers when it is the consumer itself. */
export interface TrbufSink {
  trace(bytes: Uint8Array): void;
  marker(m: Marker): void;
}

/** Collects everything in memory (tests, benchmarks). */
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

/** The device's counters (the bundle manifest's `run` and the statistics). */
export interface TrbufStats {
  overflows: number;
  schedBlocks: number;
  requests: number;
  blockedCycles: number;
  schedBytes: number;
  schedRecords: number;
  rollbacks: number;
  lostBytes: number;
}

const SYS_sigreturn = syscallTable().find((e) => e.name === 'sigreturn')!.number;

/**
 * The kernel's schedule buffer (paper 3.1: "located in kernel memory"): records appended at the
 * end, read from the front by the consumer.
 */
export class SchedBuffer {
  private buf: Uint8Array;
  private len = 0;
  /** Bytes ever appended (for the statistics). */
  total = 0;
  records = 0;

  constructor(readonly capacity: number) {
    this.buf = new Uint8Array(capacity);
  }

  get pending(): number {
    return this.len;
  }
  /** Free space below which returning to user mode raises T_SBOF. */
  get nearlyFull(): boolean {
    return this.capacity - this.len < Math.max(512, this.capacity >> 3);
  }

  /** Appends a record; false when it does not fit at all (the caller panics). */
  append(bytes: ArrayLike<number>): boolean {
    if (this.len + bytes.length > this.capacity) return false;
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    this.total += bytes.length;
    this.records++;
    return true;
  }

  /** Takes up to n bytes from the front. */
  take(n: number): Uint8Array {
    n = Math.min(n, this.len);
    const out = this.buf.slice(0, n);
    this.buf.copyWithin(0, n, this.len);
    this.len -= n;
    return out;
  }
}

export class TrbufDevice implements TrbufMapper {
  private obj: VmObject | null = null;
  readonly base: number;
  /** The shared trace pointer while the kernel runs (4.4BSD-trbuf's trbuf_g6). */
  trbuf_g6: number;
  private readonly ptrReg: number;
  /** The stack pointer: MIPS sp, SPARC %o6. */
  private readonly spReg: number;
  /** Host mode: bytes delivered to the sink so far. */
  drained = 0;
  /** Per traced process: instructions retired and then undone by rollback. */
  private readonly undone = new Map<Proc, number>();
  private readonly inSigreturn = new Set<Proc>();
  private readonly needStart = new Set<Proc>();
  /** The sha256 of each mapped executable's file data, cached per vnode object. */
  private readonly hashes = new WeakMap<object, string>();
  private readonly execHash = new Map<Proc, string>();
  /** Last traced process scheduled (trbuf_pid), and whether an overflow happened since. */
  private trbuf_pid = -1;
  private overflowSince = false;
  readonly sched: SchedBuffer;
  readonly blk: TraceBlock;
  consumer: Proc | null = null;
  /** The consumer has gone: the trace is over; later overflows are discarded and counted. */
  finished = false;
  private readonly readChan = {};
  private readTimeout = 0;
  private watchPid = -1;
  private watchDone = false;
  private rollbacks = 0;
  private lostBytes = 0;

  constructor(readonly k: Kernel, readonly host: TrbufSink | null, readonly size = k.trbufSize, schedSize = TRBUF_SCHED_SIZE) {
    if (size % PAGE_SIZE !== 0 || size <= 0) throw new Error(`trace buffer size ${size} is not a positive multiple of the page size`);
    if (size > k.trbufSize) throw new Error(`trace buffer size ${size} exceeds the range the kernel keeps free (${k.trbufSize})`);
    this.base = TRBUF_END - size;
    this.trbuf_g6 = this.base;
    this.ptrReg = k.md.arch === 'mips' ? 26 : 6;
    this.spReg = k.md.arch === 'mips' ? 29 : 14;
    this.sched = new SchedBuffer(schedSize);
    this.blk = new TraceBlock(k);
  }

  /**
   * Registers /dev/trbuf and the kernel hooks; call before Kernel.boot. With a sink the kernel
   * drains the buffer itself (no guest consumer).
   */
  static attach(k: Kernel, sink: TrbufSink | null = null, opts: { size?: number; schedSize?: number } = {}): TrbufDevice {
    const d = new TrbufDevice(k, sink, opts.size ?? k.trbufSize, opts.schedSize ?? TRBUF_SCHED_SIZE);
    k.devs.register(TRBUF_MAJOR, d.cdevsw(), [['trbuf', 0]]);
    k.trbuf = d;
    k.addHook({
      kernEnter: (p, kind) => d.kernEnter(p, kind),
      userRet: (p) => d.userRet(p),
      fault: (p, va, ftype) => d.fault(p, va, ftype),
      switched: (_prev, next) => d.switched(next),
      fork: (p, c) => d.fork(p, c),
      exec: (p) => d.exec(p),
      exit: (p) => d.exit(p),
      signal: (p, sig, handler, pc) => d.signal(p, sig, handler, pc),
      trampoline: (p, tramp) => d.trampoline(p, tramp),
      holdRunnable: (p) => d.blk.holdRunnable(p),
    });
    return d;
  }

  get stats(): TrbufStats {
    const c = this.blk.counts;
    return {
      overflows: c[BLK_OVERFLOW]!, schedBlocks: c[BLK_SCHED]!, requests: c[BLK_REQUEST]!, blockedCycles: this.blk.cycles,
      schedBytes: this.sched.total, schedRecords: this.sched.records, rollbacks: this.rollbacks, lostBytes: this.lostBytes,
    };
  }

  private traced(p: Proc): boolean {
    return (p.p_trace_stat & PRTRC_TRC) !== 0;
  }
  private icount(p: Proc): number {
    return p.stats.insns - (this.undone.get(p) ?? 0);
  }

  /** Appends a record: to the schedule buffer, or as a marker to the host sink. */
  private record(m: Marker): void {
    if (this.finished) return;
    if (this.host) {
      m.pos = this.drained + (this.trbuf_g6 - this.base);
      this.host.marker(m);
      return;
    }
    if (!this.sched.append(encodeRecord(m, this.trbuf_g6, this.k.clock.now))) {
      this.k.halt(126, 'panic', `trbuf: the schedule buffer overflowed (${this.sched.capacity} bytes) before the consumer read it`);
    }
  }
  private base_(p: Proc): { pid: number; pos: number; icount: number } {
    return { pid: p.p_pid, pos: 0, icount: this.icount(p) };
  }

  private cdevsw(): Cdevsw {
    const d = this;
    return {
      name: 'trbuf',
      open(): number {
        return d.reserve();
      },
      *read(k, p, _minor, uio): KGen<number> {
        return yield* d.read(k, p, uio);
      },
      *write(): KGen<number> {
        return ENODEV;
      },
      ioctl(k, p, _minor, cmd, data): number {
        return d.ioctl(k, p, cmd, data);
      },
    };
  }

  /** The first open (or trbufmap) reserves the buffer's memory and starts the schedule stream. */
  private reserve(): number {
    if (!this.obj) {
      this.obj = VmObject.create(this.k.pages, 'trbuf', null, this.size);
      if (!this.obj) return ENOMEM;
      this.obj.reference();
      if (!this.host) this.sched.append(encodeHeader(this.archName(), this.base, this.size));
    }
    return 0;
  }

  /** trbufmap(2): open and BIOCMAP in one (os/sys_trbuf.ts); no descriptor involved. */
  mapTraced(p: Proc): number {
    return this.reserve() || this.mapTrc(p);
  }

  /** BIOCMAP: the buffer mapped read-write, p traced from its return to user mode (its START). */
  private mapTrc(p: Proc): number {
    const e = this.map(p, VM_PROT_READ | VM_PROT_WRITE);
    if (e) return e;
    p.p_trace_stat |= PRTRC_TRC;
    this.needStart.add(p);
    return 0;
  }

  private archName(): TargetName {
    if (this.k.md.arch === 'sparc') return 'sparc';
    return this.k.littleEndian ? 'mipsel' : 'mips';
  }

  private ioctl(k: Kernel, p: Proc, cmd: number, data: DataView): number {
    const le = k.littleEndian;
    switch (cmd) {
      case BIOCMAP:
        return this.mapTrc(p);
      case BIOCSMAP: {
        if (this.host) return ENODEV;
        if (this.consumer && this.consumer !== p) return EBUSY;
        const e = this.map(p, VM_PROT_READ);
        if (e) return e;
        p.p_trace_stat |= PRTRC_ANA;
        this.consumer = p;
        this.finished = false;
        data.setUint32(0, this.base, le);
        data.setUint32(4, this.size, le);
        data.setUint32(8, this.trbuf_g6, le);
        data.setUint32(12, this.sched.capacity, le);
        return 0;
      }
    }
    // The consumer's requests.
    if (p !== this.consumer) return cmd === BIOCGSTAT || cmd === BIOCBLOCK || cmd === BIOCUNBLK || cmd === BIOCSRTIMEOUT || cmd === BIOCSWATCH ? EPERM : ENOTTY;
    switch (cmd) {
      case BIOCGSTAT:
        data.setUint32(0, this.blk.reason, le);
        data.setUint32(4, this.sched.pending, le);
        data.setUint32(8, this.trbuf_g6, le);
        data.setUint32(12, this.watchDone ? 1 : 0, le);
        return 0;
      case BIOCBLOCK:
        this.blk.block(BLK_REQUEST);
        return 0;
      case BIOCUNBLK:
        // The consumer's pointer register was saved into trbuf_g6 at this kernel entry.
        if (this.trbuf_g6 < this.base || this.trbuf_g6 > TRBUF_END) return EINVAL;
        if (this.blk.blocked) {
          this.overflowSince = true;
          this.blk.unblock();
        }
        return 0;
      case BIOCSRTIMEOUT: {
        const ms = data.getUint32(0, le);
        this.readTimeout = ms === 0 ? 0 : Math.max(1, Math.ceil((ms * k.hz) / 1000));
        return 0;
      }
      case BIOCSWATCH:
        this.watchPid = data.getInt32(0, le);
        this.watchDone = false;
        return 0;
      default:
        return ENOTTY;
    }
  }

  /** The consumer's read: waits for a block (or the timeout, or the watched exit), then schedule bytes. */
  private *read(k: Kernel, p: Proc, uio: Uio): KGen<number> {
    if (p !== this.consumer) return EPERM;
    if (!this.blk.blocked && !this.watchDone) {
      const e = yield* tsleep(k, this.readChan, PSOCK | PCATCH, 'trbufrd', this.readTimeout);
      if (e && e !== EWOULDBLOCK) return e;
    }
    const n = Math.min(uio.resid, this.sched.pending);
    if (n === 0) return 0;
    k.charge(n * COST.copyPerByte);
    const bytes = this.sched.take(n);
    return uio.move(bytes, 0, n);
  }

  /** Maps the buffer into p (shared across fork); the guard page stays reserved. */
  private map(p: Proc, prot: number): number {
    if (!this.obj) return ENODEV;
    const vs = p.p_vmspace!;
    if (vs.lookup(this.base)) return 0;
    const i = vs.reserved.findIndex(([s, t]) => s <= this.base && t >= TRBUF_END);
    if (i >= 0) {
      const [s, t] = vs.reserved[i]!;
      const keep: [number, number][] = [];
      if (s < this.base) keep.push([s, this.base]);
      if (t > TRBUF_END) keep.push([TRBUF_END, t]);
      vs.reserved.splice(i, 1, ...keep);
    }
    const e = new VmMapEntry(this.base, TRBUF_END, prot, VM_INHERIT_SHARE, 'device', this.obj, 0, this.size / PAGE_SIZE, true);
    if (!vs.insert(e)) return ENOMEM;
    if (prot & VM_PROT_WRITE) this.execHash.set(p, this.hashOf(p));
    return 0;
  }

  /** sha256 of the executable p runs (the program identity of its START record). */
  private hashOf(p: Proc): string {
    const text = p.p_vmspace!.entries.find((e) => e.kind === 'text' && e.object)?.object;
    if (!text) return '';
    let h = this.hashes.get(text);
    if (h === undefined) {
      h = text.data ? createHash('sha256').update(text.data).digest('hex') : '';
      this.hashes.set(text, h);
    }
    return h;
  }

  // ---- hooks ----

  /** A traced process's signal enters the translation of its trampoline (file comment). */
  private trampoline(p: Proc, tramp: number): number {
    if ((p.p_trace_stat & PRTRC_TRC) === 0) return tramp;
    const t = fuword(p.p_vmspace!, (XLAT_BASE + tramp) >>> 0);
    return t === undefined ? tramp : t >>> 0;
  }

  /** Every kernel entry: the shared pointer saved, an interrupted sequence rolled back (3.2.2). */
  private kernEnter(p: Proc, kind: TrapKind): void {
    const st = p.p_trace_stat;
    if ((st & (PRTRC_TRC | PRTRC_ANA)) === 0) return;
    const md = this.k.md;
    this.trbuf_g6 = md.getreg(p, this.ptrReg) >>> 0;
    if ((st & PRTRC_TRC) === 0) return;
    const pc = md.getpc(p);
    const vs = p.p_vmspace!;
    const r = sequenceStart(md.arch, pc, (va) => fuword(vs, va));
    if (r.pc !== pc) {
      md.setpc(p, r.pc);
      this.undone.set(p, (this.undone.get(p) ?? 0) + r.undone);
      this.rollbacks++;
      if (kind === T_INTR) p.p_minrun = MIN_RUN;
    }
    if (kind === T_SYSCALL && md.syscallCode(p) === SYS_sigreturn) this.inSigreturn.add(p);
  }

  /** Every return to user mode: T_SBOF, the block, the START and SIGRETURN records, the pointer. */
  private userRet(p: Proc): KGen<void> | void {
    const st = p.p_trace_stat;
    const blk = this.blk;
    if (st & PRTRC_TRC && !this.finished) {
      if (blk.blocked) return blk.sleep();
      if (this.needStart.delete(p)) {
        // The stack pointer the entry point starts with (the prologue leaves it as exec set it,
        // and no handler frame can be on it: exec resets caught signals and the program has not
        // run yet): regeneration starts from it instead of a record of it (docs/trace-bundle.md).
        this.record({ kind: 'start', ...this.base_(p), sp: this.k.md.getreg(p, this.spReg) >>> 0, hash: this.execHash.get(p) ?? '' });
        this.trbuf_pid = p.p_pid;
        this.overflowSince = false;
      }
      if (this.inSigreturn.delete(p)) this.record({ kind: 'sigreturn', ...this.base_(p) });
    }
    if (!this.host && !this.finished && !blk.blocked && (st & PRTRC_ANA) === 0 && this.sched.nearlyFull) {
      // T_SBOF (3.2.2): the schedule buffer is nearly full — blocked as for an overflow.
      blk.block(BLK_SCHED);
      wakeup(this.k, this.readChan);
      if (st & PRTRC_TRC) return blk.sleep();
    }
    if (st & (PRTRC_TRC | PRTRC_ANA)) this.k.md.setreg(p, this.ptrReg, this.trbuf_g6);
  }

  /** Host mode: the buffer [base, trbuf_g6) to the sink, the pointer reset. */
  private drain(p: Proc): void {
    const n = this.trbuf_g6 - this.base;
    if (n <= 0) return;
    const bytes = copyin(p.p_vmspace!, this.base, n);
    if (typeof bytes === 'number') throw new Error(`trbuf: cannot read the trace buffer of pid ${p.p_pid}`);
    this.host!.trace(bytes);
    this.drained += n;
    this.trbuf_g6 = this.base;
    this.overflowSince = true;
  }

  /** A store into the guard page: the buffer is full (3.2.3). */
  private fault(p: Proc, va: number, ftype: number): KGen<void> | null {
    if (!this.traced(p) || va < TRBUF_END || va >= TRBUF_END + PAGE_SIZE || (ftype & VM_PROT_WRITE) === 0) return null;
    if (this.host) {
      this.drain(p);
      return (function* (): KGen<void> {})();
    }
    if (this.finished) {
      // Nobody consumes any more: the bytes are dropped (and counted) so the process can go on.
      this.lostBytes += this.trbuf_g6 - this.base;
      this.trbuf_g6 = this.base;
      return (function* (): KGen<void> {})();
    }
    this.blk.block(BLK_OVERFLOW);
    wakeup(this.k, this.readChan);
    return this.blk.sleep();
  }

  /** End of cpu_switch: the schedule marker (3.2.2). */
  private switched(next: Proc): void {
    // A process that mapped the buffer is traced from its START, at its return to user mode.
    if (!this.traced(next) || this.finished || this.needStart.has(next)) return;
    if (next.p_pid === this.trbuf_pid && !this.overflowSince) return;
    this.record({ kind: 'switch', ...this.base_(next), pc: this.k.md.getpc(next) >>> 0 });
    this.trbuf_pid = next.p_pid;
    this.overflowSince = false;
  }

  private fork(parent: Proc, child: Proc): void {
    if (!this.traced(parent)) return;
    child.p_trace_stat |= PRTRC_TRC;
    const h = this.execHash.get(parent);
    if (h !== undefined) this.execHash.set(child, h);
    this.record({ kind: 'fork', ...this.base_(parent), child: child.p_pid });
  }

  private exec(p: Proc): void {
    if (p.p_trace_stat & PRTRC_TRC) this.record({ kind: 'exec', ...this.base_(p) });
    if (p === this.consumer) this.consumerGone();
    p.p_trace_stat &= ~(PRTRC_TRC | PRTRC_ANA);
    this.needStart.delete(p);
    this.inSigreturn.delete(p);
    this.execHash.delete(p);
  }

  private exit(p: Proc): void {
    if (this.traced(p)) {
      if (this.inSigreturn.delete(p)) this.record({ kind: 'sigreturn', ...this.base_(p) });
      if (!this.needStart.has(p)) this.record({ kind: 'exit', ...this.base_(p), status: p.p_xstat, pc: this.k.md.getpc(p) >>> 0 });
      if (this.host) this.drain(p);
    }
    if (p === this.consumer) this.consumerGone();
    if (p.p_pid === this.watchPid) {
      this.watchDone = true;
      wakeup(this.k, this.readChan);
    }
    this.undone.delete(p);
    this.needStart.delete(p);
    this.inSigreturn.delete(p);
    this.execHash.delete(p);
  }

  private signal(p: Proc, sig: number, handler: number, pc: number): void {
    if (!this.traced(p)) return;
    // A sigreturn whose return to user mode delivers the next signal: the interrupted context was
    // resumed first.
    if (this.inSigreturn.delete(p)) this.record({ kind: 'sigreturn', ...this.base_(p) });
    this.record({ kind: 'signal', ...this.base_(p), sig, handler: handler >>> 0, pc: pc >>> 0 });
  }

  /** The consumer exited or exec'ed: tracing ends; blocked processes go on. */
  private consumerGone(): void {
    this.consumer = null;
    this.finished = true;
    this.blk.unblock();
  }
}
