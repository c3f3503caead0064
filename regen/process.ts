/**
 * Abstract execution of one process (larus-1990 section 3; ball-larus-1994 Figure 15 with a
 * stack of procedures): the reference regenerator, one step (tracer/rewrite.ts Item) at a time.
 *
 * The state is explicit, so a process can be cloned (fork), given another program (exec), and
 * suspended at any instruction boundary of its instrumented program: `run(stop)` executes steps
 * until the process has retired `stop` instructions of the instrumented program, the count the
 * kernel's markers carry (os/trbuf_rollback.ts keeps it exact).
 *
 * Registers: MIPS r0..r31, HI (32), LO (33). SPARC: %g0..%g7 at 0..7, window w's %o at
 * 16w+8.., %l at 16w+16.., its %i are window w-1's %o (16w-8..); `wb` = 16w. Only the registers
 * the schema says regeneration computes or reads from the trace hold the program's values.
 */
import type { Item } from '../format/schema.js';
import { evalOp } from '../tracer/semantics.js';
import type { SInsn, SSrc } from '../format/schema.js';
import type { RBlock, REdge, RFunc, RegenProgram } from './model.js';
import { itemCost, RegenError } from './model.js';
import { decideEdge } from './decide.js';
import type { ContextReader } from './stream.js';
import { SLOT_BASE } from '../tracer/slots.js';
import { compileFunc } from './compile.js';
import { runUnits } from './engine.js';
import { deliverSignalTo, isAtPc, nextPcOf, sigreturnOf } from './signals.js';
import { speculateTo } from './speculate.js';
import { AT_BLOCK, AT_EDGE, AT_ENTRY, MIPS_CALLEE_SAVED, MIPS_SP, NO_SLOTS, SPARC_SP, type Frame } from './frame.js';
import { jmpEntryOf, longjmpOf, unwindTo, type JmpSnapshot } from './nonlocal.js';

export interface EventSink {
  ifetch(pc: number): void;
  load(addr: number, size: number): void;
  store(addr: number, size: number): void;
  /**
   * Optional: `events` events at once in n entries, in order (regen/engine.ts), as
   * RefConsumer.refBatch has them (regen/replay/consumer.ts: kind, address, size, and runs of
   * fetches). The arrays are reused: copy what you keep.
   */
  events?(n: number, events: number, kind: Uint8Array, addr: Uint32Array, size: Uint8Array): void;
}

export { RegenError } from './model.js';

export class RegenProcess {
  R: Int32Array;
  wb = 32;
  y = 0;
  fn!: RFunc;
  at = AT_ENTRY;
  id = 0;
  item = 0;
  /** Instructions already executed of a multi-instruction glue item. */
  sub = 0;
  frames: Frame[] = [];
  /** The stack slots of the current activation that regeneration tracks (tracer/slots.ts). */
  slots = new Map<number, number>();
  pending = -1;
  /** Instructions of the instrumented program retired so far. */
  ic = 0;
  /**
   * Instructions of the prologue still to run after the START point (the trbufmap system call):
   * the branch on its result and the delay slot, which make no reference of the original program, but an
   * interrupt may switch the process out in the middle of it (a schedule marker counts them).
   */
  prologueLeft = 0;
  /** Target of the indirect transfer being executed. */
  target = 0;
  /** A recorded indirect jump inside the function lands on an entry stub (its records run). */
  viaEntry = false;
  /** jmp_buf address seen at the entry of a longjmp. */
  jbuf = 0;
  /** @internal setjmp snapshots by jmp_buf address (adopt copies them). */
  readonly jmpbufs = new Map<number, JmpSnapshot>();
  /** The system call just executed (for restarts), or -1. */
  lastSyscall = -1;
  done = false;
  /** Dynamic counts: witness bytes, and value bytes recorded at entries, in bodies, on edges. */
  readonly counts = { witness: 0, entry: 0, body: 0, edge: 0, witnessItems: 0, recordItems: 0 };

  /** Run whole units fast (false: the reference interpreter only, for lockstep tests). */
  compiled = true;
  /**
   * The fast code: the table engine (regen/engine.ts), or with this set the schemas compiled to
   * JavaScript functions (regen/compile.ts), a second implementation kept for differential tests.
   */
  compiledSchemas = false;
  /** Called after every witness and record the interpreter executes (bench/tracer_bytes.ts; the compiled code does not call it). */
  profile: ((it: Item, fn: RFunc) => void) | null = null;

  constructor(readonly prog: RegenProgram, public reader: ContextReader, readonly sink: EventSink) {
    this.R = new Int32Array(prog.sparc ? 32 + 16 * 64 : 34);
  }

  // ---- registers ----

  /** @internal The index in R of register r (SPARC: of the current window). */
  idx(r: number): number {
    if (!this.prog.sparc || r < 8) return r;
    return this.wb + r - (r >= 24 ? 32 : 0);
  }
  reg(r: number): number {
    if (r === 0) return 0;
    if (r >= SLOT_BASE) return this.slots.get(r) ?? 0;
    if (this.prog.sparc && r === 65) return this.y;
    return this.R[this.idx(r)]!;
  }
  setReg(r: number, v: number): void {
    if (r === 0) return;
    if (r >= SLOT_BASE) {
      this.slotSet(r, v);
      return;
    }
    if (this.prog.sparc && r === 65) {
      this.y = v | 0;
      return;
    }
    this.R[this.idx(r)] = v;
  }
  private src(s: SSrc | null): number {
    if (s === null) return 0;
    return typeof s === 'number' ? this.reg(s) : s.k;
  }
  /** Writes a tracked stack slot of the current activation. */
  /** @internal (compiled code) */
  slotSet(r: number, v: number): void {
    if (this.slots === NO_SLOTS) this.slots = new Map();
    this.slots.set(r, v | 0);
  }
  /** @internal (compiled code) */
  moveWindow(d: number): void {
    this.wb += 16 * d;
    if (this.wb < 16) throw this.error('register window underflow (more restores than saves)');
    if (this.wb + 48 > this.R.length) {
      const n = new Int32Array(this.R.length * 2);
      n.set(this.R);
      this.R = n;
    }
  }

  // ---- trace ----

  /**
   * A copy of the whole state, sharing nothing mutable (fork: the child continues from the
   * parent's point). Frames, tracked slots and jmp_buf snapshots keep their sharing: a snapshot
   * and a frame that referred to one activation's slots still do in the copy. `reader` is the
   * context reader the copy reads (a fork's child reads its own part of the stream), and
   * `mapReader` gives the copy's reader for each reader a signal frame holds (default: a copy at
   * the same position).
   */
  clone(reader: ContextReader, sink: EventSink, mapReader: (r: ContextReader) => ContextReader = (r) => r.clone()): RegenProcess {
    const c = new RegenProcess(this.prog, reader, sink);
    const maps = new Map<Map<number, number>, Map<number, number>>();
    const slots = (m: Map<number, number>): Map<number, number> => {
      if (m === NO_SLOTS) return m;
      let n = maps.get(m);
      if (!n) maps.set(m, (n = new Map(m)));
      return n;
    };
    const frames = new Map<Frame, Frame>();
    const frame = (f: Frame): Frame => {
      let n = frames.get(f);
      if (!n) {
        n = { ...f, regs: f.regs.slice(), slots: slots(f.slots) };
        if (f.reader) n.reader = mapReader(f.reader);
        frames.set(f, n);
      }
      return n;
    };
    c.R = this.R.slice();
    c.wb = this.wb;
    c.y = this.y;
    c.fn = this.fn;
    c.at = this.at;
    c.id = this.id;
    c.item = this.item;
    c.sub = this.sub;
    c.frames = this.frames.map(frame);
    c.slots = slots(this.slots);
    c.pending = this.pending;
    c.ic = this.ic;
    c.prologueLeft = this.prologueLeft;
    c.target = this.target;
    c.viaEntry = this.viaEntry;
    c.jbuf = this.jbuf;
    for (const [k, snap] of this.jmpbufs) c.jmpbufs.set(k, { frames: snap.frames.map(frame), regs: snap.regs.slice(), wb: snap.wb });
    c.lastSyscall = this.lastSyscall;
    c.done = this.done;
    c.compiled = this.compiled;
    c.compiledSchemas = this.compiledSchemas;
    c.profile = this.profile;
    return c;
  }

  /** @internal (compiled code) */
  readWitness(bytes: 1 | 2): number {
    const a = this.reader.byte();
    return bytes === 1 ? a : (a << 8) | this.reader.byte();
  }
  /**
   * A witness read ahead at a predicate, or -1 when the stream holds none for this context: the
   * process ended (or left the context for good) between its branch and the witness it would
   * have written (see speculate).
   */
  /** @internal (compiled code) */
  readWitnessAhead(bytes: 1 | 2): number {
    if (!this.reader.has(bytes)) return -1;
    return this.readWitness(bytes);
  }
  /**
   * A known loop's stopping value read ahead (the schema's `a` step, tracer/known.ts), or
   * `otherwise` when this context holds no more bytes: the process ended inside the loop, or a
   * signal handler left it by longjmp, before the loop's exit recorded the value.
   */
  /** @internal (compiled code) */
  readAhead(w: number, otherwise: number): number {
    if (!this.reader.has(w)) return otherwise;
    return this.readValue(w);
  }
  /** A recorded value of |w| bytes in the target's byte order; w < 0: sign-extended. */
  /** @internal (compiled code) */
  readValue(w: number): number {
    const n = Math.abs(w);
    let v = 0;
    if (this.prog.littleEndian) for (let i = 0; i < n; i++) v |= this.reader.byte() << (8 * i);
    else for (let i = 0; i < n; i++) v = (v << 8) | this.reader.byte();
    if (w < 0) v = (v << (32 - 8 * n)) >> (32 - 8 * n);
    else if (n < 4) v >>>= 0;
    return v | 0;
  }

  error(msg: string): RegenError {
    const b = this.at === AT_EDGE ? this.fn.blocks[this.fn.edges[this.id]!.from] : this.fn.blocks[this.id];
    const where = b ? `${this.fn.name}+0x${(b.addr - this.fn.addr).toString(16)} (block 0x${b.addr.toString(16)})` : this.fn.name;
    return new RegenError(`${where}, instruction ${this.ic}, trace position ${this.reader.position}: ${msg}`);
  }

  // ---- entering code ----

  /** Enters fn at block through its entry (the entry's records run first): a new activation. */
  enter(fn: RFunc, block: number): void {
    this.fn = fn;
    this.slots = NO_SLOTS;
    if (fn.entries.has(block)) {
      this.at = AT_ENTRY;
      this.id = block;
    } else {
      this.at = AT_BLOCK;
      this.id = block;
    }
    this.item = 0;
    this.sub = 0;
  }

  /**
   * The process start: the prologue after trbufmap, then the entry point, whose stack pointer is
   * the START marker's (the entry function carries it: tracer/slice.ts).
   */
  start(icount: number, sp: number): void {
    this.ic = icount;
    this.setReg(this.prog.sparc ? SPARC_SP : MIPS_SP, sp | 0);
    this.prologueLeft = this.prog.schema.prologue.afterStart;
    this.enter(this.prog.entryFunc, 0);
  }

  // ---- execution ----

  private insn(a: SInsn | null, pc: number): void {
    this.sink.ifetch(pc);
    if (a === null) return;
    if (a.t) {
      let t = a.t[1];
      for (const r of a.t[0]) t += this.reg(r);
      this.target = t >>> 0;
    }
    if (a.m) {
      const [kind, size, base, index, off] = a.m;
      let va = this.reg(base) + off;
      if (index >= 0) va += this.reg(index);
      va >>>= 0;
      if (kind === 0) this.sink.load(va, size);
      else if (kind === 1) this.sink.store(va, size);
      else {
        this.sink.load(va, size);
        this.sink.store(va, size);
      }
      if (a.v) this.setReg(a.v[0], this.prog.roLoad(va, a.v[1], pc));
    }
    const c = a.c;
    if (c) {
      const [op, d, sa, sb] = c;
      const v = evalOp(op, this.src(sa), this.src(sb), this.y);
      if (a.w) this.moveWindow(a.w);
      for (let i = 0; i < d.length; i++) this.setReg(d[i]!, v[i]!);
    } else if (a.w) this.moveWindow(a.w);
  }

  /** Executes one item; false when the item does not fit before `stop`. */
  private item1(it: Item, b: RBlock, stop: number): boolean {
    const cost = itemCost(it);
    if (it[0] === 'g' || (it[0] === 'r' && it[4] > 0)) {
      // Glue (and the nop before a MIPS record) may be interrupted between its instructions.
      const glue = it[0] === 'g' ? it[1] : it[4];
      while (this.sub < glue) {
        if (this.ic + 1 > stop) return false;
        this.ic++;
        this.sub++;
      }
      if (it[0] === 'g') {
        this.sub = 0;
        return true;
      }
      const seq = it[2] - it[4];
      if (this.ic + seq > stop) return false;
      this.ic += seq;
      this.sub = 0;
      this.setReg(it[1], this.readValue(it[3]));
      this.counts[this.at === AT_ENTRY ? 'entry' : this.at === AT_BLOCK ? 'body' : 'edge'] += Math.abs(it[3]);
      this.counts.recordItems++;
      this.profile?.(it, this.fn);
      return true;
    }
    if (this.ic + cost > stop) return false;
    this.ic += cost;
    switch (it[0]) {
      case 'o': {
        const a = b.insns[it[1]]!;
        this.insn(a, b.addr + 4 * it[1]);
        break;
      }
      case 'd':
        this.insn(b.ds, b.addr + 4 * b.n);
        break;
      case 'w': {
        const e = this.fn.edges[this.id]!;
        let w: number;
        if (this.pending >= 0) {
          w = this.pending;
          this.pending = -1;
        } else w = this.readWitness(this.fn.wbytes);
        if (w !== e.witness) throw this.error(`witness ${w} read where edge ${e.id} writes ${e.witness}`);
        this.counts.witness += this.fn.wbytes;
        this.counts.witnessItems++;
        this.profile?.(it, this.fn);
        break;
      }
      case 'r':
        this.setReg(it[1], this.readValue(it[3]));
        this.counts[this.at === AT_ENTRY ? 'entry' : this.at === AT_BLOCK ? 'body' : 'edge'] += Math.abs(it[3]);
        this.counts.recordItems++;
        this.profile?.(it, this.fn);
        break;
      case 'a':
        this.setReg(it[1], this.readAhead(it[2], (this.src(it[3]) - it[4]) | 0));
        this.counts.edge += it[2];
        this.counts.recordItems++;
        this.profile?.(it, this.fn);
        break;
    }
    return true;
  }

  /**
   * Runs until `stop` instructions have retired, the process ends, or an error: the table engine
   * (regen/engine.ts) for whole units, the interpreter around the stop point.
   */
  run(stop: number): void {
    if (this.prologueLeft > 0) {
      const k = Math.max(0, Math.min(this.prologueLeft, stop - this.ic));
      this.ic += k;
      this.prologueLeft -= k;
      if (this.prologueLeft > 0) return;
    }
    while (!this.done && this.ic <= stop) {
      if (this.compiled && this.sub === 0 && (this.item === 0 || this.resumesCall())) {
        const fn = this.fn;
        const ic = this.ic;
        const at = this.at;
        const id = this.id;
        const item = this.item;
        if (this.compiledSchemas) (fn.code ??= compileFunc(this.prog, fn))(this, stop);
        else runUnits(this, stop);
        if (this.ic !== ic || this.fn !== fn || this.at !== at || this.id !== id || this.item !== item) continue;
      }
      if (!this.step(stop)) return;
    }
  }

  /** At the rest of a call's out-edge, after the callee returned. */
  private resumesCall(): boolean {
    if (this.at !== AT_EDGE || this.item !== 1) return false;
    const e = this.fn.edges[this.id]!;
    const t = this.fn.blocks[e.from]!.term;
    return (t === 'call' || t === 'icall') && e.items[0]?.[0] === 'd';
  }

  /** One item or one transfer; false when stopped. */
  private step(stop: number): boolean {
    const fn = this.fn;
    switch (this.at) {
      case AT_ENTRY: {
        const en = fn.entries.get(this.id)!;
        if (this.item < en.items.length) {
          if (!this.item1(en.items[this.item]!, fn.blocks[this.id]!, stop)) return false;
          this.item++;
          return true;
        }
        this.at = AT_BLOCK;
        this.item = 0;
        if (fn.role === 'setjmp' || fn.role === 'longjmp') this.jmpEntry();
        return true;
      }
      case AT_BLOCK: {
        const b = fn.blocks[this.id]!;
        if (this.item < b.items.length) {
          const it = b.items[this.item]!;
          if (!this.item1(it, b, stop)) return false;
          if (it[0] === 'o' && it[1] === b.n - 1 && (b.term === 'trap' || b.term === 'halt')) this.lastSyscall = b.addr + 4 * it[1];
          else if (it[0] === 'o') this.lastSyscall = -1;
          this.item++;
          return true;
        }
        // Never read a witness ahead at the stop point: a signal handler may run first, and the
        // interrupted code may never come back to this predicate (longjmp out of the handler).
        if (b.wt && this.pending < 0 && (this.ic >= stop || !this.reader.has(fn.wbytes))) return false;
        // Nothing continues after a halting trap (MIPS break, SPARC unimp): only a signal
        // handler, which the markers start, takes the process on.
        if (b.term === 'halt') return false;
        this.leaveBlock(b);
        return true;
      }
      default: {
        const e = fn.edges[this.id]!;
        const from = fn.blocks[e.from]!;
        if (this.item < e.items.length) {
          if (!this.item1(e.items[this.item]!, from, stop)) return false;
          this.item++;
          if (this.item === 1 && e.items[0]![0] === 'd' && (from.term === 'call' || from.term === 'icall')) this.callAfterDs(from, e);
          else if (this.item === 1 && e.items[0]![0] === 'd') this.lastSyscall = -1;
          return true;
        }
        this.leaveEdge(from, e);
        return true;
      }
    }
  }

  private goEdge(e: number): void {
    this.at = AT_EDGE;
    this.id = e;
    this.item = 0;
  }

  /** The end of a block's body: the successor edge. */
  /** @internal (compiled code) */
  leaveBlock(b: RBlock): void {
    const fn = this.fn;
    if (b.wt) {
      if (this.pending < 0) this.pending = this.readWitness(fn.wbytes);
      const e = b.wt.get(this.pending);
      if (e === undefined) throw this.error(`witness ${this.pending} selects no successor of this predicate`);
      this.goEdge(e);
      return;
    }
    if (b.dc) return this.goEdge(decideEdge(b.dc, this.src(b.dc[1]), this.src(b.dc[2])));
    if (b.term === 'ijump') {
      const t = this.prog.code(this.target);
      if (!t) throw this.error(`indirect jump to 0x${this.target.toString(16)}, which is no code the schema knows`);
      const e = t.fn === fn ? b.succ.find((x) => fn.edges[x]!.to === t.block) : b.succ.find((x) => fn.blocks[fn.edges[x]!.to]!.term === 'tail');
      if (e === undefined) throw this.error(`indirect jump to 0x${this.target.toString(16)} (${t.fn.name}), not a successor`);
      this.viaEntry = t.fn === fn && t.viaEntry;
      this.goEdge(e);
      return;
    }
    if (b.succ.length !== 1) throw this.error(`block without a unique successor (${b.succ.length}) and no witness table`);
    this.goEdge(b.succ[0]!);
  }

  /** A call happens once its delay slot has executed: the callee runs before the rest of the edge. */
  /** @internal (compiled code) */
  callAfterDs(from: RBlock, e: REdge): void {
    const fn = this.fn;
    const direct = from.term === 'call';
    const callee = direct ? from.target! : this.target;
    // A direct call's target is looked up once per call edge (REdge.callee).
    const t = direct ? (e.callee ??= this.prog.code(callee)) : this.prog.code(callee);
    if (!t) throw this.error(`call to 0x${(callee >>> 0).toString(16)}, which is no function the schema knows`);
    // Not a tail call (which returns to our caller): the caller resumes after the call.
    if (e.kind !== 'exit') {
      this.frames.push({
        kind: 'call', fn, at: AT_EDGE, id: e.id, item: 1, regs: this.saveCallee(), wb: this.wb, y: this.y, slots: this.slots,
      });
    }
    // enter(t.fn, t.block), at the block itself unless the call goes through the entry's stub.
    this.fn = t.fn;
    this.slots = NO_SLOTS;
    this.at = t.viaEntry && t.fn.entries.has(t.block) ? AT_ENTRY : AT_BLOCK;
    this.id = t.block;
    this.item = 0;
    this.sub = 0;
  }

  // Every call and return passes here: a plain array literal (V8 allocates it inline; an
  // Int32Array per call went through a builtin, and Int32Array.from with a map function through
  // V8's generic iterator path, a third of li's regeneration time once).
  private saveCallee(): number[] {
    const R = this.R;
    if (this.prog.sparc) return [R[this.idx(SPARC_SP)]!];
    return [R[16]!, R[17]!, R[18]!, R[19]!, R[20]!, R[21]!, R[22]!, R[23]!, R[28]!, R[29]!, R[30]!];
  }

  /** @internal What a return to frame f restores: its window, its callee-saved registers (MIPS) or %sp (SPARC). */
  restoreCallee(f: Frame): void {
    this.wb = f.wb;
    const R = this.R;
    if (this.prog.sparc) R[this.idx(SPARC_SP)] = f.regs[0]!;
    else for (let i = 0; i < MIPS_CALLEE_SAVED.length; i++) R[MIPS_CALLEE_SAVED[i]!] = f.regs[i]!;
  }

  /** @internal (compiled code) */
  leaveEdge(from: RBlock, e: REdge): void {
    const fn = this.fn;
    const to = fn.blocks[e.to]!;
    if (to.term === 'tail') {
      if (to.target === undefined) {
        // A recorded indirect jump out of the function.
        const t = this.prog.code(this.target);
        if (!t) throw this.error(`indirect jump to 0x${this.target.toString(16)}, which is no code the schema knows`);
        const slots = unwindTo(this, t);
        this.enter(t.fn, t.block);
        if (slots) this.slots = slots;
        if (!t.viaEntry) this.at = AT_BLOCK;
        return;
      }
      const t = this.prog.code(to.target);
      if (!t) throw this.error(`jump to 0x${to.target.toString(16)}, which is no code the schema knows`);
      this.enter(t.fn, t.block);
      if (!t.viaEntry) this.at = AT_BLOCK;
      return;
    }
    if (to.term !== 'exit') {
      this.at = from.term === 'ijump' && this.viaEntry && fn.entries.has(e.to) ? AT_ENTRY : AT_BLOCK;
      this.id = e.to;
      this.item = 0;
      return;
    }
    switch (from.term) {
      case 'return':
        this.ret();
        return;
      case 'longjmp':
        longjmpOf(this);
        return;
      case 'call':
      case 'icall':
        return; // tail call: entered at the delay slot already
      default:
        throw this.error(`control reached the end of ${from.term} code that never continues`);
    }
  }

  private ret(): void {
    const f = this.frames.pop();
    if (!f || f.kind !== 'call') throw this.error(f ? 'return into a signal frame' : 'return with no caller');
    this.restoreCallee(f);
    this.resumeIn(f);
  }

  /** @internal Continues in call frame f's activation where it left off (its slots, its position). */
  resumeIn(f: Frame): void {
    this.slots = f.slots;
    this.fn = f.fn;
    this.at = f.at;
    this.id = f.id;
    this.item = f.item;
    this.sub = 0;
  }

  // ---- setjmp / longjmp (mazieres-smith-1994 2.2.3; regen/nonlocal.ts) ----

  /** @internal (compiled code) At the entry of setjmp or longjmp. */
  jmpEntry(): void {
    jmpEntryOf(this);
  }

  // ---- the end of a process between a branch and its witness ----

  /** At a predicate whose witness the stream does not hold (run stopped there before `stop`). */
  waitsForWitness(): boolean {
    if (this.at !== AT_BLOCK || this.pending >= 0) return false;
    const b = this.fn.blocks[this.id]!;
    return b.wt !== null && this.item >= b.items.length && !this.reader.has(this.fn.wbytes);
  }

  /**
   * The process executed its branch (and maybe more) but never wrote the witness that says which
   * way it went: every path is tried up to `stop` (regen/speculate.ts), and the one state all
   * fitting paths agree on is adopted. Throws a RegenError when no path or several fit.
   */
  speculate(stop: number, pc?: number): void {
    speculateTo(this, stop, pc);
  }

  /** @internal Takes over the whole state of c, a clone that ran ahead (speculateTo). */
  adopt(c: RegenProcess): void {
    this.R = c.R;
    this.wb = c.wb;
    this.y = c.y;
    this.fn = c.fn;
    this.at = c.at;
    this.id = c.id;
    this.item = c.item;
    this.sub = c.sub;
    this.frames = c.frames;
    this.slots = c.slots;
    this.pending = c.pending;
    this.ic = c.ic;
    this.prologueLeft = c.prologueLeft;
    this.target = c.target;
    this.viaEntry = c.viaEntry;
    this.jbuf = c.jbuf;
    this.lastSyscall = c.lastSyscall;
    this.done = c.done;
    this.jmpbufs.clear();
    for (const [k, v] of c.jmpbufs) this.jmpbufs.set(k, v);
  }

  // ---- signals (regen/signals.ts) ----

  /** The instrumented PC the process would execute next (for checking the markers). */
  nextPc(): number {
    return nextPcOf(this);
  }
  /** Delivers a signal at the current point; `pc` is the kernel's resume address. */
  deliverSignal(pc: number, reader: ContextReader): void {
    deliverSignalTo(this, pc, reader);
  }
  /** True when the process resumes at instrumented address pc (or restarts the system call there). */
  isAt(pc: number): boolean {
    return isAtPc(this, pc);
  }
  /** sigreturn: back to the interrupted state of the innermost signal frame. */
  sigreturn(): void {
    sigreturnOf(this);
  }
}
